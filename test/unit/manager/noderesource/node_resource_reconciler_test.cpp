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

TEST_F(ReconcilerTest, ADegradedNodeIsNotRewrittenEveryFiveMinutes) {
  config_ = std::make_shared<sloconfig::SloControllerConfig>();  // colocation off
  reconcile();
  ASSERT_EQ(client_.of("patch", "nodes", "status").size(), 1U);
  applyLastStatusPatch();
  client_.calls.clear();
  now_ += minutes(10);
  reconcile();
  EXPECT_TRUE(client_.calls.empty());
  // Something put batch-cpu back on the node: removed at once, whatever the time.
  api::core::Node node = *nodes_.get("node-1");
  node.status.allocatable["kubernetes.io/batch-cpu"] = fixture::q("1000");
  setNode(node);
  reconcile();
  EXPECT_EQ(client_.of("patch", "nodes", "status").size(), 1U);
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

// A NodeResourceTopology of two zones (16 cores / 40Gi each, plus a GPU koordlet reports) for the
// fixture node, with CPU basic info.
api::topology::NodeResourceTopology fixtureTopology() {
  api::topology::NodeResourceTopology nrt;
  nrt.apiVersion = "topology.node.k8s.io/v1alpha1";
  nrt.kind = "NodeResourceTopology";
  nrt.metadata.name = "node-1";
  nrt.metadata.resourceVersion = "7";
  nrt.metadata.annotations[std::string(api::kAnnotationNodeCPUBasicInfo)] =
      R"({"cpuModel":"Xeon","hyperThreadEnabled":true,"turboEnabled":true})";
  for (const char* name : {"node-0", "node-1"}) {
    api::topology::Zone zone;
    zone.name = name;
    zone.type = "Node";
    for (const auto& [resource, amount] : {std::pair<const char*, const char*>{"cpu", "16"},
                                           {"memory", "40Gi"},
                                           {"nvidia.com/gpu", "1"}}) {
      zone.resources.push_back(
          {resource, fixture::q(amount), fixture::q(amount), fixture::q(amount), {}});
    }
    nrt.zones.push_back(zone);
  }
  return nrt;
}

TEST_F(ReconcilerTest, WritesTheCPUNormalizationAndAmplificationRatios) {
  auto config = std::make_shared<sloconfig::SloControllerConfig>(*config_);
  config->cpuNormalization.cluster.enable = true;
  config->cpuNormalization.cluster.ratioModel["Xeon"].hyperThreadTurboEnabledRatio = 1.25;
  config_ = config;
  ASSERT_TRUE(
      topologies_
          .add(std::make_shared<const api::topology::NodeResourceTopology>(fixtureTopology()))
          .ok());
  reconcile();
  auto status = client_.of("patch", "nodes", "status");
  ASSERT_EQ(status.size(), 1U);
  EXPECT_EQ(status[0].body["status"]["allocatable"]["kubernetes.io/batch-cpu"], "9250");
  auto meta = client_.of("patch", "nodes");
  ASSERT_EQ(meta.size(), 1U);
  const api::Json& annotations = meta[0].body["metadata"]["annotations"];
  EXPECT_EQ(annotations["node.koordinator.sh/cpu-normalization-ratio"], "1.25");
  EXPECT_EQ(annotations["node.koordinator.sh/resource-amplification-ratio"], R"({"cpu":1.25})");

  // Applied by the API server: nothing more to write. The ratio config removed: the ratio goes
  // back to 1.00 at once and the amplification annotation is removed.
  applyLastStatusPatch();
  client_.calls.clear();
  reconcile();
  EXPECT_TRUE(client_.of("patch", "nodes").empty());
  auto plain = std::make_shared<sloconfig::SloControllerConfig>();
  plain->colocation.cluster.enable = true;
  config_ = plain;
  reconcile();
  meta = client_.of("patch", "nodes");
  ASSERT_EQ(meta.size(), 1U);
  EXPECT_EQ(meta[0].body["metadata"]["annotations"]["node.koordinator.sh/cpu-normalization-ratio"],
            "1.00");
  EXPECT_TRUE(
      meta[0]
          .body["metadata"]["annotations"]["node.koordinator.sh/resource-amplification-ratio"]
          .is_null());
}

TEST_F(ReconcilerTest, WritesNUMAZoneBatchKeepingWhatKoordletOwns) {
  ASSERT_TRUE(
      topologies_
          .add(std::make_shared<const api::topology::NodeResourceTopology>(fixtureTopology()))
          .ok());
  reconcile();
  auto updates = client_.of("update", "noderesourcetopologies");
  ASSERT_EQ(updates.size(), 1U);
  const api::Json& nrt = updates[0].body;
  EXPECT_EQ(nrt["metadata"]["resourceVersion"], "7");  // optimistic concurrency
  EXPECT_EQ(nrt["metadata"]["annotations"].size(), 1U);
  ASSERT_EQ(nrt["zones"].size(), 2U);
  std::vector<std::string> names;
  for (const auto& resource : nrt["zones"][0]["resources"]) {
    names.push_back(resource["name"].get<std::string>());
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"cpu", "kubernetes.io/batch-cpu",
                                      "kubernetes.io/batch-memory", "memory", "nvidia.com/gpu"}));
  EXPECT_EQ(nrt["zones"][0]["resources"][4]["allocatable"], "1");
  // The annotation names the zones.
  EXPECT_NE(explanation(client_.of("patch", "nodes")[0]).find("zone node-1: batch-cpu"),
            std::string::npos);

  // The Node and the NRT as written: nothing more to write until the values move.
  applyLastStatusPatch();
  api::topology::NodeResourceTopology written;
  ASSERT_TRUE(api::topology::fromJson(nrt, written, "").isOk());
  ASSERT_TRUE(
      topologies_.add(std::make_shared<const api::topology::NodeResourceTopology>(written)).ok());
  client_.calls.clear();
  reconcile();
  EXPECT_TRUE(client_.calls.empty());

  // A conflict (koordlet wrote in between) fails the reconcile, to be retried.
  ASSERT_TRUE(
      topologies_
          .add(std::make_shared<const api::topology::NodeResourceTopology>(fixtureTopology()))
          .ok());
  client_.fail_with = Status::conflict("the object has been modified");
  client_.calls.clear();
  EXPECT_FALSE(reconciler_->reconcile("node-1").ok());
  ASSERT_EQ(client_.calls.size(), 1U);
  EXPECT_EQ(client_.calls[0].verb, "update");
}

}  // namespace
}  // namespace koord::manager::noderesource
