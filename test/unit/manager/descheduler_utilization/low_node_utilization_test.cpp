// LowNodeUtilization over the community's TestLowNodeUtilization clusters (descheduler v0.36,
// request-based rows): how many pods go and, where the order is decided by priority or QoS,
// which ones. The community's own pod order is random (informer index); ours is the snapshot's,
// sorted as Go's sort.Slice would, so the names below are what the community picks for that
// input order.
#include "manager/descheduler/plugins/utilization/low_node_utilization.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "fixture.hpp"

namespace koord::manager::descheduler::utilization {
namespace lnu_test {

using namespace testing;  // NOLINT(google-build-using-namespace): test fixture helpers
using Json = nlohmann::json;
using Names = std::vector<std::string>;

Json cpuPodsArgs(double low, double high) {
  return Json{{"thresholds", {{"cpu", low}, {"pods", low}}},
              {"targetThresholds", {{"cpu", high}, {"pods", high}}}};
}

std::vector<Node> threeNodes() {
  auto n3 = buildNode("n3", 4000, 3000, 10);
  n3.spec.unschedulable = true;
  return {buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10), n3};
}

// p6 (DaemonSet), p7 (mirror) and p8 (system critical) on n1: they count, but never go.
void addUnevictable(std::vector<Pod>& pods, int64_t cpu,
                    const std::function<void(Pod&)>& also = nullptr) {
  Pod p6 = buildPod("p6", cpu, 0, "n1");
  setDaemonSetOwner(p6);
  Pod p7 = buildPod("p7", cpu, 0, "n1");
  setMirror(p7);
  Pod p8 = buildPod("p8", cpu, 0, "n1");
  setCritical(p8);
  for (Pod* pod : {&p6, &p7, &p8}) {
    if (also)
      also(*pod);
    pods.push_back(*pod);
  }
}

// p1..p5 on n1 (400m each, made with `edit`), the three unevictable pods, p9 on n2.
std::vector<Pod> standardPods(const std::function<void(Pod&, int)>& edit = nullptr) {
  std::vector<Pod> pods;
  for (int i = 1; i <= 5; ++i) {
    pods.push_back(buildPod("p" + std::to_string(i), 400, 0, "n1"));
    if (edit)
      edit(pods.back(), i);
  }
  addUnevictable(pods, 400);
  pods.push_back(buildPod("p9", 400, 0, "n2"));
  return pods;
}

Names run(const std::vector<Node>& nodes, const std::vector<Pod>& pods, const Json& args) {
  return runBalance(nodes, pods, args, &createLowNodeUtilization);
}

TEST(LowNodeUtilization, NoEvictablePods) {
  std::vector<Pod> pods;
  for (int i = 1; i <= 4; ++i) {
    pods.push_back(buildPod("p" + std::to_string(i), 400, 0, "n1"));
    setDaemonSetOwner(pods.back());
  }
  Pod p5 = buildPod("p5", 400, 0, "n1");
  setMirror(p5);
  Pod p6 = buildPod("p6", 400, 0, "n1");
  setCritical(p6);
  pods.push_back(p5);
  pods.push_back(p6);
  pods.push_back(buildPod("p9", 400, 0, "n2"));
  EXPECT_TRUE(run(threeNodes(), pods, cpuPodsArgs(30, 50)).empty());
}

TEST(LowNodeUtilization, WithoutPrioritiesEvictsUntilThePodsRoomOnN2IsUsed) {
  // n1: 8 pods, 3200m (over 50%); n2: 1 pod (under 30%); n3 unschedulable. n2 takes up to 50%:
  // room for 4 pods. Equal pods come out in Go's insertion-sort order (reversed).
  EXPECT_EQ(run(threeNodes(), standardPods(), cpuPodsArgs(30, 50)),
            (Names{"p5", "p4", "p3", "p2"}));
}

TEST(LowNodeUtilization, ExcludedNamespacesAreNotEvicted) {
  auto pods = standardPods([](Pod& pod, int) { pod.metadata.namespace_ = "namespace1"; });
  auto args = cpuPodsArgs(30, 50);
  args["evictableNamespaces"] = {{"exclude", {"namespace1"}}};
  EXPECT_TRUE(run(threeNodes(), pods, args).empty());
}

TEST(LowNodeUtilization, IncludedNamespacesAreIgnoredByTheEvictionLoop) {
  // The community builds the plugin without validation here; only pods with an owner go.
  auto pods = standardPods([](Pod& pod, int i) {
    if (i >= 3) {
      pod.metadata.namespace_ = "namespace" + std::to_string(i);
      pod.metadata.ownerReferences.clear();
    }
  });
  LowNodeUtilizationArgs args;
  args.thresholds = {{"cpu", 30}, {"pods", 30}};
  args.target_thresholds = {{"cpu", 50}, {"pods", 50}};
  args.include_namespaces = {"default"};
  auto create = [&args](const Json&,
                        framework::Handle& handle) -> Result<std::unique_ptr<framework::Plugin>> {
    return std::unique_ptr<framework::Plugin>(std::make_unique<LowNodeUtilization>(args, handle));
  };
  EXPECT_EQ(runBalance(threeNodes(), pods, Json(), create), (Names{"p2", "p1"}));
}

TEST(LowNodeUtilization, LowerPriorityGoesFirst) {
  auto pods = standardPods(
      [](Pod& pod, int i) { pod.spec.priority = i == 5 ? kLowPriority : kHighPriority; });
  const Names evicted = run(threeNodes(), pods, cpuPodsArgs(30, 50));
  ASSERT_EQ(evicted.size(), 4U);
  EXPECT_EQ(evicted[0], "p5");
}

TEST(LowNodeUtilization, BestEffortPodsGoBeforeBurstableOnes) {
  auto pods = standardPods([](Pod& pod, int i) {
    if (i != 3)
      makeBestEffort(pod);
  });
  Names evicted = run(threeNodes(), pods, cpuPodsArgs(30, 50));
  std::sort(evicted.begin(), evicted.end());
  EXPECT_EQ(evicted, (Names{"p1", "p2", "p4", "p5"}));
}

Json extendedArgs(double low, double high) {
  return Json{{"thresholds", {{"pods", low}, {kExtended, low}}},
              {"targetThresholds", {{"pods", high}, {kExtended, high}}}};
}

std::vector<Pod> extendedPods() {
  std::vector<Pod> pods;
  for (int i = 1; i <= 6; ++i) {
    pods.push_back(buildPod("p" + std::to_string(i), 0, 0, "n1"));
    setExtendedRequest(pods.back(), 1);
  }
  Pod p7 = buildPod("p7", 0, 0, "n1");
  setMirror(p7);
  Pod p8 = buildPod("p8", 0, 0, "n1");
  setCritical(p8);
  for (Pod* pod : {&p7, &p8}) {
    setExtendedRequest(*pod, 1);
    pods.push_back(*pod);
  }
  pods.push_back(buildPod("p9", 0, 0, "n2"));
  setExtendedRequest(pods.back(), 1);
  return pods;
}

TEST(LowNodeUtilization, StopsWhenTheExtendedResourceRoomIsUsed) {
  auto nodes = threeNodes();
  nodes[0].status.allocatable[kExtended] = Quantity::fromInt(8);
  nodes[1].status.allocatable[kExtended] = Quantity::fromInt(8);
  // n2 may take 50% of 8 = 4, holds 1: three pods fit.
  EXPECT_EQ(run(nodes, extendedPods(), extendedArgs(30, 50)).size(), 3U);
}

TEST(LowNodeUtilization, NothingMovesWhenTheUnderutilizedNodeLacksTheExtendedResource) {
  auto nodes = threeNodes();
  nodes[0].status.allocatable[kExtended] = Quantity::fromInt(8);
  std::vector<Pod> pods = {buildPod("p1", 0, 0, "n1"), buildPod("p9", 0, 0, "n2")};
  setExtendedRequest(pods[0], 1);
  EXPECT_TRUE(run(nodes, pods, extendedArgs(30, 50)).empty());
}

TEST(LowNodeUtilization, DeviationWithExtendedResourceInSomeNodes) {
  auto nodes = threeNodes();
  nodes[0] = buildNode("n1", 4000, 3000, 10);
  nodes[0].status.allocatable[kExtended] = Quantity::fromInt(8);
  nodes[1].status.allocatable[kExtended] = Quantity::fromInt(8);
  std::vector<Pod> pods = {buildPod("p1", 0, 0, "n1"), buildPod("p2", 0, 0, "n2"),
                           buildPod("p3", 0, 0, "n2"), buildPod("p8", 0, 0, "n3"),
                           buildPod("p9", 0, 0, "n3")};
  setExtendedRequest(pods[0], 1);
  setExtendedRequest(pods[1], 7);
  auto args = extendedArgs(5, 10);
  args["useDeviationThresholds"] = true;
  EXPECT_EQ(run(nodes, pods, args).size(), 1U);
}

TEST(LowNodeUtilization, NothingMovesWhenTheOnlyOtherNodeIsUnschedulable) {
  auto n2 = buildNode("n2", 4000, 3000, 10);
  n2.spec.unschedulable = true;
  auto pods = standardPods();
  pods.pop_back();  // no p9
  EXPECT_TRUE(run({buildNode("n1", 4000, 3000, 9), n2}, pods, cpuPodsArgs(30, 50)).empty());
}

TEST(LowNodeUtilization, PodsThatFitNoOtherNodeStay) {
  auto n2 = buildNode("n2", 4000, 3000, 10);
  n2.metadata.labels["datacenter"] = "east";
  auto pods = standardPods([](Pod& pod, int i) {
    if (i >= 4)
      pod.spec.nodeSelector["datacenter"] = "west";
  });
  pods.back().spec.containers[0].resources.requests["cpu"] = Quantity::fromMilli(0);
  Names evicted = run({buildNode("n1", 4000, 3000, 9), n2}, pods, cpuPodsArgs(30, 50));
  std::sort(evicted.begin(), evicted.end());
  EXPECT_EQ(evicted, (Names{"p1", "p2", "p3"}));
}

TEST(LowNodeUtilization, DeviationThresholds) {
  auto args = cpuPodsArgs(5, 5);
  args["useDeviationThresholds"] = true;
  EXPECT_EQ(run(threeNodes(), standardPods(), args).size(), 2U);
}

TEST(LowNodeUtilization, DeviationStopsWhenMemoryIsFull) {
  auto nodes = threeNodes();
  nodes[0] = buildNode("n1", 4000, 3000, 10);
  std::vector<Pod> pods;
  for (int i = 1; i <= 5; ++i)
    pods.push_back(buildPod("p" + std::to_string(i), 400, 375, "n1"));
  addUnevictable(pods, 400, [](Pod& pod) {
    pod.spec.containers[0].resources.requests["memory"] = Quantity::fromInt(375);
  });
  pods.push_back(buildPod("p9", 400, 3000, "n2"));
  auto args = cpuPodsArgs(5, 5);
  args["useDeviationThresholds"] = true;
  EXPECT_TRUE(run(nodes, pods, args).empty());
}

TEST(LowNodeUtilization, NodeEvictionLimit) {
  auto args = cpuPodsArgs(30, 50);
  args["evictionLimits"] = {{"node", 2}};
  EXPECT_EQ(run(threeNodes(), standardPods(), args), (Names{"p5", "p4"}));
}

TEST(LowNodeUtilization, PodsMustTolerateTheTaintsOfSomeUnderutilizedNode) {
  // The community's TestLowNodeUtilizationWithTaints: n1 over, n2 under and tainted.
  api::core::Taint taint;
  taint.key = "key";
  taint.value = "value";
  taint.effect = "NoSchedule";
  auto n2 = buildNode("n2", 4000, 3000, 10);
  n2.spec.taints = {taint};
  std::vector<Pod> pods;
  for (int i = 1; i <= 8; ++i)
    pods.push_back(buildPod("p" + std::to_string(i), 200, 0, "n1"));
  pods.push_back(buildPod("p9", 200, 0, "n2"));
  const std::vector<Node> nodes = {buildNode("n1", 2000, 3000, 10), n2};
  EXPECT_TRUE(run(nodes, pods, cpuPodsArgs(30, 50)).empty());

  api::core::Toleration toleration;
  toleration.key = "key";
  toleration.value = "value";
  toleration.effect = "NoSchedule";
  pods[0].spec.tolerations = {toleration};
  EXPECT_EQ(run(nodes, pods, cpuPodsArgs(30, 50)), (Names{"p1"}));
}

TEST(LowNodeUtilization, NothingMovesWhenNumberOfNodesIsNotExceeded) {
  auto args = cpuPodsArgs(30, 50);
  args["numberOfNodes"] = 1;
  EXPECT_TRUE(run(threeNodes(), standardPods(), args).empty());
}

TEST(LowNodeUtilization, EvictOptionsNameThePlugin) {
  framework::EvictOptions options;
  auto evicted = runBalance(threeNodes(), standardPods(), cpuPodsArgs(30, 50),
                            &createLowNodeUtilization, &options);
  ASSERT_FALSE(evicted.empty());
  EXPECT_EQ(options.plugin, "LowNodeUtilization");
  EXPECT_EQ(options.reason, "");
}

TEST(LowNodeUtilization, TerminalPodsDoNotCount) {
  // Without p1..p3 (Succeeded), n1 holds 5 pods, 2000m: 50% cpu, 55% pods, still over; n2 can
  // take 4 pods but n1 drops to its target (4 pods) after one.
  auto pods = standardPods([](Pod& pod, int i) {
    if (i <= 3)
      pod.status.phase = "Succeeded";
  });
  EXPECT_EQ(run(threeNodes(), pods, cpuPodsArgs(30, 50)), (Names{"p5"}));
}

}  // namespace lnu_test
}  // namespace koord::manager::descheduler::utilization
