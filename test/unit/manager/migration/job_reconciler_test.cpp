// The job state machine's common stages and EvictDirectly (job_reconciler.hpp steps 1-6).
#include "manager/descheduler/migration/job_reconciler.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using testing::isDone;
using testing::JobOptions;
using testing::JobReconcilerFixture;
using testing::makeJob;
using testing::makePod;
using testing::pdbRefusal;
using testing::requeuedAfter;
using ::testing::Return;
namespace core = api::core;
namespace sched = api::scheduling;

JobOptions direct(bool passed = true) {
  JobOptions o;
  o.mode = "EvictDirectly";
  o.passed = passed;
  return o;
}

class JobReconcilerTest : public JobReconcilerFixture {
 protected:
  JobReconcilerTest() { cluster_.add(makePod("default", "web-0")); }
};

TEST_F(JobReconcilerTest, ANewJobBecomesPendingAndWaitsForArbitration) {
  cluster_.add(makeJob("j", "default", "web-0", direct(/*passed=*/false)));
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_TRUE(isDone(reconcileOk("j")));
  EXPECT_EQ(job("j").status.phase, "Pending");
  EXPECT_TRUE(cluster_.events.empty());
  EXPECT_TRUE(cluster_.pod("default", "web-0"));
}

TEST_F(JobReconcilerTest, WithoutArbitrationAJobStartsAtOnce) {
  args_.arbitration_args.enabled = false;
  cluster_.add(makeJob("j", "default", "web-0", direct(/*passed=*/false)));
  EXPECT_CALL(cluster_.client, evict("default", "web-0", _));
  reconcileOk("j");
  EXPECT_EQ(job("j").status.phase, "Running");
}

TEST_F(JobReconcilerTest, APausedJobWaits) {
  JobOptions o = direct();
  o.paused = true;
  cluster_.add(makeJob("j", "default", "web-0", o));
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_TRUE(isDone(reconcileOk("j")));
  EXPECT_EQ(job("j").status.phase, "Pending");
}

TEST_F(JobReconcilerTest, EvictDirectlyEvictsThenSucceedsOnceThePodIsGone) {
  args_.default_delete_options = {{"gracePeriodSeconds", 0}};
  cluster_.add(makeJob("j", "default", "web-0", direct()));
  EXPECT_CALL(cluster_.client,
              evict("default", "web-0",
                    Field(&core::DeleteOptions::gracePeriodSeconds, std::optional<int64_t>(0))));
  EXPECT_CALL(cluster_.client, update(_, _, _));  // fills in podRef.uid

  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Running");
  EXPECT_EQ(j.spec.podRef->uid, "uid-web-0");
  const auto* eviction = condition(j, "Eviction");
  ASSERT_NE(eviction, nullptr);
  EXPECT_EQ(eviction->status, "False");
  EXPECT_EQ(eviction->reason, "Evicting");
  EXPECT_EQ(eviction->message,
            "Pod \"default/web-0\" evicted from node \"node-a\" by the reason \"\"");
  EXPECT_FALSE(cluster_.pod("default", "web-0"));

  EXPECT_TRUE(isDone(reconcileOk("j")));
  j = job("j");
  EXPECT_EQ(j.status.phase, "Succeeded");
  EXPECT_EQ(j.status.status, "Complete");
  EXPECT_EQ(j.status.reason, "");
  EXPECT_EQ(j.status.message, "Pod \"default/web-0\" has been evicted");
  EXPECT_EQ(condition(j, "Eviction")->reason, "EvictComplete");
  EXPECT_EQ(condition(j, "Eviction")->status, "True");
  EXPECT_THAT(cluster_.eventReasons(), ElementsAre("Evicting", "EvictComplete", "Complete"));
  EXPECT_EQ(cluster_.events[0].object, "j");
}

TEST_F(JobReconcilerTest, WhileThePodTerminatesTheJobWaits) {
  cluster_.add(makeJob("j", "default", "web-0", direct()));
  EXPECT_CALL(cluster_.client, evict(_, _, _)).WillOnce(Return(Status::ok()));  // still there
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));  // no second eviction
  EXPECT_EQ(job("j").status.phase, "Running");
}

TEST_F(JobReconcilerTest, AMissingPodFailsTheJob) {
  cluster_.add(makeJob("j", "default", "gone", direct()));
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Failed");
  EXPECT_EQ(j.status.reason, "MissingPod");
  EXPECT_EQ(j.status.message, "Abort job caused by missing Pod \"default/gone\"");
  ASSERT_EQ(cluster_.events.size(), 1U);
  EXPECT_EQ(cluster_.events[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(cluster_.events[0].reason, "MissingPod");
}

TEST_F(JobReconcilerTest, APodWithAnotherUIDIsMissing) {
  JobOptions o = direct();
  o.pod_uid = "uid-of-an-earlier-web-0";
  cluster_.add(makeJob("j", "default", "web-0", o));
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  reconcileOk("j");
  EXPECT_EQ(job("j").status.reason, "MissingPod");
}

TEST_F(JobReconcilerTest, AnIncompletePodRefIsInvalid) {
  cluster_.add(makeJob("j", "default", "", direct()));
  reconcileOk("j");
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Failed");
  EXPECT_EQ(j.status.reason, "InvalidPodRef");
  EXPECT_EQ(j.status.message, "Abort job caused by invalid PodRef");
}

TEST_F(JobReconcilerTest, TimeoutDeletesTheReservationAndFails) {
  JobOptions o;
  o.ttl = "5m";
  o.phase = "Running";
  o.pod_uid = "uid-web-0";
  sched::PodMigrationJob j = makeJob("j", "default", "web-0", o);
  j.spec.reservationOptions.emplace();
  j.spec.reservationOptions->reservationRef.emplace();
  j.spec.reservationOptions->reservationRef->name = "r";
  cluster_.add(j);
  sched::Reservation r;
  r.metadata.name = "r";
  cluster_.add(r);

  cluster_.advance(std::chrono::minutes(4));  // 4m10s old
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_CALL(cluster_.client, create(_, _, _)).Times(0);
  reconcileOk("j");  // waits for the (pending) reservation
  EXPECT_EQ(job("j").status.phase, "Running");

  cluster_.advance(std::chrono::minutes(1));  // 5m10s
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob failed = job("j");
  EXPECT_EQ(failed.status.phase, "Failed");
  EXPECT_EQ(failed.status.reason, "Timeout");
  EXPECT_EQ(failed.status.message, "Abort job caused by timeout");
  EXPECT_FALSE(cluster_.reservation("r"));
  EXPECT_EQ(cluster_.events.back().reason, "Timeout");
}

TEST_F(JobReconcilerTest, AJobWithoutTTLNeverTimesOut) {
  JobOptions o = direct();
  cluster_.add(makeJob("j", "default", "web-0", o));
  cluster_.advance(std::chrono::hours(2));
  reconcileOk("j");
  EXPECT_EQ(job("j").status.phase, "Running");
}

TEST_F(JobReconcilerTest, ADisruptionBudgetRefusalIsWrittenAndRetried) {
  cluster_.add(makeJob("j", "default", "web-0", direct()));
  EXPECT_CALL(cluster_.client, evict(_, _, _))
      .WillOnce(Return(pdbRefusal("web-0")))
      .WillOnce(::testing::DoDefault());

  auto result = reconcile("j");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(k8s::isTooManyRequests(result.status()));
  sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Running");
  const auto* eviction = condition(j, "Eviction");
  ASSERT_NE(eviction, nullptr);
  EXPECT_EQ(eviction->status, "False");
  EXPECT_EQ(eviction->reason, "FailedEvict");
  EXPECT_THAT(eviction->message, HasSubstr("Failed to evict Pod \"default/web-0\""));
  EXPECT_THAT(eviction->message, HasSubstr("violate the pod's disruption budget"));
  EXPECT_EQ(j.status.reason, "FailedEvict");
  ASSERT_EQ(cluster_.events.size(), 1U);
  EXPECT_EQ(cluster_.events[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(cluster_.events[0].reason, "FailedEvict");
  EXPECT_THAT(cluster_.events[0].message, HasSubstr("disruption budget"));

  cluster_.advance(std::chrono::seconds(1));  // a new token
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  EXPECT_EQ(condition(job("j"), "Eviction")->reason, "Evicting");
}

// An empty bucket is an error (Koordinator's ErrTooManyEvictions), so that the controller's
// backoff for the job grows instead of retrying it at the bucket's rate.
TEST_F(JobReconcilerTest, AnEmptyBucketIsRetriedWithBackoffWithoutEvicting) {
  cluster_.add(makePod("default", "web-1"));
  cluster_.add(makeJob("a", "default", "web-0", direct()));
  cluster_.add(makeJob("b", "default", "web-1", direct()));
  EXPECT_CALL(cluster_.client, evict(_, "web-0", _));
  EXPECT_CALL(cluster_.client, evict(_, "web-1", _)).Times(0);
  reconcileOk("a");
  const auto second = reconcile("b");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kResourceExhausted);
  EXPECT_THAT(second.status().message(), HasSubstr("too many evictions"));
  EXPECT_EQ(condition(job("b"), "Eviction"), nullptr);
  EXPECT_EQ(job("b").status.phase, "Running");
}

TEST_F(JobReconcilerTest, TerminalJobsAreLeftAlone) {
  JobOptions o = direct();
  o.phase = "Failed";
  cluster_.add(makeJob("j", "default", "web-0", o));
  EXPECT_CALL(cluster_.client, updateStatus(_, _, _)).Times(0);
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_TRUE(isDone(reconcileOk("j")));
  EXPECT_TRUE(isDone(reconcileOk("no-such-job")));
}

TEST_F(JobReconcilerTest, AFailedStatusWriteIsReturnedWithoutEvents) {
  cluster_.add(makeJob("j", "default", "gone", direct()));
  EXPECT_CALL(cluster_.client, updateStatus(_, _, _))
      .WillOnce(Return(k8s::apiErrorStatus(409, R"({"kind":"Status","reason":"Conflict"})", "PUT",
                                           "/podmigrationjobs/j/status")));
  auto result = reconcile("j");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(k8s::isConflict(result.status()));
  EXPECT_TRUE(cluster_.events.empty());
  EXPECT_EQ(job("j").status.phase, "");
}

TEST(JobReconcilerCreateTest, NamesEveryProblem) {
  testing::FakeCluster local;
  JobReconcilerOptions options;
  options.args.eviction_policy = "Kill";
  options.args.default_delete_options = {{"gracePeriodSeconds", "soon"}};
  auto created = JobReconciler::create(local.client, local.clock, options);
  ASSERT_FALSE(created.ok());
  const std::string message = created.status().message();
  EXPECT_THAT(message, HasSubstr("sources.job: required"));
  EXPECT_THAT(message, HasSubstr("sources.pod: required"));
  EXPECT_THAT(message, HasSubstr("sources.reservation: required"));
  EXPECT_THAT(message, HasSubstr("args.evictionPolicy"));
  EXPECT_THAT(message, HasSubstr("args.defaultDeleteOptions"));
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
