#include "manager/descheduler/migration/evictor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "koord/api/extension/resource.hpp"
#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using ::testing::_;
using ::testing::Eq;
using testing::FakeCluster;
using testing::makeJob;
using testing::makePod;
using testing::pdbRefusal;
using ::testing::Return;
namespace core = api::core;

class EvictorTest : public ::testing::Test {
 protected:
  EvictorTest() { cluster_.add(makePod("default", "web-0")); }

  Result<EvictOutcome> evict(Evictor& evictor, const core::DeleteOptions& options = {}) {
    return evictor.evict(job_, makePod("default", "web-0"), options);
  }

  FakeCluster cluster_;
  api::scheduling::PodMigrationJob job_ = makeJob("j", "default", "web-0");
};

TEST_F(EvictorTest, EvictionPostsTheEvictionWithTheDeleteOptions) {
  Evictor evictor(cluster_.client, EvictionPolicy::kEviction, 10, 1, cluster_.clock);
  core::DeleteOptions options;
  options.gracePeriodSeconds = 30;
  EXPECT_CALL(cluster_.client, evict("default", "web-0", Eq(options)));
  auto outcome = evict(evictor, options);
  ASSERT_TRUE(outcome.ok()) << outcome.status().toString();
  EXPECT_EQ(*outcome, EvictOutcome::kSent);
  EXPECT_FALSE(cluster_.pod("default", "web-0"));
}

TEST_F(EvictorTest, ADisruptionBudgetRefusalKeepsTheServersMessage) {
  Evictor evictor(cluster_.client, EvictionPolicy::kEviction, 10, 1, cluster_.clock);
  EXPECT_CALL(cluster_.client, evict(_, _, _)).WillOnce(Return(pdbRefusal("web-0")));
  auto outcome = evict(evictor);
  ASSERT_FALSE(outcome.ok());
  EXPECT_TRUE(k8s::isTooManyRequests(outcome.status()));
  EXPECT_NE(outcome.status().message().find("failed to evict pod 'default/web-0'"),
            std::string::npos);
  EXPECT_NE(outcome.status().message().find("violate the pod's disruption budget"),
            std::string::npos)
      << outcome.status().message();
}

TEST_F(EvictorTest, AGonePodCountsAsEvicted) {
  cluster_.removePod("default", "web-0");
  Evictor evictor(cluster_.client, EvictionPolicy::kEviction, 10, 1, cluster_.clock);
  auto outcome = evict(evictor);
  ASSERT_TRUE(outcome.ok()) << outcome.status().toString();
  EXPECT_EQ(*outcome, EvictOutcome::kSent);
}

TEST_F(EvictorTest, DeleteDeletesThePod) {
  Evictor evictor(cluster_.client, EvictionPolicy::kDelete, 10, 1, cluster_.clock);
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_CALL(cluster_.client, remove(Eq(k8s::kPods), "default", "web-0", _));
  ASSERT_TRUE(evict(evictor).ok());
  EXPECT_FALSE(cluster_.pod("default", "web-0"));
}

TEST_F(EvictorTest, SoftEvictionOnlyAnnotatesThePod) {
  job_.metadata.annotations["koordinator.sh/evict-trigger"] = "LowNodeLoad";
  job_.metadata.annotations["koordinator.sh/evict-reason"] = "node is hot";
  Evictor evictor(cluster_.client, EvictionPolicy::kSoftEviction, 10, 1, cluster_.clock,
                  cluster_.wallClock());
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_CALL(cluster_.client, remove(_, _, _, _)).Times(0);
  core::DeleteOptions options;
  options.gracePeriodSeconds = 5;
  ASSERT_TRUE(evict(evictor, options).ok());

  auto pod = cluster_.pod("default", "web-0");
  ASSERT_TRUE(pod);
  auto spec = api::extension::parseSoftEvictionSpec(
      pod->metadata.annotations.at("scheduling.koordinator.sh/soft-eviction"));
  ASSERT_TRUE(spec.ok()) << spec.status().toString();
  EXPECT_EQ(spec->initiator, "LowNodeLoad");
  EXPECT_EQ(spec->reason, "node is hot");
  EXPECT_EQ(spec->timestamp, k8s::formatTime(cluster_.now()));
  ASSERT_TRUE(spec->deleteOptions);
  EXPECT_EQ(spec->deleteOptions->gracePeriodSeconds, 5);
}

TEST_F(EvictorTest, ALabelOverridesThePolicy) {
  Evictor evictor(cluster_.client, EvictionPolicy::kEviction, 10, 1, cluster_.clock);
  job_.metadata.labels["koordinator.sh/evict-policy"] = "Delete";
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(0);
  EXPECT_CALL(cluster_.client, remove(Eq(k8s::kPods), "default", "web-0", _));
  ASSERT_TRUE(evict(evictor).ok());
}

TEST_F(EvictorTest, TheBucketLimitsTheRate) {
  Evictor evictor(cluster_.client, EvictionPolicy::kEviction, 10, 1, cluster_.clock);
  EXPECT_CALL(cluster_.client, evict(_, _, _)).Times(2).WillRepeatedly(Return(Status::ok()));
  ASSERT_EQ(*evict(evictor), EvictOutcome::kSent);
  ASSERT_EQ(*evict(evictor), EvictOutcome::kRateLimited);  // nothing sent
  cluster_.clock.advance(std::chrono::milliseconds(99));
  ASSERT_EQ(*evict(evictor), EvictOutcome::kRateLimited);
  cluster_.clock.advance(std::chrono::milliseconds(2));
  ASSERT_EQ(*evict(evictor), EvictOutcome::kSent);
  EXPECT_EQ(evictor.refillInterval(), std::chrono::nanoseconds(100000001));
}

TEST(EvictionPolicyTest, ParsesTheThreeNames) {
  EXPECT_EQ(*parseEvictionPolicy("Eviction"), EvictionPolicy::kEviction);
  EXPECT_EQ(*parseEvictionPolicy("Delete"), EvictionPolicy::kDelete);
  EXPECT_EQ(*parseEvictionPolicy("SoftEviction"), EvictionPolicy::kSoftEviction);
  EXPECT_FALSE(parseEvictionPolicy("Kill").ok());
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
