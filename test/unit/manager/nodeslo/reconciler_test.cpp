#include "manager/nodeslo/reconciler.hpp"

#include <gtest/gtest.h>

#include <string>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/metrics/registry.hpp"
#include "test/unit/manager/nodeslo/fixture.hpp"

namespace koord::manager::nodeslo {
namespace {

using testing::ConfigBox;
using testing::nodeJson;
using testing::parseConfig;

constexpr const char* kThresholdByPool = R"({
  "clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 50},
  "nodeStrategies": [{"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
                      "cpuSuppressThresholdPercent": 30}]})";
constexpr const char* kColocationByPool = R"({
  "enable": true,
  "nodeConfigs": [{"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
                   "metricReportIntervalSeconds": 120}]})";

class NodeSloReconcilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = NodeSloReconciler::create(api_, testing::sourcesOver(api_, config_), &registry_,
                                             log::Logger());
    ASSERT_TRUE(created.ok()) << created.status().toString();
    reconciler_ = *created;
  }

  void reconcileOk(const std::string& node) {
    auto result = reconciler_->reconcile(node);
    ASSERT_TRUE(result.ok()) << result.status().toString();
    EXPECT_FALSE(result->requeue);
    EXPECT_EQ(result->requeue_after, Clock::Duration::zero());
  }

  api::Json sloSpec(const std::string& node) { return api_.object(k8s::kNodeSLOs, node)["spec"]; }
  api::Json metricSpec(const std::string& node) {
    return api_.object(k8s::kNodeMetrics, node)["spec"];
  }

  koord::testing::FakeApiClient api_;
  ConfigBox config_;
  metrics::MetricsRegistry registry_;
  std::shared_ptr<NodeSloReconciler> reconciler_;
};

TEST_F(NodeSloReconcilerTest, NewNodeGetsNodeSloAndNodeMetricFromTheConfig) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");

  const api::Json slo = api_.object(k8s::kNodeSLOs, "n1");
  ASSERT_FALSE(slo.is_null());
  EXPECT_EQ(slo["apiVersion"], "slo.koordinator.sh/v1alpha1");
  EXPECT_EQ(slo["kind"], "NodeSLO");
  // Koordinator's defaults (no ConfigMap): threshold strategy off, 65 % suppress, cpuset.
  EXPECT_EQ(slo["spec"]["resourceUsedThresholdWithBE"]["enable"], false);
  EXPECT_EQ(slo["spec"]["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"], 65);
  EXPECT_EQ(slo["spec"]["resourceUsedThresholdWithBE"]["cpuSuppressPolicy"], "cpuset");
  EXPECT_FALSE(slo.contains("status"));

  const api::Json metric = api_.object(k8s::kNodeMetrics, "n1");
  ASSERT_FALSE(metric.is_null());
  EXPECT_EQ(metric["kind"], "NodeMetric");
  EXPECT_EQ(metric["spec"]["metricCollectPolicy"]["aggregateDurationSeconds"], 300);
  EXPECT_EQ(metric["spec"]["metricCollectPolicy"]["reportIntervalSeconds"], 60);
  EXPECT_EQ(metric["spec"]["metricCollectPolicy"]["nodeMemoryCollectPolicy"],
            "usageWithoutPageCache");
  EXPECT_FALSE(metric.contains("status"));

  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 2U);
  EXPECT_EQ(writes[0].verb, "create");
  EXPECT_EQ(writes[0].resource, "nodeslos");
  EXPECT_EQ(writes[1].verb, "create");
  EXPECT_EQ(writes[1].resource, "nodemetrics");
}

TEST_F(NodeSloReconcilerTest, NothingWrittenWhenBothSpecsAlreadyMatch) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  api_.clearWrites();
  reconcileOk("n1");
  reconcileOk("n1");
  EXPECT_EQ(api_.writeCount(), 0U);
}

TEST_F(NodeSloReconcilerTest, ConfigChangePatchesOnlyTheSpec) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  ASSERT_TRUE(api_.editBehind(k8s::kNodeSLOs, "n1", {{"status", {{"note", "kept"}}}}).isOk());
  api_.clearWrites();

  config_.set(parseConfig({{"resource-threshold-config", kThresholdByPool}}));
  reconcileOk("n1");

  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 1U);  // the NodeMetric's spec did not change
  EXPECT_EQ(writes[0].verb, "patch");
  EXPECT_EQ(writes[0].resource, "nodeslos");
  EXPECT_EQ(writes[0].subresource, "");
  EXPECT_FALSE(writes[0].body.contains("status"));
  EXPECT_TRUE(writes[0].body["metadata"].contains("resourceVersion"));
  EXPECT_EQ(sloSpec("n1")["resourceUsedThresholdWithBE"]["enable"], true);
  EXPECT_EQ(sloSpec("n1")["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"], 50);
  EXPECT_EQ(api_.object(k8s::kNodeSLOs, "n1")["status"]["note"], "kept");
}

TEST_F(NodeSloReconcilerTest, NodeLabelsSelectTheNodeStrategyAndNodeConfig) {
  config_.set(parseConfig(
      {{"resource-threshold-config", kThresholdByPool}, {"colocation-config", kColocationByPool}}));
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  EXPECT_EQ(sloSpec("n1")["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"], 50);
  EXPECT_EQ(metricSpec("n1")["metricCollectPolicy"]["reportIntervalSeconds"], 60);

  ASSERT_TRUE(
      api_.editBehind(k8s::kNodes, "n1", {{"metadata", {{"labels", {{"pool", "gpu"}}}}}}).isOk());
  reconcileOk("n1");
  EXPECT_EQ(sloSpec("n1")["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"], 30);
  EXPECT_EQ(metricSpec("n1")["metricCollectPolicy"]["reportIntervalSeconds"], 120);

  // The label removed again: back to the cluster strategy.
  ASSERT_TRUE(
      api_.editBehind(k8s::kNodes, "n1", {{"metadata", {{"labels", {{"pool", nullptr}}}}}}).isOk());
  reconcileOk("n1");
  EXPECT_EQ(sloSpec("n1")["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"], 50);
  EXPECT_EQ(metricSpec("n1")["metricCollectPolicy"]["reportIntervalSeconds"], 60);
}

TEST_F(NodeSloReconcilerTest, ColocationStrategyAnnotationOverridesTheCollectPolicy) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  ASSERT_TRUE(api_.editBehind(k8s::kNodes, "n1",
                              {{"metadata",
                                {{"annotations",
                                  {{"node.koordinator.sh/colocation-strategy",
                                    R"({"metricAggregateDurationSeconds": 600})"}}}}}})
                  .isOk());
  reconcileOk("n1");
  EXPECT_EQ(metricSpec("n1")["metricCollectPolicy"]["aggregateDurationSeconds"], 600);
}

TEST_F(NodeSloReconcilerTest, NodeDeletedTakesItsNodeSloAndNodeMetric) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kNodes, nodeJson("n2"));
  reconcileOk("n1");
  reconcileOk("n2");
  api_.clearWrites();

  ASSERT_TRUE(api_.removeBehind(k8s::kNodes, "n1").isOk());
  reconcileOk("n1");
  EXPECT_TRUE(api_.object(k8s::kNodeSLOs, "n1").is_null());
  EXPECT_TRUE(api_.object(k8s::kNodeMetrics, "n1").is_null());
  EXPECT_FALSE(api_.object(k8s::kNodeSLOs, "n2").is_null());
  EXPECT_FALSE(api_.object(k8s::kNodeMetrics, "n2").is_null());
  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 2U);
  EXPECT_EQ(writes[0].verb, "delete");
  EXPECT_EQ(writes[1].verb, "delete");

  api_.clearWrites();
  reconcileOk("n1");  // nothing left to delete
  EXPECT_EQ(api_.writeCount(), 0U);
}

TEST_F(NodeSloReconcilerTest, DeleteAnsweredNotFoundIsDone) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  ASSERT_TRUE(api_.removeBehind(k8s::kNodes, "n1").isOk());
  api_.failNext("delete", "nodeslos", k8s::apiErrorStatus(404, "", "DELETE", "/nodeslos/n1"));
  reconcileOk("n1");
  EXPECT_TRUE(api_.object(k8s::kNodeMetrics, "n1").is_null());
}

TEST_F(NodeSloReconcilerTest, SpecEditedByHandIsPutBack) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  const api::Json wanted = sloSpec("n1");
  ASSERT_TRUE(
      api_.editBehind(k8s::kNodeSLOs, "n1",
                      {{"spec",
                        {{"resourceUsedThresholdWithBE", {{"cpuSuppressThresholdPercent", 99}}},
                         {"handAdded", {{"x", 1}}}}}})
          .isOk());
  api_.clearWrites();

  reconcileOk("n1");
  EXPECT_EQ(sloSpec("n1"), wanted);
  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 1U);
  EXPECT_TRUE(writes[0].body["spec"].contains("handAdded"));
  EXPECT_TRUE(writes[0].body["spec"]["handAdded"].is_null());
}

TEST_F(NodeSloReconcilerTest, NodeSloDeletedByHandIsCreatedAgain) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  ASSERT_TRUE(api_.removeBehind(k8s::kNodeSLOs, "n1").isOk());
  api_.clearWrites();
  reconcileOk("n1");
  EXPECT_FALSE(api_.object(k8s::kNodeSLOs, "n1").is_null());
  ASSERT_EQ(api_.writeCount(), 1U);
  EXPECT_EQ(api_.writes()[0].verb, "create");
}

TEST_F(NodeSloReconcilerTest, NodeMetricStatusIsNeverWritten) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  const api::Json status = {
      {"updateTime", "2026-01-01T00:00:00Z"},
      {"nodeMetric", {{"nodeUsage", {{"resources", {{"cpu", "2"}, {"memory", "4Gi"}}}}}}}};
  api_.seed(k8s::kNodeMetrics,
            {{"apiVersion", "slo.koordinator.sh/v1alpha1"},
             {"kind", "NodeMetric"},
             {"metadata", {{"name", "n1"}}},
             {"spec", {{"metricCollectPolicy", {{"reportIntervalSeconds", 10}}}}},
             {"status", status}});
  reconcileOk("n1");

  bool patched = false;
  for (const auto& w : api_.writes()) {
    if (w.resource == "nodemetrics") {
      EXPECT_EQ(w.verb, "patch");
      EXPECT_EQ(w.subresource, "");
      EXPECT_FALSE(w.body.contains("status"));
      patched = true;
    }
  }
  EXPECT_TRUE(patched);
  EXPECT_EQ(metricSpec("n1")["metricCollectPolicy"]["reportIntervalSeconds"], 60);
  EXPECT_EQ(api_.object(k8s::kNodeMetrics, "n1")["status"], status);
}

TEST_F(NodeSloReconcilerTest, ConflictIsReturnedAndTheRetryWrites) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  config_.set(parseConfig({{"resource-threshold-config", kThresholdByPool}}));
  api_.failNext("patch", "nodeslos",
                k8s::apiErrorStatus(409, R"({"reason":"Conflict"})", "PATCH", "/nodeslos/n1"));
  auto failed = reconciler_->reconcile("n1");
  ASSERT_FALSE(failed.ok());
  EXPECT_TRUE(k8s::isConflict(failed.status())) << failed.status().toString();
  EXPECT_NE(failed.status().message().find("failed to patch the spec of NodeSLO 'n1'"),
            std::string::npos);
  reconcileOk("n1");
  EXPECT_EQ(sloSpec("n1")["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"], 50);
}

TEST_F(NodeSloReconcilerTest, FailedNodeSloCreateStillCreatesTheNodeMetric) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.failNext("create", "nodeslos", k8s::apiErrorStatus(503, "", "POST", "/nodeslos"));
  auto failed = reconciler_->reconcile("n1");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("failed to create NodeSLO 'n1'"), std::string::npos);
  EXPECT_FALSE(api_.object(k8s::kNodeMetrics, "n1").is_null());
  reconcileOk("n1");
  EXPECT_FALSE(api_.object(k8s::kNodeSLOs, "n1").is_null());
}

TEST_F(NodeSloReconcilerTest, NothingIsWrittenBeforeTheCachesSynced) {
  bool synced = false;
  auto sources = testing::sourcesOver(api_, config_);
  sources.synced = [&synced] { return synced; };
  auto reconciler = NodeSloReconciler::create(api_, std::move(sources), nullptr, log::Logger());
  ASSERT_TRUE(reconciler.ok());
  api_.seed(k8s::kNodeSLOs, {{"apiVersion", "slo.koordinator.sh/v1alpha1"},
                             {"kind", "NodeSLO"},
                             {"metadata", {{"name", "n1"}}}});
  auto result = (*reconciler)->reconcile("n1");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->requeue_after, kNotSyncedRetry);
  EXPECT_EQ(api_.writeCount(), 0U);
  synced = true;
  ASSERT_TRUE((*reconciler)->reconcile("n1").ok());
  EXPECT_TRUE(api_.object(k8s::kNodeSLOs, "n1").is_null());  // no node: the orphan is removed
}

TEST_F(NodeSloReconcilerTest, WritesAreCounted) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  reconcileOk("n1");
  ASSERT_TRUE(api_.removeBehind(k8s::kNodes, "n1").isOk());
  reconcileOk("n1");
  const std::string text = registry_.serialize();
  EXPECT_NE(text.find(R"(koord_manager_nodeslo_writes_total{kind="NodeSLO",operation="create"} 1)"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find(R"(koord_manager_nodeslo_writes_total{kind="NodeMetric",operation="delete"} 1)"),
      std::string::npos)
      << text;
}

TEST(NodeSloReconcilerCreateTest, EverySourceIsRequired) {
  koord::testing::FakeApiClient api;
  auto created = NodeSloReconciler::create(api, NodeSloSources{}, nullptr, log::Logger());
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(created.status().message().find("node, node_slo, node_metric, config"),
            std::string::npos)
      << created.status().message();
}

}  // namespace
}  // namespace koord::manager::nodeslo
