#include "manager/descheduler/framework/limited_evictor.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/descheduler_framework/builders.hpp"

namespace koord::manager::descheduler::framework {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test builders

class LimitedEvictorTest : public ::testing::Test {
 protected:
  LimitedEvictor make(EvictionLimits limits) {
    return LimitedEvictor(DefaultEvictor::create({}).value(), &snapshot_, limits,
                          [this](const core::Pod& pod, const EvictOptions&) {
                            sunk_.push_back(pod.metadata.name);
                            return pod.metadata.name != "refused";
                          });
  }
  static core::Pod pod(const std::string& name, const std::string& node,
                       const std::string& ns = "default") {
    core::Pod p = buildPod(name, 0, 0, node);
    p.metadata.namespace_ = ns;
    return p;
  }

  ClusterSnapshot snapshot_ = snapshotOf({buildNode("n1"), buildNode("n2")}, {});
  std::vector<std::string> sunk_;
};

TEST_F(LimitedEvictorTest, RecordsVictimsInOrder) {
  auto evictor = make({});
  EXPECT_TRUE(evictor.evict(pod("a", "n1"), {"PluginA", "why a"}));
  EXPECT_TRUE(evictor.evict(pod("b", "n2", "prod"), {"PluginB", ""}));
  EXPECT_EQ(evictor.victims(), (std::vector<Victim>{{"default", "a", "n1", "PluginA", "why a"},
                                                    {"prod", "b", "n2", "PluginB", ""}}));
  EXPECT_EQ(evictor.totalEvicted(), 2u);
}

TEST_F(LimitedEvictorTest, PerNodeLimit) {
  auto evictor = make({1, std::nullopt, std::nullopt});
  EXPECT_FALSE(evictor.nodeLimitExceeded(buildNode("n1")));
  EXPECT_TRUE(evictor.evict(pod("a", "n1"), {}));
  EXPECT_TRUE(evictor.nodeLimitExceeded(buildNode("n1")));
  EXPECT_FALSE(evictor.evict(pod("b", "n1"), {}));
  EXPECT_EQ(evictor.lastError(), EvictError::kNodeLimit);
  EXPECT_TRUE(evictor.evict(pod("c", "n2"), {}));
  EXPECT_EQ(sunk_, (std::vector<std::string>{"a", "c"}));
}

TEST_F(LimitedEvictorTest, PerNamespaceAndTotalLimitsInCommunityOrder) {
  auto evictor = make({1, 1, 2});
  EXPECT_TRUE(evictor.evict(pod("a", "n1", "x"), {}));
  EXPECT_FALSE(evictor.evict(pod("b", "n2", "x"), {}));
  EXPECT_EQ(evictor.lastError(), EvictError::kNamespaceLimit);
  EXPECT_TRUE(evictor.evict(pod("c", "n2", "y"), {}));
  // Total is checked before the node's limit.
  EXPECT_FALSE(evictor.evict(pod("d", "n1", "z"), {}));
  EXPECT_EQ(evictor.lastError(), EvictError::kTotalLimit);
  EXPECT_EQ(evictErrorMessage(evictor.lastError()),
            "maximum number of evicted pods per a descheduling cycle reached");
  evictor.resetCounters();
  EXPECT_TRUE(evictor.victims().empty());
  EXPECT_TRUE(evictor.evict(pod("d", "n1", "z"), {}));
}

TEST_F(LimitedEvictorTest, FailedSinkAndMissingUidAreNotCounted) {
  auto evictor = make({1, std::nullopt, std::nullopt});
  EXPECT_FALSE(evictor.evict(pod("refused", "n1"), {}));
  EXPECT_EQ(evictor.lastError(), EvictError::kSinkFailed);
  core::Pod no_uid = pod("x", "n1");
  no_uid.metadata.uid.clear();
  EXPECT_FALSE(evictor.evict(no_uid, {}));
  EXPECT_EQ(evictor.lastError(), EvictError::kMissingUid);
  EXPECT_EQ(evictor.totalEvicted(), 0u);
  EXPECT_TRUE(evictor.evict(pod("a", "n1"), {}));
}

TEST_F(LimitedEvictorTest, FilterIsTheDefaultEvictors) {
  auto evictor = make({});
  core::Pod bare = pod("bare", "n1");
  EXPECT_FALSE(evictor.filter(bare));
  setNormalOwnerRef(bare);
  EXPECT_TRUE(evictor.filter(bare));
  EXPECT_TRUE(evictor.preEvictionFilter(bare));  // nodeFit off
}

}  // namespace
}  // namespace koord::manager::descheduler::framework
