#include "extender/simulator/simulator.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extender/simulator/cluster_loader.hpp"

namespace koord::extender::simulator {
namespace {

std::shared_ptr<const api::core::Pod> pod(std::string name, std::optional<int32_t> priority,
                                          std::string created, std::string node = "",
                                          std::string ns = "default") {
  auto p = std::make_shared<api::core::Pod>();
  p->metadata.name = std::move(name);
  p->metadata.namespace_ = std::move(ns);
  p->metadata.creationTimestamp = std::move(created);
  p->spec.priority = priority;
  p->spec.nodeName = std::move(node);
  return p;
}

TEST(SchedulingOrderTest, PriorityThenAgeThenName) {
  std::vector<std::shared_ptr<const api::core::Pod>> pods = {
      pod("low", 10, "2024-01-01T00:00:00Z"),
      pod("bound", 1000, "2024-01-01T00:00:00Z", "n1"),
      pod("high-new", 100, "2024-01-02T00:00:00Z"),
      pod("high-old", 100, "2024-01-01T00:00:00Z"),
      pod("b-same", 100, "2024-01-02T00:00:00Z"),
      pod("unset-priority", std::nullopt, "2024-01-01T00:00:00Z"),
      pod("no-timestamp", 10, ""),
  };
  auto done = std::make_shared<api::core::Pod>(*pods[0]);
  done->metadata.name = "finished";
  done->status.phase = "Succeeded";
  pods.push_back(done);
  std::vector<std::string> names;
  for (size_t i : schedulingOrder(pods)) {
    names.push_back(pods[i]->metadata.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"high-old", "b-same", "high-new", "no-timestamp",
                                             "low", "unset-priority"}));
}

TEST(NumFeasibleNodesToFindTest, AdaptivePercentage) {
  const std::vector<std::pair<size_t, size_t>> cases = {
      {0, 0},      {5, 5},      {99, 99},    {100, 100},   {150, 100},
      {1000, 420}, {5000, 500}, {6000, 300}, {10000, 500}, {100000, 5000},
  };
  for (const auto& [nodes, want] : cases) {
    EXPECT_EQ(numFeasibleNodesToFind(nodes), want) << nodes;
  }
}

TEST(FitErrorMessageTest, KubeSchedulerStyle) {
  std::map<std::string, NodeRejection> rejections = {
      {"a", {"NodeResourcesFit", {"Insufficient cpu"}}},
      {"b", {"NodeResourcesFit", {"Insufficient cpu", "Insufficient memory"}}},
      {"c", {"TaintToleration", {"node(s) had untolerated taint {dedicated: gpu}"}}},
  };
  EXPECT_EQ(fitErrorMessage(3, rejections),
            "0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint "
            "{dedicated: gpu}, 2 Insufficient cpu.");
  EXPECT_EQ(fitErrorMessage(0, {}), "no nodes available to schedule pods");
}

const char* kNodes = R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "10"}}
)";

std::string podYaml(const std::string& name, const std::string& cpu, int priority,
                    const std::string& extra_spec = "") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
         "}\nspec:\n  priority: " + std::to_string(priority) + "\n" + extra_spec +
         "  containers: [{name: c, resources: {requests: {cpu: \"" + cpu + "\"}}}]\n";
}

Result<SimulationResult> run(const std::string& yaml) {
  ClusterLoader loader;
  KOORD_RETURN_IF_ERROR(loader.addText(yaml, "test.yaml"));
  SimulationOptions options;
  options.parallelism = 1;
  return simulate(loader.input(), options);
}

TEST(SimulateTest, PlacesPodsAndAccountsForEarlierPlacements) {
  auto result = run(std::string(kNodes) + podYaml("a", "3", 100) + podYaml("b", "2", 90) +
                    podYaml("c", "2", 80));
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->placements.size(), 3u);
  EXPECT_EQ(result->placements[0].node, "n1");
  EXPECT_EQ(result->placements[1].node, "n2");
  EXPECT_EQ(result->placements[2].node, "");
  EXPECT_EQ(result->placements[2].message, "0/2 nodes are available: 2 Insufficient cpu.");
  ASSERT_EQ(result->placements[2].rejections.size(), 2u);
  EXPECT_EQ(result->placements[2].rejections.at("n1").plugin, "NodeResourcesFit");
  EXPECT_EQ(result->placements[2].source, "test.yaml:26");
  ASSERT_EQ(result->nodes.size(), 2u);
  EXPECT_EQ(result->nodes[0].requested.milli_cpu, 3000);
  EXPECT_EQ(result->nodes[0].pod_count, 1);
  EXPECT_EQ(result->nodes[1].requested.milli_cpu, 2000);
}

TEST(SimulateTest, BoundPodsCount) {
  const std::string yaml = std::string(kNodes) + podYaml("running", "3", 0, "  nodeName: n1\n") +
                           podYaml("next", "2", 0);
  auto result = run(yaml);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->bound_pods, 1u);
  ASSERT_EQ(result->placements.size(), 1u);
  EXPECT_EQ(result->placements[0].key, "default/next");
  EXPECT_EQ(result->placements[0].node, "n2");
}

TEST(SimulateTest, PriorityQoSRejectsEveryNode) {
  const std::string yaml = std::string(kNodes) +
                           "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: be\n  labels: "
                           "{koordinator.sh/qosClass: BE}\nspec:\n  priority: 9000\n"
                           "  containers: [{name: c}]\n";
  auto result = run(yaml);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->placements.size(), 1u);
  EXPECT_EQ(result->placements[0].message,
            "0/2 nodes are available: 2 pod with QoS class BE cannot use priority class "
            "koord-prod (priority 9000).");
  EXPECT_EQ(result->placements[0].rejections.at("n2").plugin, "PriorityQoS");
}

TEST(SimulateTest, RejectsABadPluginConfig) {
  ClusterLoader loader;
  ASSERT_TRUE(loader.addText(kNodes, "nodes.yaml").isOk());
  SimulationOptions options;
  options.plugins.push_back({"NoSuchPlugin", nullptr, 1});
  auto result = simulate(loader.input(), options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("NoSuchPlugin"), std::string::npos);
}

TEST(SimulateTest, LooksAtAWindowOfNodesAndRotates) {
  // 200 equal nodes: kube-scheduler looks at numFeasibleNodesToFind(200) = 100 nodes per pod,
  // starting where the previous pod stopped, so two pods land in different halves.
  std::string yaml;
  for (int i = 0; i < 200; ++i) {
    char name[16];
    std::snprintf(name, sizeof(name), "n%03d", i);
    yaml += "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + std::string(name) +
            "}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}}\n";
  }
  yaml += podYaml("first", "1", 10) + podYaml("second", "1", 5);
  auto result = run(yaml);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->placements.size(), 2u);
  EXPECT_LT(result->placements[0].node, "n100");
  EXPECT_GE(result->placements[1].node, "n100");
}

}  // namespace
}  // namespace koord::extender::simulator
