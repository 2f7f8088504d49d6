// The job state machine in ReservationFirst mode (job_reconciler.hpp step 7).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "manager/descheduler/migration/job_reconciler.hpp"
#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;
using testing::isDone;
using testing::JobOptions;
using testing::JobReconcilerFixture;
using testing::makeJob;
using testing::makePod;
using testing::PodSpecOptions;
using testing::requeuedAfter;
using ::testing::Return;
namespace core = api::core;
namespace sched = api::scheduling;

constexpr char kReservation[] = "job-uid-j";  // named after the job's UID

PodSpecOptions ofReplicaSet(bool ready = true) {
  PodSpecOptions o;
  o.node = "node-a";
  o.controller_uid = "rs-uid";
  o.ready = ready;
  return o;
}

JobOptions passedRunning() {
  JobOptions o;
  o.passed = true;
  o.phase = "Running";
  o.pod_uid = "uid-web-0";
  return o;
}

class ReservationFirstTest : public JobReconcilerFixture {
 protected:
  ReservationFirstTest() { cluster_.add(makePod("default", "web-0", ofReplicaSet())); }

  // A Running job that already refers to Reservation `name`.
  void addJobWithReservation(const std::string& name) {
    sched::PodMigrationJob j = makeJob("j", "default", "web-0", passedRunning());
    j.spec.reservationOptions.emplace();
    j.spec.reservationOptions->reservationRef.emplace();
    j.spec.reservationOptions->reservationRef->name = name;
    cluster_.add(j);
  }
  // A reservation placed on `node` (phase Available), or pending when node is "".
  void addReservation(const std::string& name, const std::string& node,
                      const std::string& phase = "") {
    sched::Reservation r;
    r.metadata.name = name;
    r.metadata.uid = "uid-" + name;
    r.status.nodeName = node;
    r.status.phase = phase.empty() ? (node.empty() ? "Pending" : "Available") : phase;
    cluster_.add(r);
  }
  static void place(sched::Reservation& r, const std::string& node) {
    r.status.phase = "Available";
    r.status.nodeName = node;
  }
};

TEST_F(ReservationFirstTest, MigratesThroughAReservation) {
  JobOptions o;
  o.passed = true;
  o.ttl = "5m";
  cluster_.add(makeJob("j", "default", "web-0", o));

  // 1. Running, the Reservation is created and the job refers to it; it is not placed yet.
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Running");
  ASSERT_TRUE(j.spec.reservationOptions && j.spec.reservationOptions->reservationRef);
  EXPECT_EQ(j.spec.reservationOptions->reservationRef->name, kReservation);
  EXPECT_EQ(j.spec.reservationOptions->reservationRef->uid, std::string("uid-") + kReservation);
  EXPECT_EQ(j.spec.reservationOptions->reservationRef->kind, "Reservation");
  EXPECT_EQ(condition(j, "ReservationCreated")->status, "True");
  auto created = cluster_.reservation(kReservation);
  ASSERT_TRUE(created);
  EXPECT_EQ(created->metadata.labels.at("app.kubernetes.io/created-by"), "koord-descheduler");
  EXPECT_EQ(created->spec.ttl, "5m");
  EXPECT_EQ(created->spec.owners.at(0).controller->reference.uid, "rs-uid");
  EXPECT_EQ(created->spec.template_->spec.affinity->nodeAffinity->required->nodeSelectorTerms.at(0)
                .matchFields.at(0)
                .values,
            std::vector<std::string>{"node-a"});
  EXPECT_TRUE(cluster_.pod("default", "web-0"));

  // 2. Still pending: nothing new.
  EXPECT_CALL(cluster_.client, create(_, _, _)).Times(0);
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));

  // 3. Placed on node-b: the pod is evicted.
  cluster_.editReservation(kReservation, [](sched::Reservation& r) { place(r, "node-b"); });
  EXPECT_CALL(cluster_.client, evict("default", "web-0", _));
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  j = job("j");
  EXPECT_EQ(j.status.nodeName, "node-b");
  EXPECT_EQ(condition(j, "ReservationScheduled")->status, "True");
  EXPECT_EQ(condition(j, "Eviction")->reason, "Evicting");

  // 4. The pod is gone; no replacement bound yet.
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  j = job("j");
  EXPECT_EQ(condition(j, "Eviction")->reason, "EvictComplete");
  EXPECT_EQ(condition(j, "PodBoundReservation")->reason, "WaitForPodBindReservation");

  // 5. The ReplicaSet's new pod takes the reservation but is not ready.
  cluster_.add(makePod("default", "web-1", ofReplicaSet(/*ready=*/false)));
  cluster_.editReservation(kReservation, [](sched::Reservation& r) {
    r.status.phase = "Succeeded";
    core::ObjectReference owner;
    owner.namespace_ = "default";
    owner.name = "web-1";
    owner.uid = "uid-web-1";
    r.status.currentOwners = {owner};
  });
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  j = job("j");
  EXPECT_EQ(condition(j, "ReservationBound")->status, "True");
  EXPECT_EQ(condition(j, "BoundPodReady")->reason, "WaitForBoundPodReady");
  ASSERT_TRUE(j.status.podRef);
  EXPECT_EQ(j.status.podRef->name, "web-1");

  // 6. Ready: done.
  cluster_.editPod("default", "web-1",
                   [](core::Pod& p) { p.status.conditions[0].status = "True"; });
  EXPECT_TRUE(isDone(reconcileOk("j")));
  j = job("j");
  EXPECT_EQ(j.status.phase, "Succeeded");
  EXPECT_EQ(j.status.status, "Complete");
  EXPECT_EQ(j.status.message, "Bind Pod \"default/web-1\" in Reservation \"job-uid-j\"");
  EXPECT_EQ(condition(j, "PodBoundReservation")->status, "True");
  EXPECT_EQ(condition(j, "BoundPodReady")->status, "True");
  EXPECT_THAT(cluster_.eventReasons(),
              ElementsAre("ReservationCreated", "ReservationScheduled", "Evicting", "EvictComplete",
                          "WaitForPodBindReservation", "PodBoundReservation",
                          "WaitForBoundPodReady", "BoundPodReady", "Complete"));
  EXPECT_EQ(cluster_.events[1].message, "Assigned Reservation \"job-uid-j\" to node \"node-b\"");
}

TEST_F(ReservationFirstTest, AnUnschedulableReservationIsReportedThenFailsTheJob) {
  addJobWithReservation("r");
  addReservation("r", "");
  cluster_.editReservation("r", [](sched::Reservation& r) {
    r.status.conditions.push_back(
        {"Scheduled", "False", "Unschedulable", "0/3 nodes are available", "", "", {}});
  });
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));
  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));  // reported once
  sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Running");
  const auto* scheduled = condition(j, "ReservationScheduled");
  ASSERT_NE(scheduled, nullptr);
  EXPECT_EQ(scheduled->status, "False");
  EXPECT_EQ(scheduled->reason, "Unschedulable");
  EXPECT_EQ(scheduled->message, "0/3 nodes are available");
  ASSERT_EQ(cluster_.events.size(), 1U);
  EXPECT_EQ(cluster_.events[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(cluster_.events[0].reason, "Unschedulable");

  cluster_.editReservation("r", [](sched::Reservation& r) { r.status.phase = "Failed"; });
  EXPECT_TRUE(isDone(reconcileOk("j")));
  j = job("j");
  EXPECT_EQ(j.status.phase, "Failed");
  EXPECT_EQ(j.status.reason, "Unschedulable");
  EXPECT_EQ(j.status.message, "0/3 nodes are available");
  EXPECT_TRUE(cluster_.pod("default", "web-0"));
}

TEST_F(ReservationFirstTest, AnExpiredReservationFailsTheJob) {
  addJobWithReservation("r");
  addReservation("r", "", "Failed");
  cluster_.editReservation("r", [](sched::Reservation& r) {
    r.status.conditions.push_back({"Ready", "False", "Expired", "expired", "", "", {}});
  });
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Failed");
  EXPECT_EQ(j.status.reason, "ReservationExpired");
  EXPECT_EQ(j.status.message, "Reservation expired");
}

TEST_F(ReservationFirstTest, AReservationOnThePodsOwnNodeIsForbidden) {
  addJobWithReservation("r");
  addReservation("r", "node-a");
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Failed");
  EXPECT_EQ(j.status.reason, "ForbiddenMigratePod");
  EXPECT_EQ(j.status.message,
            "Scheduler assigned the Reservation \"r\" on the same node as the Pod");
  EXPECT_FALSE(cluster_.reservation("r"));  // its hold on node-a is released
  EXPECT_EQ(cluster_.events.back().reason, "ForbiddenMigratePod");
}

TEST_F(ReservationFirstTest, AMissingReservationFailsTheJob) {
  addJobWithReservation("gone");
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.reason, "MissingReservation");
  EXPECT_EQ(j.status.message, "Abort job caused by missing Reservation \"gone\"");
}

TEST_F(ReservationFirstTest, ACacheMissIsCheckedWithTheAPIServer) {
  addJobWithReservation("r");
  addReservation("r", "node-b");
  cluster_.setReservationCacheEnabled(false);
  EXPECT_CALL(cluster_.client, get(Eq(k8s::kReservations), "", "r"));
  EXPECT_CALL(cluster_.client, evict("default", "web-0", _));
  reconcileOk("j");
  EXPECT_EQ(condition(job("j"), "Eviction")->reason, "Evicting");
}

TEST_F(ReservationFirstTest, AReservationTakenByAnotherPodBeforeTheEvictionIsForbidden) {
  addJobWithReservation("r");
  addReservation("r", "node-b", "Succeeded");
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.reason, "ForbiddenMigratePod");
  EXPECT_EQ(j.status.message, "Reservation is already bound by another Pod");
}

TEST_F(ReservationFirstTest, AnInvalidReservationFailsTheJobATransientErrorIsRetried) {
  cluster_.add(makeJob("j", "default", "web-0", passedRunning()));
  EXPECT_CALL(cluster_.client, create(Eq(k8s::kReservations), _, _))
      .WillOnce(Return(k8s::apiErrorStatus(503, "", "POST", "/reservations")))
      .WillOnce(::testing::DoDefault());
  auto result = reconcile("j");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Running");
  EXPECT_EQ(condition(j, "ReservationCreated")->status, "False");
  EXPECT_EQ(condition(j, "ReservationCreated")->reason, "FailedCreateReservation");
  EXPECT_THAT(condition(j, "ReservationCreated")->message,
              HasSubstr("Failed to create Reservation caused by"));
  EXPECT_EQ(cluster_.events.back().reason, "FailedCreateReservation");

  EXPECT_TRUE(requeuedAfter(reconcileOk("j"), kRequeueAfter));  // created now
  EXPECT_EQ(condition(job("j"), "ReservationCreated")->status, "True");
}

TEST_F(ReservationFirstTest, AReservationRefusedAsInvalidFailsTheJob) {
  cluster_.add(makeJob("j", "default", "web-0", passedRunning()));
  EXPECT_CALL(cluster_.client, create(Eq(k8s::kReservations), _, _))
      .WillOnce(Return(k8s::apiErrorStatus(
          422, R"({"kind":"Status","reason":"Invalid","message":"spec.owners: Required value"})",
          "POST", "/reservations")));
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Failed");
  EXPECT_EQ(j.status.reason, "FailedCreateReservation");
  EXPECT_THAT(j.status.message, HasSubstr("spec.owners: Required value"));
}

TEST_F(ReservationFirstTest, AnExistingReservationOfTheSameNameIsTaken) {
  cluster_.add(makeJob("j", "default", "web-0", passedRunning()));
  addReservation(kReservation, "");
  reconcileOk("j");
  EXPECT_EQ(job("j").spec.reservationOptions->reservationRef->uid,
            std::string("uid-") + kReservation);
}

TEST_F(ReservationFirstTest, TheBoundPodIsFoundByItsAllocationWhenOwnersAreNotListedYet) {
  addJobWithReservation("r");
  addReservation("r", "node-b", "Available");
  cluster_.removePod("default", "web-0");
  core::Pod fresh = makePod("default", "web-1", ofReplicaSet());
  fresh.metadata.annotations["scheduling.koordinator.sh/reservation-allocated"] =
      R"({"name":"r","uid":"uid-r"})";
  cluster_.add(fresh);
  // Evicted before: the Eviction condition says so.
  cluster_.add([&] {
    sched::PodMigrationJob j = *cluster_.job("j");
    j.status.conditions.push_back({"Eviction", "False", "", "", "Evicting", "", {}});
    return j;
  }());
  EXPECT_TRUE(isDone(reconcileOk("j")));
  const sched::PodMigrationJob j = job("j");
  EXPECT_EQ(j.status.phase, "Succeeded");
  EXPECT_EQ(j.status.podRef->name, "web-1");
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
