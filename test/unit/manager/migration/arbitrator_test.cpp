#include "manager/descheduler/migration/arbitrator.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using ::testing::_;
using ::testing::Eq;
using testing::FakeCluster;
using testing::makeJob;
using ::testing::Return;
namespace sched = api::scheduling;

std::shared_ptr<const sched::PodMigrationJob> job(FakeCluster& cluster, const std::string& name) {
  cluster.add(makeJob(name, "default", "pod-" + name));
  return std::make_shared<const sched::PodMigrationJob>(*cluster.job(name));
}

TEST(ArbitratorTest, PassAnnotatesFailWritesStatusAndRetryWritesNothing) {
  FakeCluster cluster;
  std::vector<Arbitration> verdicts = {
      {job(cluster, "a"), Verdict::kPass, ""},
      {job(cluster, "b"), Verdict::kFail, "the pod's eviction cost is MaxInt32"},
      {job(cluster, "c"), Verdict::kRetry, "maxMigratingPerNode 2"},
  };
  EXPECT_CALL(cluster.client, patch(Eq(k8s::kPodMigrationJobs), _, "a", k8s::PatchType::kMerge,
                                    ::testing::HasSubstr("\"resourceVersion\":\"1\""), _));
  EXPECT_CALL(cluster.client, updateStatus(Eq(k8s::kPodMigrationJobs), _, _));

  ASSERT_TRUE(applyArbitration(cluster.client, verdicts, cluster.sink(), log::Logger()).isOk());

  EXPECT_EQ(
      cluster.job("a")->metadata.annotations.at("descheduler.koordinator.sh/passed-arbitration"),
      "true");
  const sched::PodMigrationJob b = *cluster.job("b");
  EXPECT_EQ(b.status.phase, "Failed");
  EXPECT_EQ(b.status.reason, "ForbiddenMigratePod");
  EXPECT_EQ(b.status.message,
            "Pod \"default/pod-b\" is forbidden to migrate because it does not meet the "
            "requirements: the pod's eviction cost is MaxInt32");
  const sched::PodMigrationJob c = *cluster.job("c");
  EXPECT_EQ(c.status.phase, "");
  EXPECT_EQ(c.metadata.annotations.count("descheduler.koordinator.sh/passed-arbitration"), 0U);
  ASSERT_EQ(cluster.events.size(), 1U);
  EXPECT_EQ(cluster.events[0].object, "b");
  EXPECT_EQ(cluster.events[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(cluster.events[0].reason, "ForbiddenMigratePod");
}

TEST(ArbitratorTest, AFailedWriteIsReturnedAndTheOthersAreStillApplied) {
  FakeCluster cluster;
  std::vector<Arbitration> verdicts = {
      {job(cluster, "a"), Verdict::kPass, ""},
      {job(cluster, "b"), Verdict::kPass, ""},
  };
  EXPECT_CALL(cluster.client, patch(_, _, "a", _, _, _))
      .WillOnce(Return(k8s::apiErrorStatus(409, R"({"kind":"Status","reason":"Conflict"})", "PATCH",
                                           "/podmigrationjobs/a")));
  EXPECT_CALL(cluster.client, patch(_, _, "b", _, _, _));
  const Status status = applyArbitration(cluster.client, verdicts, cluster.sink(), log::Logger());
  EXPECT_TRUE(k8s::isConflict(status)) << status.toString();
  EXPECT_NE(status.message().find("PodMigrationJob 'a'"), std::string::npos);
  EXPECT_EQ(
      cluster.job("a")->metadata.annotations.count("descheduler.koordinator.sh/passed-arbitration"),
      0U);
  EXPECT_EQ(
      cluster.job("b")->metadata.annotations.at("descheduler.koordinator.sh/passed-arbitration"),
      "true");
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
