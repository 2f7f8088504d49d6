#include "manager/noderesource/node_resource_reconciler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "fake_client.hpp"
#include "fixture.hpp"
#include "koord/api/well_known.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::manager::noderesource {
namespace {

using fake::FakeClient;
using fixture::at;
using std::chrono::minutes;
using std::chrono::seconds;

// The fixture node (fixture.hpp) in the caches of a reconciler over a FakeClient, at kNowText.
class ReconcilerTest : public ::testing::Test {
 protected:
  using Call = fake::Call;

  void SetUp() override {
    now_ = at(fixture::kNowText);
    auto config = std::make_shared<sloconfig::SloControllerConfig>();
    config->colocation.cluster.enable = true;
    config_ = config;
    ASSERT_TRUE(pods_.addIndexer(std::string(kPodNodeNameIndex), &podNodeNameIndex).isOk());
    setNode(fixture::baseNode());
    for (auto pod : fixture::basePods()) {
      pod.spec.nodeName = "node-1";
      ASSERT_TRUE(pods_.add(std::make_shared<const api::core::Pod>(pod)).ok());
    }
    setMetric(fixture::baseMetric());
    NodeResourceReconcilerOptions options;
    options.caches = {&nodes_, &pods_, &metrics_, &topologies_};
    options.client = &client_;
    options.config = [this] { return config_; };
    options.wall_clock = [this] { return now_; };
    options.metrics = &registry_;
    auto reconciler = NodeResourceReconciler::create(std::move(options));
    ASSERT_TRUE(reconciler.ok()) << reconciler.status().message();
    reconciler_ = std::move(reconciler).value();
  }

  void setNode(const api::core::Node& node) {
    ASSERT_TRUE(nodes_.add(std::make_shared<const api::core::Node>(node)).ok());
  }
  void setMetric(const api::slo::NodeMetric& metric) {
    ASSERT_TRUE(metrics_.add(std::make_shared<const api::slo::NodeMetric>(metric)).ok());
  }
  // The node as the API server has it after the controller's patches (the informer's view).
  void applyLastStatusPatch() {
    auto patches = client_.of("patch", "nodes", "status");
    ASSERT_FALSE(patches.empty());
    api::core::Node node = *nodes_.get("node-1");
    for (const auto& meta : client_.of("patch", "nodes")) {
      for (const auto& [key, value] : meta.body["metadata"]["annotations"].items()) {
        if (value.is_null()) {
          node.metadata.annotations.erase(key);
        } else {
          node.metadata.annotations[key] = value.get<std::string>();
        }
      }
    }
    for (const char* field : {"capacity", "allocatable"}) {
      auto& list =
          std::string(field) == "capacity" ? node.status.capacity : node.status.allocatable;
      for (const auto& [name, value] : patches.back().body["status"][field].items()) {
        if (value.is_null()) {
          list.erase(name);
        } else {
          list[name] = fixture::q(value.get<std::string>());
        }
      }
    }
    setNode(node);
  }
  controller::ReconcileResult reconcile() {
    auto result = reconciler_->reconcile("node-1");
    EXPECT_TRUE(result.ok()) << result.status().message();
    return result.ok() ? *result : controller::ReconcileResult{};
  }
  std::string explanation(const Call& call) const {
    return call.body["metadata"]["annotations"][std::string(kAnnotationResourceCalculation)]
        .get<std::string>();
  }
  TimePoint now_;
  std::shared_ptr<const sloconfig::SloControllerConfig> config_;
  k8s::Store<api::core::Node> nodes_;
  k8s::Store<api::core::Pod> pods_;
  k8s::Store<api::slo::NodeMetric> metrics_;
  k8s::Store<api::topology::NodeResourceTopology> topologies_;
  FakeClient client_;
  metrics::MetricsRegistry registry_;
  std::unique_ptr<NodeResourceReconciler> reconciler_;
};

TEST_F(ReconcilerTest, WritesResourcesOnFirstReconcile) {
  reconcile();
  auto status = client_.of("patch", "nodes", "status");
  ASSERT_EQ(status.size(), 1U);
  const api::Json want = {{"kubernetes.io/batch-cpu", "7400"},
                          {"kubernetes.io/batch-memory", "42496Mi"},
                          {"kubernetes.io/mid-cpu", "0"},
                          {"kubernetes.io/mid-memory", "0"}};
  EXPECT_EQ(status[0].body["status"]["allocatable"], want);
  EXPECT_EQ(status[0].body["status"]["capacity"], want);
  auto meta = client_.of("patch", "nodes");
  ASSERT_EQ(meta.size(), 1U);
  const std::string text = explanation(meta[0]);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "calculated 2026-01-01T12:00:00Z: cpuCalculatePolicy usage, memoryCalculatePolicy "
            "usage, midReclaimMode dynamic");
  EXPECT_NE(text.find("=> kubernetes.io/batch-cpu: 7400"), std::string::npos) << text;
}

TEST_F(ReconcilerTest, PatchNamesOnlyTheOwnedKeys) {
  api::core::Node node = fixture::baseNode();
  node.status.allocatable["nvidia.com/gpu"] = fixture::q("8");
  node.metadata.annotations["team"] = "a";
  setNode(node);
  reconcile();
  auto status = client_.of("patch", "nodes", "status");
  ASSERT_EQ(status.size(), 1U);
  ASSERT_EQ(status[0].body.size(), 1U);
  ASSERT_EQ(status[0].body["status"].size(), 2U);
  for (const char* field : {"capacity", "allocatable"}) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : status[0].body["status"][field].items()) {
      keys.push_back(key);
    }
    EXPECT_EQ(keys,
              (std::vector<std::string>{"kubernetes.io/batch-cpu", "kubernetes.io/batch-memory",
                                        "kubernetes.io/mid-cpu", "kubernetes.io/mid-memory"}));
  }
  auto meta = client_.of("patch", "nodes");
  ASSERT_EQ(meta.size(), 1U);
  ASSERT_EQ(meta[0].body.size(), 1U);
  for (const auto& [key, value] : meta[0].body["metadata"]["annotations"].items()) {
    EXPECT_TRUE(key == kAnnotationResourceCalculation ||
                key == api::kAnnotationCPUNormalizationRatio)
        << key;
  }
}

TEST_F(ReconcilerTest, NoWriteWithinDiffAndTimeThresholds) {
  reconcile();
  applyLastStatusPatch();
  client_.calls.clear();
  // Four minutes later, the NodeMetric reports 5% more system CPU usage.
  now_ += minutes(4);
  api::slo::NodeMetric metric = fixture::baseMetric();
  metric.status.updateTime = "2026-01-01T12:03:00Z";
  metric.status.nodeMetric->systemUsage.resources["cpu"] = fixture::q("2300m");
  setMetric(metric);
  reconcile();
  EXPECT_TRUE(client_.calls.empty());
}

TEST_F(ReconcilerTest, WritesAfterTheTimeThreshold) {
  reconcile();
  applyLastStatusPatch();
  client_.calls.clear();
  now_ += seconds(301);
  api::slo::NodeMetric metric = fixture::baseMetric();
  metric.status.updateTime = "2026-01-01T12:05:00Z";
  setMetric(metric);
  reconcile();
  EXPECT_EQ(client_.of("patch", "nodes", "status").size(), 1U);
  ASSERT_EQ(client_.of("patch", "nodes").size(), 1U);
  EXPECT_EQ(explanation(client_.of("patch", "nodes")[0]).substr(0, 31),
            "calculated 2026-01-01T12:05:01Z");
}

TEST_F(ReconcilerTest, WritesAtOnceBeyondTheDiffThreshold) {
  reconcile();
  applyLastStatusPatch();
  client_.calls.clear();
  now_ += minutes(1);
  api::slo::NodeMetric metric = fixture::baseMetric();
  metric.status.updateTime = "2026-01-01T12:00:30Z";
  metric.status.nodeMetric->systemUsage.resources["cpu"] = fixture::q("4");  // batch-cpu 5400
  setMetric(metric);
  reconcile();
  auto status = client_.of("patch", "nodes", "status");
  ASSERT_EQ(status.size(), 1U);
  EXPECT_EQ(status[0].body["status"]["allocatable"]["kubernetes.io/batch-cpu"], "5400");
}

TEST_F(ReconcilerTest, StaleMetricRemovesResourcesAndTheAnnotationSaysWhy) {
  auto first = reconcile();
  // Requeued for the staleness deadline: updated 11:59, degradeTimeMinutes 15, now 12:00.
  EXPECT_EQ(first.requeue_after,
            std::chrono::duration_cast<Clock::Duration>(minutes(14) + seconds(1)));
  applyLastStatusPatch();
  client_.calls.clear();
  now_ += minutes(14) + seconds(1);  // the NodeMetric is not updated again
  auto second = reconcile();
  EXPECT_EQ(second.requeue_after, Clock::Duration::zero());
  auto status = client_.of("patch", "nodes", "status");
  ASSERT_EQ(status.size(), 1U);
  for (const auto& [key, value] : status[0].body["status"]["allocatable"].items()) {
    EXPECT_TRUE(value.is_null()) << key;
  }
  auto meta = client_.of("patch", "nodes");
  ASSERT_EQ(meta.size(), 1U);
  const std::string text = explanation(meta[0]);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "calculated 2026-01-01T12:14:01Z: degraded: NodeMetric stale: updated 15m1s ago, "
            "degradeTimeMinutes 15");
  EXPECT_NE(text.find("batch-cpu: removed (NodeMetric stale"), std::string::npos) << text;
  EXPECT_EQ(registry_.serialize().find("koord_manager_noderesource_degraded_nodes 1") !=
                std::string::npos,
            true)
      << registry_.serialize();
}

TEST_F(ReconcilerTest, AChangedDegradeReasonIsWrittenAtOnceAndTheSameOneIsNot) {
  now_ += minutes(20);
  reconcile();  // NodeMetric stale
  applyLastStatusPatch();
  client_.calls.clear();
  now_ += minutes(1);
  reconcile();  // still stale, one minute later: nothing to write
  EXPECT_TRUE(client_.calls.empty());
  ASSERT_TRUE(metrics_.removeKey("node-1") != nullptr);
  reconcile();  // NodeMetric missing
  auto meta = client_.of("patch", "nodes");
  ASSERT_EQ(meta.size(), 1U);
  EXPECT_NE(explanation(meta[0]).find("degraded: NodeMetric missing"), std::string::npos);
}

TEST_F(ReconcilerTest, AFailedWriteIsRetriedAndNotRemembered) {
  client_.fail_with = Status::unavailable("apiserver down");
  auto result = reconciler_->reconcile("node-1");
  EXPECT_FALSE(result.ok());
  client_.fail_with = Status::ok();
  client_.calls.clear();
  reconcile();
  EXPECT_EQ(client_.of("patch", "nodes", "status").size(), 1U);
}

TEST_F(ReconcilerTest, AnUnusableStrategyLeavesTheNodeAlone) {
  api::core::Node node = fixture::baseNode();
  // 150 % of the capacity reserved for mid: outside [0, 100].
  node.metadata.labels[std::string(api::kLabelMidCPUStaticReservedRatio)] = "1.5";
  setNode(node);
  reconcile();
  EXPECT_TRUE(client_.calls.empty());
  EXPECT_NE(registry_.serialize().find("koord_manager_noderesource_invalid_strategy_total 1"),
            std::string::npos);
}

TEST_F(ReconcilerTest, ColocationDisabledRemovesResources) {
  auto config = std::make_shared<sloconfig::SloControllerConfig>();  // enable false
  config_ = config;
  reconcile();
  auto status = client_.of("patch", "nodes", "status");
  ASSERT_EQ(status.size(), 1U);
  EXPECT_TRUE(status[0].body["status"]["capacity"]["kubernetes.io/batch-cpu"].is_null());
}

TEST_F(ReconcilerTest, ADeletedNodeIsForgotten) {
  reconcile();
  ASSERT_TRUE(nodes_.removeKey("node-1") != nullptr);
  client_.calls.clear();
  reconcile();
  EXPECT_TRUE(client_.calls.empty());
  setNode(fixture::baseNode());
  reconcile();  // written again at once, as a node never seen
  EXPECT_EQ(client_.of("patch", "nodes", "status").size(), 1U);
}

}  // namespace
}  // namespace koord::manager::noderesource
