// HighNodeUtilization over the community's TestHighNodeUtilization clusters (descheduler v0.36):
// how many pods go, and which where the community names them.
#include "manager/descheduler/plugins/utilization/high_node_utilization.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.hpp"

namespace koord::manager::descheduler::utilization {
namespace hnu_test {

using namespace testing;  // NOLINT(google-build-using-namespace): test fixture helpers
using Json = nlohmann::json;
using Names = std::vector<std::string>;

Names run(const std::vector<Node>& nodes, const std::vector<Pod>& pods, const Json& args) {
  Names evicted = runBalance(nodes, pods, args, &createHighNodeUtilization);
  return evicted;
}

Names sorted(Names names) {
  std::sort(names.begin(), names.end());
  return names;
}

Json cpuPods(double value) {
  return Json{{"thresholds", {{"cpu", value}, {"pods", value}}}};
}

Node unschedulable(Node node) {
  node.spec.unschedulable = true;
  return node;
}

// Pods of `cpu` millicores named p<first>.. on `node`.
void addPods(std::vector<Pod>& pods, int first, int count, int64_t cpu, const std::string& node) {
  for (int i = first; i < first + count; ++i) {
    pods.push_back(buildPod("p" + std::to_string(i), cpu, 0, node));
  }
}

TEST(HighNodeUtilization, NoNodeBelowThreshold) {
  std::vector<Pod> pods;
  addPods(pods, 1, 3, 400, "n1");
  addPods(pods, 4, 3, 400, "n2");
  addPods(pods, 7, 3, 400, "n3");
  const std::vector<Node> nodes = {buildNode("n1", 4000, 3000, 10), buildNode("n2", 4000, 3000, 10),
                                   buildNode("n3", 4000, 3000, 10)};
  EXPECT_TRUE(run(nodes, pods, cpuPods(20)).empty());
}

TEST(HighNodeUtilization, NoEvictablePods) {
  std::vector<Pod> pods;
  addPods(pods, 1, 8, 400, "n1");
  setMirror(pods[0]);
  setCritical(pods[1]);
  for (auto& pod : pods)
    pod.spec.nodeName = pod.metadata.name <= "p2" ? "n1" : "n3";
  pods[2].spec.nodeName = "n2";
  pods[3].spec.nodeName = "n2";
  setDaemonSetOwner(pods[2]);
  setDaemonSetOwner(pods[3]);
  const std::vector<Node> nodes = {buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10),
                                   buildNode("n3", 4000, 3000, 10)};
  EXPECT_TRUE(run(nodes, pods, cpuPods(40)).empty());
}

TEST(HighNodeUtilization, NoNodeToScheduleEvictedPods) {
  std::vector<Pod> pods;
  addPods(pods, 1, 1, 400, "n1");
  addPods(pods, 2, 1, 400, "n2");
  addPods(pods, 3, 3, 400, "n3");
  const std::vector<Node> nodes = {buildNode("n1", 4000, 3000, 10), buildNode("n2", 4000, 3000, 10),
                                   unschedulable(buildNode("n3", 4000, 3000, 10))};
  EXPECT_TRUE(run(nodes, pods, cpuPods(20)).empty());
}

TEST(HighNodeUtilization, WithoutPrioritiesEmptiesTheLeastUsedNodesFirst) {
  std::vector<Pod> pods;
  addPods(pods, 1, 2, 400, "n1");
  setCritical(pods[1]);
  addPods(pods, 3, 4, 400, "n2");
  addPods(pods, 7, 1, 400, "n3");
  const std::vector<Node> nodes = {buildNode("n1", 4000, 3000, 10), buildNode("n2", 4000, 3000, 10),
                                   unschedulable(buildNode("n3", 4000, 3000, 10))};
  // n3 (one pod) is less used than n1 (two), so it is visited first.
  EXPECT_EQ(run(nodes, pods, cpuPods(30)), (Names{"p7", "p1"}));
}

TEST(HighNodeUtilization, StopsWhenTheReceivingNodeIsFull) {
  std::vector<Pod> pods;
  addPods(pods, 1, 1, 400, "n1");
  addPods(pods, 2, 4, 400, "n2");
  addPods(pods, 6, 1, 400, "n3");
  const std::vector<Node> nodes = {buildNode("n1", 2000, 3000, 10), buildNode("n2", 2000, 3000, 10),
                                   unschedulable(buildNode("n3", 2000, 3000, 10))};
  EXPECT_EQ(run(nodes, pods, cpuPods(30)).size(), 1U);
}

TEST(HighNodeUtilization, LowerPriorityGoesFirst) {
  std::vector<Pod> pods;
  addPods(pods, 1, 2, 400, "n1");
  pods[0].spec.priority = kLowPriority;
  pods[1].spec.priority = kHighPriority;
  addPods(pods, 5, 4, 400, "n2");
  addPods(pods, 9, 1, 400, "n3");
  setDaemonSetOwner(pods.back());
  const std::vector<Node> nodes = {buildNode("n1", 4000, 3000, 10), buildNode("n2", 2000, 3000, 10),
                                   unschedulable(buildNode("n3", 2000, 3000, 10))};
  EXPECT_EQ(run(nodes, pods, Json{{"thresholds", {{"cpu", 30}}}}), (Names{"p1"}));
}

TEST(HighNodeUtilization, BestEffortPodsGoFirst) {
  std::vector<Pod> pods;
  addPods(pods, 1, 1, 0, "n1");
  makeBestEffort(pods[0]);
  addPods(pods, 2, 1, 400, "n1");
  addPods(pods, 3, 4, 400, "n2");
  const std::vector<Node> nodes = {buildNode("n1", 3000, 3000, 10), buildNode("n2", 3000, 3000, 5),
                                   unschedulable(buildNode("n3", 3000, 3000, 10))};
  EXPECT_EQ(run(nodes, pods, Json{{"thresholds", {{"cpu", 30}}}}), (Names{"p1"}));
}

std::vector<Pod> extendedPods(bool n2_extended) {
  std::vector<Pod> pods;
  addPods(pods, 1, 2, 100, "n1");
  addPods(pods, 3, 4, 500, "n2");
  for (auto& pod : pods) {
    if (pod.spec.nodeName == "n1" || n2_extended)
      setExtendedRequest(pod, 1);
  }
  return pods;
}

TEST(HighNodeUtilization, WithExtendedResource) {
  auto n1 = buildNode("n1", 4000, 3000, 10);
  auto n2 = buildNode("n2", 4000, 3000, 10);
  n1.status.allocatable[kExtended] = Quantity::fromInt(8);
  n2.status.allocatable[kExtended] = Quantity::fromInt(8);
  const Json args = {{"thresholds", {{"cpu", 20}, {kExtended, 40}}}};
  EXPECT_EQ(sorted(run({n1, n2, unschedulable(buildNode("n3", 4000, 3000, 10))}, extendedPods(true),
                       args)),
            (Names{"p1", "p2"}));
}

TEST(HighNodeUtilization, ExtendedResourceMissingOnTheReceivingNode) {
  auto n1 = buildNode("n1", 4000, 3000, 10);
  n1.status.allocatable[kExtended] = Quantity::fromInt(8);
  const Json args = {{"thresholds", {{"cpu", 40}, {kExtended, 40}}}};
  EXPECT_TRUE(
      run({n1, buildNode("n2", 4000, 3000, 10), unschedulable(buildNode("n3", 4000, 3000, 10))},
          extendedPods(false), args)
          .empty());
}

std::vector<Pod> selectorPods() {
  std::vector<Pod> pods;
  addPods(pods, 1, 4, 400, "n1");
  setDaemonSetOwner(pods[3]);
  addPods(pods, 5, 1, 400, "n2");
  pods.back().spec.nodeSelector["datacenter"] = "west";
  return pods;
}

TEST(HighNodeUtilization, OtherNodeMatchesThePodsNodeSelector) {
  auto n1 = buildNode("n1", 4000, 3000, 9);
  n1.metadata.labels["datacenter"] = "west";
  EXPECT_EQ(run({n1, buildNode("n2", 4000, 3000, 10)}, selectorPods(), cpuPods(30)), (Names{"p5"}));
}

TEST(HighNodeUtilization, OtherNodeDoesNotMatchThePodsNodeSelector) {
  EXPECT_TRUE(run({buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10)}, selectorPods(),
                  cpuPods(30))
                  .empty());
}

TEST(HighNodeUtilization, OtherNodeLacksMemory) {
  std::vector<Pod> pods;
  for (int i = 1; i <= 4; ++i)
    pods.push_back(buildPod("p" + std::to_string(i), 400, 50, "n1"));
  setDaemonSetOwner(pods[3]);
  pods.push_back(buildPod("p5", 400, 100, "n2"));
  EXPECT_TRUE(
      run({buildNode("n1", 4000, 200, 9), buildNode("n2", 4000, 3000, 10)}, pods, cpuPods(30))
          .empty());
}

TEST(HighNodeUtilization, OnlyThresholdingResourcesSkipsPodsWithoutThoseRequests) {
  std::vector<Node> nodes;
  for (const char* name : {"n1", "n2", "n3"}) {
    nodes.push_back(buildNode(name, 4000, 3000, 10));
    nodes.back().status.allocatable[kExtended] = Quantity::fromInt(10);
  }
  std::vector<Pod> pods;
  addPods(pods, 1, 2, 100, "n1");
  setExtendedRequest(pods[0], 3);
  setExtendedRequest(pods[1], 3);
  addPods(pods, 3, 4, 500, "n2");
  Json args = {{"thresholds", {{kExtended, 40}}}, {"evictionModes", {"OnlyThresholdingResources"}}};
  EXPECT_TRUE(run(nodes, pods, args).empty());
  // Without the mode, n2's pods (no extended request, n2 below 40%) are candidates.
  args.erase("evictionModes");
  EXPECT_FALSE(run(nodes, pods, args).empty());
}

TEST(HighNodeUtilization, EvictOptionsNameThePlugin) {
  std::vector<Pod> pods;
  addPods(pods, 1, 1, 400, "n1");
  addPods(pods, 2, 4, 400, "n2");
  framework::EvictOptions options;
  auto evicted = runBalance({buildNode("n1", 4000, 3000, 10), buildNode("n2", 4000, 3000, 10)},
                            pods, cpuPods(30), &createHighNodeUtilization, &options);
  EXPECT_EQ(evicted, (Names{"p1"}));
  EXPECT_EQ(options.plugin, "HighNodeUtilization");
}

}  // namespace hnu_test
}  // namespace koord::manager::descheduler::utilization
