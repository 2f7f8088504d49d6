// Koordinator v1.6 low_node_load_test.go TestLowNodeLoad (node thresholds), plus LowNodeLoad's
// pools, expired NodeMetrics, dry run, pause, numberOfNodes, pod selectors and the reason text.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lownodeload_test_support.hpp"

namespace koord::manager::descheduler::lownodeload::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Json = nlohmann::json;

Json low() {
  return {{"cpu", 30}, {"pods", 30}};
}
Json high() {
  return {{"cpu", 50}, {"pods", 50}};
}

// n1 (9 pods max) holds p1..p8, n2 holds p9, n3 is unschedulable.
std::vector<NodePtr> threeNodes(const NodeFn& n1 = {}, const NodeFn& n2 = {}) {
  return {buildNode("n1", 4000, 3000, 9, n1), buildNode("n2", 4000, 3000, 10, n2),
          buildNode("n3", 4000, 3000, 10, setUnschedulable)};
}

// p6..p8 are never evictable: a DaemonSet pod, a mirror pod, a critical pod.
std::vector<PodPtr> withUnevictable(std::vector<PodPtr> pods, int64_t cpu, int64_t memory) {
  pods.push_back(buildPod("p6", cpu, memory, "n1", setDSOwner));
  pods.push_back(buildPod("p7", cpu, memory, "n1", [](api::core::Pod& pod) {
    setNormalOwner(pod);
    setMirror(pod);
  }));
  pods.push_back(buildPod("p8", cpu, memory, "n1", setCritical));
  return pods;
}

std::vector<PodPtr> fiveRS(int64_t cpu, int64_t memory, const PodFn& extra = {}) {
  std::vector<PodPtr> pods;
  for (const char* name : {"p1", "p2", "p3", "p4", "p5"}) {
    pods.push_back(buildPod(name, cpu, memory, "n1", [&](api::core::Pod& pod) {
      setRSOwner(pod);
      if (extra) {
        extra(pod);
      }
    }));
  }
  return pods;
}

std::vector<std::string> runCase(std::vector<NodePtr> nodes, std::vector<PodPtr> pods,
                                 const Json& args) {
  auto metrics = nodeMetrics(nodes, pods);
  Harness h(std::move(nodes), std::move(pods), std::move(metrics));
  h.create(args);
  h.run();
  return h.evictor.evicted;
}

TEST(LowNodeLoadTest, NoEvictablePods) {
  std::vector<PodPtr> pods;
  for (const char* name : {"p1", "p2", "p3", "p4"}) {
    pods.push_back(buildPod(name, 400, 0, "n1", setDSOwner));
  }
  pods.push_back(buildPod("p5", 400, 0, "n1", [](api::core::Pod& pod) {
    setNormalOwner(pod);
    setMirror(pod);
  }));
  pods.push_back(buildPod("p6", 400, 0, "n1", setCritical));
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  EXPECT_THAT(runCase(threeNodes(), pods, poolArgs(low(), high())), IsEmpty());
}

TEST(LowNodeLoadTest, WithoutPrioritiesEvictsUntilTargetsAreFull) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  EXPECT_THAT(runCase(threeNodes(), pods, poolArgs(low(), high())),
              ElementsAre("p1", "p2", "p3", "p4"));
}

TEST(LowNodeLoadTest, ExcludedNamespacesAreNotEvicted) {
  auto pods = withUnevictable(
      fiveRS(400, 0, [](api::core::Pod& pod) { pod.metadata.namespace_ = "namespace1"; }), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  Json args = poolArgs(low(), high());
  args["evictableNamespaces"] = {{"exclude", {"namespace1"}}};
  EXPECT_THAT(runCase(threeNodes(), pods, args), IsEmpty());
}

TEST(LowNodeLoadTest, IncludedNamespacesOnly) {
  std::vector<PodPtr> pods = {buildPod("p1", 400, 0, "n1", setRSOwner),
                              buildPod("p2", 400, 0, "n1", setRSOwner)};
  for (const char* name : {"p3", "p4", "p5"}) {
    pods.push_back(buildPod(name, 400, 0, "n1", [&](api::core::Pod& pod) {
      setRSOwner(pod);
      pod.metadata.namespace_ = std::string("namespace") + name[1];
    }));
  }
  pods = withUnevictable(pods, 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  Json args = poolArgs(low(), high());
  args["evictableNamespaces"] = {{"include", {"default"}}};
  EXPECT_THAT(runCase(threeNodes(), pods, args), ElementsAre("p1", "p2"));
}

TEST(LowNodeLoadTest, StopsWhenMemoryHeadroomIsGone) {
  auto pods = withUnevictable(fiveRS(400, 300), 400, 300);
  pods.push_back(buildPod("p9", 400, 2100, "n2", setRSOwner));
  // memory's high threshold is 100% (3000): 900 left on n2, three pods of 300.
  EXPECT_THAT(runCase(threeNodes(), pods, poolArgs(low(), high())), ElementsAre("p1", "p2", "p3"));
}

TEST(LowNodeLoadTest, LowerPriorityGoesFirst) {
  auto pods = fiveRS(400, 0, [](api::core::Pod& pod) { pod.spec.priority = 10000; });
  std::const_pointer_cast<api::core::Pod>(pods[2])->spec.priority = 0;
  pods = withUnevictable(pods, 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  // p5 is not a candidate: the node-fit checks of p1..p4 already filled n2 (as Koordinator).
  EXPECT_THAT(runCase(threeNodes(), pods, poolArgs(low(), high())),
              ElementsAre("p3", "p1", "p2", "p4"));
}

TEST(LowNodeLoadTest, ExtendedResource) {
  const std::string gpu = "example.com/foo";
  auto with_gpu = [&](api::core::Node& node) {
    node.status.allocatable[gpu] = resource::Quantity::fromInt(8);
  };
  auto request_gpu = [&](api::core::Pod& pod) {
    pod.spec.containers[0].resources.requests[gpu] = resource::Quantity::fromInt(1);
  };
  auto pods = fiveRS(0, 0, request_gpu);
  pods.push_back(buildPod("p6", 0, 0, "n1", [&](api::core::Pod& pod) {
    setNormalOwner(pod);
    request_gpu(pod);
  }));
  pods.push_back(buildPod("p7", 0, 0, "n1", [&](api::core::Pod& pod) {
    setNormalOwner(pod);
    setMirror(pod);
    request_gpu(pod);
  }));
  pods.push_back(buildPod("p8", 0, 0, "n1", [&](api::core::Pod& pod) {
    setCritical(pod);
    request_gpu(pod);
  }));
  pods.push_back(buildPod("p9", 0, 0, "n2", [&](api::core::Pod& pod) {
    setRSOwner(pod);
    request_gpu(pod);
  }));
  const Json gpu_low = {{"pods", 30}, {gpu, 30}};
  const Json gpu_high = {{"pods", 50}, {gpu, 50}};
  // n2 takes 3 more gpus before 50% of 8.
  EXPECT_THAT(runCase(threeNodes(with_gpu, with_gpu), pods, poolArgs(gpu_low, gpu_high)),
              ElementsAre("p1", "p2", "p3"));
}

TEST(LowNodeLoadTest, ExtendedResourceMissingOnTheTarget) {
  const std::string gpu = "example.com/foo";
  std::vector<PodPtr> pods = {buildPod("p1", 0, 0, "n1",
                                       [&](api::core::Pod& pod) {
                                         setRSOwner(pod);
                                         pod.spec.containers[0].resources.requests[gpu] =
                                             resource::Quantity::fromInt(1);
                                       }),
                              buildPod("p9", 0, 0, "n2", setRSOwner)};
  auto nodes = threeNodes([&](api::core::Node& node) {
    node.status.allocatable[gpu] = resource::Quantity::fromInt(8);
  });
  EXPECT_THAT(runCase(nodes, pods, poolArgs({{"pods", 30}, {gpu, 30}}, {{"pods", 50}, {gpu, 50}})),
              IsEmpty());
}

TEST(LowNodeLoadTest, OnlyOtherNodeUnschedulable) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  std::vector<NodePtr> nodes = {buildNode("n1", 4000, 3000, 9),
                                buildNode("n2", 4000, 3000, 10, setUnschedulable)};
  EXPECT_THAT(runCase(nodes, pods, poolArgs(low(), high())), IsEmpty());
}

TEST(LowNodeLoadTest, PodNodeSelectorNotMatchingTheTarget) {
  auto pods = fiveRS(400, 0);
  for (int i : {3, 4}) {
    std::const_pointer_cast<api::core::Pod>(pods[i])->spec.nodeSelector = {{"datacenter", "west"}};
  }
  pods = withUnevictable(pods, 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  auto nodes = threeNodes([](api::core::Node& n) { n.metadata.labels["datacenter"] = "west"; },
                          [](api::core::Node& n) { n.metadata.labels["datacenter"] = "east"; });
  EXPECT_THAT(runCase(nodes, pods, poolArgs(low(), high())), ElementsAre("p1", "p2", "p3"));
}

TEST(LowNodeLoadTest, DeviationThresholds) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  const Json five = {{"cpu", 5}, {"pods", 5}};
  EXPECT_THAT(runCase(threeNodes(), pods, poolArgs(five, five, nullptr, nullptr, true)),
              ElementsAre("p1", "p2"));
}

TEST(LowNodeLoadTest, ReasonNamesTheOverutilizedResources) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  auto metrics = nodeMetrics(threeNodes(), pods);
  Harness h(threeNodes(), pods, metrics);
  h.create(poolArgs(low(), high()));
  h.run();
  ASSERT_FALSE(h.evictor.options.empty());
  EXPECT_EQ(h.evictor.options[0].plugin, "LowNodeLoad");
  // 3200m of 4000m cpu (80%) but cpu's high threshold is 2000m: over; pods 8 of 9.
  EXPECT_EQ(h.evictor.options[0].reason,
            "node is overutilized, node cpu usage(80.00%)>threshold(50.00%), "
            "node pods usage(88.89%)>threshold(50.00%)");
}

TEST(LowNodeLoadTest, ExpiredNodeMetricIsSkipped) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  auto nodes = threeNodes();
  // The default expiration is 180s: n1's metric is exactly that old, so n1 is not a source.
  auto metrics = nodeMetrics({nodes[0]}, pods, {}, std::chrono::seconds(180));
  auto fresh = nodeMetrics({nodes[1], nodes[2]}, pods);
  metrics.insert(metrics.end(), fresh.begin(), fresh.end());
  Harness h(nodes, pods, metrics);
  h.create(poolArgs(low(), high()));
  h.run();
  EXPECT_THAT(h.evictor.evicted, IsEmpty());

  auto recent = nodeMetrics({nodes[0]}, pods, {}, std::chrono::seconds(179));
  recent.insert(recent.end(), fresh.begin(), fresh.end());
  Harness h2(nodes, pods, recent);
  h2.create(poolArgs(low(), high()));
  h2.run();
  EXPECT_EQ(h2.evictor.evicted.size(), 4U);
}

TEST(LowNodeLoadTest, DryRunAndPausedEvictNothing) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  for (const char* key : {"dryRun", "paused"}) {
    Json args = poolArgs(low(), high());
    args[key] = true;
    EXPECT_THAT(runCase(threeNodes(), pods, args), IsEmpty()) << key;
  }
}

TEST(LowNodeLoadTest, NumberOfNodesMustBeExceeded) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  Json args = poolArgs(low(), high());
  args["numberOfNodes"] = 1;  // one low node (n2): not more than 1
  EXPECT_THAT(runCase(threeNodes(), pods, args), IsEmpty());
}

TEST(LowNodeLoadTest, PodSelectorsLimitTheCandidates) {
  auto pods = fiveRS(400, 0);
  std::const_pointer_cast<api::core::Pod>(pods[2])->metadata.labels["app"] = "move-me";
  pods = withUnevictable(pods, 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  Json args = poolArgs(low(), high());
  args["podSelectors"] = {{{"name", "s"}, {"selector", {{"matchLabels", {{"app", "move-me"}}}}}}};
  EXPECT_THAT(runCase(threeNodes(), pods, args), ElementsAre("p3"));
}

TEST(LowNodeLoadTest, NodePoolsUseTheirOwnSelectorAndThresholds) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  auto pool = [](api::core::Node& n) { n.metadata.labels["pool"] = "a"; };
  auto nodes = threeNodes(pool, pool);
  // The top-level thresholds (cpu 90%) see nothing high; pool "a" (cpu 50%) does.
  Json args = {{"lowThresholds", {{"cpu", 30}}},
               {"highThresholds", {{"cpu", 90}}},
               {"anomalyCondition", {{"consecutiveAbnormalities", 1}}},
               {"nodePools",
                {{{"name", "a"},
                  {"nodeSelector", {{"matchLabels", {{"pool", "a"}}}}},
                  {"lowThresholds", low()},
                  {"highThresholds", high()},
                  {"resourceWeights", {{"cpu", 1}}},
                  {"anomalyCondition", {{"consecutiveAbnormalities", 1}}}}}}};
  EXPECT_THAT(runCase(nodes, pods, args), ElementsAre("p1", "p2", "p3", "p4"));
  // Without the pool label no node is in pool "a".
  EXPECT_THAT(runCase(threeNodes(), pods, args), IsEmpty());
}

TEST(LowNodeLoadTest, AnomalyConditionDelaysEvictionAcrossPasses) {
  auto pods = withUnevictable(fiveRS(400, 0), 400, 0);
  pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  Json args = poolArgs(low(), high());
  args["nodePools"][0]["anomalyCondition"] = {{"consecutiveAbnormalities", 2}};
  auto nodes = threeNodes();
  auto metrics = nodeMetrics(nodes, pods);
  Harness h(nodes, pods, metrics);
  h.create(args);
  h.run();  // abnormal once
  h.run();  // twice: not more than 2
  EXPECT_THAT(h.evictor.evicted, IsEmpty());
  h.run();  // three times
  EXPECT_EQ(h.evictor.evicted.size(), 4U);
}

}  // namespace
}  // namespace koord::manager::descheduler::lownodeload::testing
