// Koordinator's sorter (pod_test.go, scorer_test.go) as LowNodeLoad uses it.
#include "manager/descheduler/plugins/lownodeload/sorter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "koord/api/core/pod_helpers.hpp"
#include "lownodeload_test_support.hpp"

namespace koord::manager::descheduler::lownodeload::testing {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> names(const std::vector<PodPtr>& pods) {
  std::vector<std::string> out;
  out.reserve(pods.size());
  for (const PodPtr& pod : pods) {
    out.push_back(pod->metadata.name);
  }
  return out;
}

NodeInfo overloadedNode() {
  NodeInfo info;
  info.node = buildNode("n1", 4000, 3000, 10);
  info.usage = {{"cpu", 3000}, {"memory", 0}, {"pods", 5000}};
  info.thresholds.high = {{"cpu", 2000}, {"memory", 3000000}, {"pods", 10000}};
  return info;
}

TEST(SorterTest, ImprovedScorerPrefersThePodClosestToTheExcess) {
  NodeInfo info = overloadedNode();  // 1000m cpu over the threshold
  std::vector<PodPtr> pods;
  for (auto [name, cpu] : std::vector<std::pair<std::string, int64_t>>{
           {"small", 500}, {"exact", 1000}, {"double", 2000}, {"nometric", 3000}}) {
    pods.push_back(buildPod(name, cpu, 0, "n1", setRSOwner));
    if (name != "nometric") {
      info.pod_metrics["default/" + name] = {{"cpu", resource::Quantity::fromMilli(cpu)}};
    }
  }
  sortPodsOnOverloadedNode(info, pods, {{"cpu", 1}, {"memory", 1}}, false);
  EXPECT_THAT(names(pods), ElementsAre("exact", "double", "small", "nometric"));
  EXPECT_DOUBLE_EQ(
      podUsageScore({{"cpu", resource::Quantity::fromMilli(2000)}}, {{"cpu", 1000}}, {{"cpu", 1}}),
      1.5);
}

TEST(SorterTest, ClassesBeforeUsageThenNewestFirst) {
  NodeInfo info = overloadedNode();
  auto prod = buildPod("prod", 1000, 0, "n1", setRSOwner);
  auto batch = buildPod("batch", 100, 0, "n1", [](api::core::Pod& pod) {
    setRSOwner(pod);
    pod.metadata.labels["koordinator.sh/priority-class"] = "koord-batch";
  });
  auto low = buildPod("low-priority", 1000, 0, "n1", [](api::core::Pod& pod) {
    setRSOwner(pod);
    pod.spec.priority = -5;
  });
  auto old_pod = buildPod("old", 1000, 0, "n1", [](api::core::Pod& pod) {
    setRSOwner(pod);
    pod.metadata.creationTimestamp = "2024-01-01T00:00:00Z";
  });
  auto new_pod = buildPod("new", 1000, 0, "n1", [](api::core::Pod& pod) {
    setRSOwner(pod);
    pod.metadata.creationTimestamp = "2024-02-01T00:00:00Z";
  });
  auto costly = buildPod("costly", 1000, 0, "n1", [](api::core::Pod& pod) {
    setRSOwner(pod);
    pod.metadata.annotations["controller.kubernetes.io/pod-deletion-cost"] = "100";
  });
  for (const PodPtr& pod : {prod, batch, low, old_pod, new_pod, costly}) {
    info.pod_metrics[podKey(*pod)] = api::core::podRequests(*pod).valueOr({});
  }
  std::vector<PodPtr> pods = {costly, prod, old_pod, new_pod, low, batch};
  sortPodsOnOverloadedNode(info, pods, {{"cpu", 1}}, false);
  // prod, old and new tie on usage: the newest goes first, "prod" (no timestamp) last.
  EXPECT_THAT(names(pods), ElementsAre("batch", "low-priority", "new", "old", "prod", "costly"));
}

TEST(SorterTest, NodesByWeightedUsage) {
  std::vector<NodeInfo> nodes(3);
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].node = buildNode("n" + std::to_string(i), 4000, 4000, 10);
  }
  nodes[0].usage = {{"cpu", 1000}, {"memory", 3000 * 1000}};  // 250 and 750 per mille
  nodes[1].usage = {{"cpu", 3000}, {"memory", 1000 * 1000}};  // 750 and 250
  nodes[2].usage = {{"cpu", 2000}, {"memory", 2000 * 1000}};  // 500 and 500
  std::vector<size_t> order = {0, 1, 2};
  sortNodesByUsage(order, nodes, {{"cpu", 3}, {"memory", 1}}, false);
  EXPECT_THAT(order, ElementsAre(1, 2, 0));
  EXPECT_EQ(nodeUsageScore(nodes[1].usage, nodes[1].node->status.allocatable,
                           {{"cpu", 3}, {"memory", 1}}),
            (750 * 3 + 250) / 4);
}

}  // namespace
}  // namespace koord::manager::descheduler::lownodeload::testing
