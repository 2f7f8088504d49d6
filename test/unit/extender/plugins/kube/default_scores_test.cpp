// kube-scheduler's default scores, with figures worked out by hand from kube-scheduler v1.36's
// formulas (noderesources/least_allocated.go, balanced_allocation.go, tainttoleration,
// nodeaffinity, helper.DefaultNormalizeScore).
#include "extender/plugins/kube/default_scores.hpp"

#include <gtest/gtest.h>

#include "../plugin_test_util.hpp"
#include "koord/api/core/taints.hpp"

namespace koord::extender::plugins::kube {
namespace {

using testing::makeNode;
using testing::makePod;
using testing::nodeInfo;
using testing::podInfo;

std::shared_ptr<api::core::Pod> emptyPod(const std::string& name) {
  auto pod = makePod(name, {});
  pod->spec.containers[0].resources.requests.clear();
  return pod;
}

TEST(DefaultScoresTest, LeastAllocatedCountsWhatIsLeftAfterThePod) {
  auto pod = podInfo(makePod("p", {{"cpu", "1"}, {"memory", "2Gi"}}));
  auto busy = podInfo(makePod("busy", {{"cpu", "1"}, {"memory", "2Gi"}}));
  auto empty_node = nodeInfo(makeNode("a", {{"cpu", "4"}, {"memory", "8Gi"}}));
  auto busy_node = nodeInfo(makeNode("b", {{"cpu", "4"}, {"memory", "8Gi"}}), {busy});
  EXPECT_EQ(leastAllocatedScore(*pod, *empty_node), 75);  // 3/4 of cpu and memory left
  EXPECT_EQ(leastAllocatedScore(*pod, *busy_node), 50);   // 2/4 left
  auto huge = podInfo(makePod("huge", {{"cpu", "5"}, {"memory", "2Gi"}}));
  EXPECT_EQ(leastAllocatedScore(*huge, *empty_node), 37);  // cpu past allocatable: (0 + 75) / 2
}

TEST(DefaultScoresTest, LeastAllocatedCountsAPodWithoutRequestsAs100mAnd200Mi) {
  auto pod = podInfo(emptyPod("p"));
  EXPECT_EQ(pod->non_zero.milli_cpu, 100);
  EXPECT_EQ(pod->non_zero.memory, 200 * 1024 * 1024);
  EXPECT_EQ(pod->requests.milli_cpu, 0);
  auto node = nodeInfo(makeNode("a", {{"cpu", "1"}, {"memory", "1Gi"}}));
  // cpu (1000 - 100) / 1000 = 90; memory (1024 - 200) / 1024 = 80 (integer division).
  EXPECT_EQ(leastAllocatedScore(*pod, *node), 85);
  // The pods already there count the same way.
  auto with_one =
      nodeInfo(makeNode("a", {{"cpu", "1"}, {"memory", "1Gi"}}), {podInfo(emptyPod("o"))});
  EXPECT_EQ(with_one->nonZeroRequested().milli_cpu, 100);
  EXPECT_EQ(leastAllocatedScore(*pod, *with_one), 70);  // (80 + 60) / 2
  // An explicit 0 stays 0 (only a missing request is defaulted).
  auto zero = makePod("z", {{"cpu", "0"}});
  EXPECT_EQ(podInfo(zero)->non_zero.milli_cpu, 0);
  EXPECT_EQ(podInfo(zero)->non_zero.memory, 200 * 1024 * 1024);
}

TEST(DefaultScoresTest, BalancedAllocationRewardsTheNodeThePodBalances) {
  auto pod = podInfo(makePod("p", {{"cpu", "1"}, {"memory", "4Gi"}}));
  // Empty node: before 100 (0 and 0), after |0.25 - 0.5| / 2 = 0.125 -> 87;
  // 50 + (50 + 87 - 100) / 2 = 68.
  auto empty_node = nodeInfo(makeNode("a", {{"cpu", "4"}, {"memory", "8Gi"}}));
  EXPECT_EQ(balancedAllocationScore(*pod, *empty_node), 68);
  // A node using half its cpu and no memory: before 75, after (0.75, 0.5) 87;
  // 50 + (50 + 87 - 75) / 2 = 81.
  auto cpu_heavy = podInfo(makePod("cpu-heavy", {{"cpu", "2"}}));
  auto skewed = nodeInfo(makeNode("b", {{"cpu", "4"}, {"memory", "8Gi"}}), {cpu_heavy});
  EXPECT_EQ(balancedAllocationScore(*pod, *skewed), 81);
  // A pod that requests neither is skipped.
  EXPECT_EQ(balancedAllocationScore(*podInfo(emptyPod("e")), *empty_node), 0);
}

api::core::Taint preferNoSchedule(const std::string& key) {
  api::core::Taint taint;
  taint.key = key;
  taint.effect = api::core::kTaintEffectPreferNoSchedule;
  return taint;
}

TEST(DefaultScoresTest, TaintTolerationPrefersFewerIntolerablePreferNoScheduleTaints) {
  auto a = makeNode("a", {{"cpu", "4"}, {"memory", "8Gi"}});
  auto b = makeNode("b", {{"cpu", "4"}, {"memory", "8Gi"}});
  b->spec.taints.push_back(preferNoSchedule("x"));
  auto c = makeNode("c", {{"cpu", "4"}, {"memory", "8Gi"}});
  c->spec.taints.push_back(preferNoSchedule("x"));
  c->spec.taints.push_back(preferNoSchedule("y"));
  api::core::Taint no_schedule = preferNoSchedule("z");
  no_schedule.effect = api::core::kTaintEffectNoSchedule;
  a->spec.taints.push_back(no_schedule);  // a filter's business, not the score's
  const std::vector<std::shared_ptr<const framework::NodeInfo>> nodes = {nodeInfo(a), nodeInfo(b),
                                                                         nodeInfo(c)};

  auto pod = podInfo(makePod("p", {{"cpu", "1"}, {"memory", "1Gi"}}));
  std::vector<DefaultScore> scores = defaultScores(*pod, nodes);
  EXPECT_EQ(scores[0].taint_toleration, 100);  // 0 of max 2
  EXPECT_EQ(scores[1].taint_toleration, 50);
  EXPECT_EQ(scores[2].taint_toleration, 0);

  auto tolerating = makePod("t", {{"cpu", "1"}, {"memory", "1Gi"}});
  api::core::Toleration toleration;
  toleration.key = "y";
  toleration.operator_ = "Exists";
  tolerating->spec.tolerations.push_back(toleration);
  scores = defaultScores(*podInfo(tolerating), nodes);
  EXPECT_EQ(scores[0].taint_toleration, 100);
  EXPECT_EQ(scores[1].taint_toleration, 0);  // 1 of max 1
  EXPECT_EQ(scores[2].taint_toleration, 0);
}

api::core::PreferredSchedulingTerm preferred(int32_t weight, const std::string& key,
                                             const std::string& value) {
  api::core::PreferredSchedulingTerm term;
  term.weight = weight;
  api::core::NodeSelectorRequirement requirement;
  requirement.key = key;
  requirement.operator_ = "In";
  requirement.values = {value};
  term.preference.matchExpressions.push_back(requirement);
  return term;
}

TEST(DefaultScoresTest, NodeAffinityScalesTheMatchingWeightsToTheBestNode) {
  auto a = makeNode("a", {{"cpu", "4"}, {"memory", "8Gi"}});
  a->metadata.labels = {{"zone", "z1"}};
  auto b = makeNode("b", {{"cpu", "4"}, {"memory", "8Gi"}});
  b->metadata.labels = {{"disk", "ssd"}};
  auto c = makeNode("c", {{"cpu", "4"}, {"memory", "8Gi"}});
  c->metadata.labels = {{"zone", "z1"}, {"disk", "ssd"}};
  auto d = makeNode("d", {{"cpu", "4"}, {"memory", "8Gi"}});
  const std::vector<std::shared_ptr<const framework::NodeInfo>> nodes = {nodeInfo(a), nodeInfo(b),
                                                                         nodeInfo(c), nodeInfo(d)};
  auto pod = makePod("p", {{"cpu", "1"}, {"memory", "2Gi"}});
  api::core::Affinity affinity;
  affinity.nodeAffinity.emplace();
  affinity.nodeAffinity->preferred = {preferred(10, "zone", "z1"), preferred(30, "disk", "ssd"),
                                      preferred(0, "zone", "z1")};
  pod->spec.affinity = affinity;
  const std::vector<DefaultScore> scores = defaultScores(*podInfo(pod), nodes);
  EXPECT_EQ(scores[0].node_affinity, 25);  // 10 of 40
  EXPECT_EQ(scores[1].node_affinity, 75);
  EXPECT_EQ(scores[2].node_affinity, 100);
  EXPECT_EQ(scores[3].node_affinity, 0);
  // The total is the weighted sum: taints 100 x 3, affinity x 2, LeastAllocated 75, balanced 68.
  EXPECT_EQ(scores[2].node_resources_fit, 75);
  EXPECT_EQ(scores[2].balanced_allocation, 75);  // 0.25 and 0.25: 50 + (50 + 100 - 100) / 2
  EXPECT_EQ(scores[2].total, 300 + 200 + 75 + 75);
  EXPECT_EQ(scores[0].total, 300 + 50 + 75 + 75);
}

}  // namespace
}  // namespace koord::extender::plugins::kube
