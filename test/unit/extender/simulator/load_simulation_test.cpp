// The simulator with LoadAwareScheduling (issue #37): NodeMetrics steer pods to the less loaded
// node, the pods it places are estimated on top of the reported usage (so a burst does not pile
// onto the node that looked idle), metric ages are judged against the newest NodeMetric of the
// input, and each node's load is reported.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "extender/simulator/cluster_loader.hpp"
#include "extender/simulator/report.hpp"
#include "extender/simulator/simulator.hpp"

namespace koord::extender::simulator {
namespace {

// Two equal nodes; `busy` reports 6 of 8 CPUs used, `idle` 1.
std::string loadCluster(const std::string& busy_time = "2024-05-01T10:10:00Z") {
  return R"(
apiVersion: v1
kind: Node
metadata: {name: busy}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: idle}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: slo.koordinator.sh/v1alpha1
kind: NodeMetric
metadata: {name: busy}
status:
  updateTime: ")" +
         busy_time + R"("
  nodeMetric: {nodeUsage: {resources: {cpu: "6", memory: 4Gi}}}
---
apiVersion: slo.koordinator.sh/v1alpha1
kind: NodeMetric
metadata: {name: idle}
status:
  updateTime: "2024-05-01T10:10:00Z"
  nodeMetric: {nodeUsage: {resources: {cpu: "1", memory: 2Gi}}}
)";
}

std::string podYaml(const std::string& name, const std::string& cpu) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
         ", namespace: default}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: \"" +
         cpu + "\", memory: 1Gi}}}]\n";
}

SimulationResult simulateLoad(const std::string& yaml, const SimulationOptions& options = {}) {
  ClusterLoader loader;
  EXPECT_TRUE(loader.addText(yaml, "test.yaml").isOk());
  auto result = simulate(loader.input(), options);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : SimulationResult{};
}

const NodeUsage& nodeOf(const SimulationResult& result, const std::string& name) {
  for (const auto& n : result.nodes) {
    if (n.name == name)
      return n;
  }
  ADD_FAILURE() << "no node " << name;
  static const NodeUsage none;
  return none;
}

// Koordinator's own defaults (thresholds cpu 65%, memory 95%, expired metrics filtered).
SimulationOptions withThresholds() {
  SimulationOptions options;
  options.plugins = {{"NodeResourcesFit", nullptr, 1}, {"LoadAwareScheduling", nullptr, 1}};
  return options;
}

TEST(LoadSimulationTest, APodGoesToTheLessLoadedNodeAndIsEstimatedThere) {
  const SimulationResult result = simulateLoad(loadCluster() + podYaml("web", "2"));
  ASSERT_EQ(result.placements.size(), 1u);
  EXPECT_EQ(result.placements[0].node, "idle");
  const NodeUsage& idle = nodeOf(result, "idle");
  ASSERT_TRUE(idle.load.has_value());
  ASSERT_EQ(idle.load->resources, (std::vector<std::string>{"cpu", "memory"}));
  EXPECT_EQ(idle.load->reported[0], 1000);
  EXPECT_EQ(idle.load->estimated[0], 1000 + 1700);  // 85% of the 2-CPU request
  EXPECT_EQ(idle.load->allocatable[0], 8000);
  EXPECT_FALSE(idle.load->expired);
  EXPECT_EQ(idle.load->update_time, "2024-05-01T10:10:00Z");
  const NodeUsage& busy = nodeOf(result, "busy");
  ASSERT_TRUE(busy.load.has_value());
  EXPECT_EQ(busy.load->estimated[0], 6000);
}

// Four 2-CPU pods: by requests alone each would look the same on both nodes after a few; the
// estimates of the pods placed earlier keep pushing the next one to the other node once idle has
// caught up with busy, and none is put where its estimate would pass 65%.
TEST(LoadSimulationTest, ABurstIsSpreadByTheEstimatesAndHeldToTheThreshold) {
  const SimulationResult result =
      simulateLoad(loadCluster() + podYaml("p1", "2") + podYaml("p2", "2") + podYaml("p3", "2") +
                       podYaml("p4", "2"),
                   withThresholds());
  ASSERT_EQ(result.placements.size(), 4u);
  int on_idle = 0;
  int refused = 0;
  for (const auto& p : result.placements) {
    on_idle += p.node == "idle" ? 1 : 0;
    if (p.node.empty()) {
      refused++;
      EXPECT_NE(p.message.find("node(s) cpu usage exceed threshold"), std::string::npos)
          << p.message;
    }
  }
  // idle: 1 + 1.7 + 1.7 = 4.4 CPUs (55%); a third would make 6.1 (76% > 65%). busy: 6 already
  // (75%): refused.
  EXPECT_EQ(on_idle, 2);
  EXPECT_EQ(refused, 2);
  EXPECT_EQ(nodeOf(result, "idle").load->estimated[0], 1000 + 2 * 1700);
}

TEST(LoadSimulationTest, MetricAgeIsJudgedAgainstTheNewestNodeMetricOfTheInput) {
  // Both metrics from 2024: not expired, the input's "now" is their updateTime.
  SimulationResult fresh = simulateLoad(loadCluster() + podYaml("web", "1"), withThresholds());
  ASSERT_EQ(fresh.placements.size(), 1u);
  EXPECT_EQ(fresh.placements[0].node, "idle");
  EXPECT_FALSE(nodeOf(fresh, "busy").load->expired);

  // busy's is 10 minutes older than idle's: expired (180 s); a pod that may only go there is
  // refused with Koordinator's reason.
  SimulationOptions options;
  options.plugins = {{"NodeAffinity", nullptr, 1}, {"LoadAwareScheduling", nullptr, 1}};
  const SimulationResult stale = simulateLoad(
      loadCluster("2024-05-01T10:00:00Z") +
          "---\napiVersion: v1\nkind: Pod\nmetadata: {name: pinned, namespace: default}\n"
          "spec:\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
          "{nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: "
          "[busy]}]}]}}}\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n",
      options);
  EXPECT_TRUE(nodeOf(stale, "busy").load->expired);
  ASSERT_EQ(stale.placements.size(), 1u);
  EXPECT_EQ(stale.placements[0].node, "");
  ASSERT_TRUE(stale.placements[0].rejections.count("busy"));
  EXPECT_EQ(stale.placements[0].rejections.at("busy").reasons,
            std::vector<std::string>{"node(s) nodeMetric expired"});
}

TEST(LoadSimulationTest, TheReportShowsEachNodesLoad) {
  const SimulationResult result = simulateLoad(loadCluster() + podYaml("web", "2"));
  std::ostringstream table;
  writeTable(result, table);
  EXPECT_NE(table.str().find("LOAD (LoadAwareScheduling"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("idle   13% (1)        34% (2700m)"), std::string::npos)
      << table.str();
  const api::Json json = reportJson(result);
  bool found = false;
  for (const auto& node : json["nodes"]) {
    if (node["name"] != "idle")
      continue;
    found = true;
    EXPECT_EQ(node["load"]["estimated"]["cpu"], "2700m");
    EXPECT_EQ(node["load"]["reported"]["cpu"], "1");
    EXPECT_EQ(node["load"]["expired"], false);
  }
  EXPECT_TRUE(found);
}

TEST(LoadSimulationTest, NoLoadWithoutNodeMetricsOrWithThePluginOff) {
  SimulationOptions off;
  off.plugins = {{"NodeResourcesFit", nullptr, 1}};
  const SimulationResult result = simulateLoad(loadCluster() + podYaml("web", "2"), off);
  for (const auto& n : result.nodes)
    EXPECT_FALSE(n.load.has_value()) << n.name;
  const SimulationResult bare = simulateLoad(
      "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"8\", "
      "memory: 16Gi, pods: \"110\"}}\n" +
      podYaml("web", "2"));
  ASSERT_EQ(bare.placements.size(), 1u);
  EXPECT_EQ(bare.placements[0].node, "n");
  EXPECT_FALSE(bare.nodes[0].load.has_value());
}

}  // namespace
}  // namespace koord::extender::simulator
