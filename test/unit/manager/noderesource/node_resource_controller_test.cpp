// The controller as koord-manager runs it: real informers over the in-memory API server of the
// nodeslo tests, the real Controller and the SloConfigSource, the fixture node of fixture.hpp with
// a fresh NodeMetric.
#include "manager/noderesource/node_resource_controller.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "fixture.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/noderesource/node_plan.hpp"
#include "test/unit/manager/support/controller_harness.hpp"
#include "test/unit/manager/support/fake_api_client.hpp"

namespace koord::manager::noderesource {
namespace {

using manager::testing::eventually;

class NodeResourceControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api::core::Node node = fixture::baseNode();
    node.apiVersion = "v1";
    node.kind = "Node";
    node.status.capacity["nvidia.com/gpu"] = fixture::q("8");
    node.status.allocatable["nvidia.com/gpu"] = fixture::q("8");
    node.metadata.annotations["team"] = "a";
    api_.seed(k8s::kNodes, api::core::toJson(node));
    for (auto pod : fixture::basePods()) {
      pod.apiVersion = "v1";
      pod.kind = "Pod";
      pod.spec.nodeName = "node-1";
      api_.seed(k8s::kPods, api::core::toJson(pod));
    }
    api::slo::NodeMetric metric = fixture::baseMetric();
    metric.apiVersion = "slo.koordinator.sh/v1alpha1";
    metric.kind = "NodeMetric";
    metric.status.updateTime =
        formatRFC3339(std::chrono::system_clock::now() - std::chrono::minutes(1));
    api_.seed(k8s::kNodeMetrics, api::slo::toJson(metric));

    auto source = sloconfig::SloConfigSource::create({});
    ASSERT_TRUE(source.ok());
    source_ = *source;
    source_->setSynced([this] { return config_synced_.load(); });
    NodeResourceDeps deps{.client = api_, .informers = factory_, .config = source_};
    deps.metrics = &registry_;
    deps.workers = 1;
    auto ctrl = newNodeResourceController(std::move(deps));
    ASSERT_TRUE(ctrl.ok()) << ctrl.status().toString();
    controller_ = *ctrl;
    running_.start(factory_, controller_);
  }

  void TearDown() override { running_.stop(); }

  // Whether the slo-controller-config informer has synced (SloConfigSource::synced).
  std::atomic<bool> config_synced_{true};

  void applyConfig(const std::string& key, const std::string& value) {
    source_->onConfigMap(manager::testing::sloConfigMap(key, value));
  }

  api::Json node() const { return api_.object(k8s::kNodes, "node-1"); }
  std::string allocatable(const std::string& name) const {
    const api::Json n = node();
    const api::Json& v = n["status"]["allocatable"];
    return v.contains(name) ? v[name].get<std::string>() : "";
  }
  std::string explanation() const {
    const api::Json n = node();
    const api::Json& a = n["metadata"]["annotations"];
    return a.contains(kAnnotationResourceCalculation)
               ? a[std::string(kAnnotationResourceCalculation)].get<std::string>()
               : "";
  }

  koord::testing::FakeApiClient api_;
  k8s::SharedInformerFactory factory_{api_};
  metrics::MetricsRegistry registry_;
  std::shared_ptr<sloconfig::SloConfigSource> source_;
  std::shared_ptr<controller::Controller> controller_;
  manager::testing::RunningController running_;
};

// Before the ConfigMap has been read, the defaults (colocation off) are no reason to touch a node.
class NodeResourceControllerBeforeSyncTest : public NodeResourceControllerTest {
 protected:
  NodeResourceControllerBeforeSyncTest() { config_synced_ = false; }
};

TEST_F(NodeResourceControllerBeforeSyncTest, NothingIsWrittenBeforeTheConfigIsRead) {
  applyConfig("colocation-config", R"({"enable": true})");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(api_.writeCount(), 0u);
  EXPECT_EQ(explanation(), "");
  config_synced_ = true;
  EXPECT_TRUE(eventually([&] { return allocatable("kubernetes.io/batch-cpu") == "7400"; }));
}

TEST_F(NodeResourceControllerTest, FollowsTheConfigPodsAndKeepsOtherKeys) {
  // Koordinator's defaults: colocation disabled, nothing offered, and the node says why.
  ASSERT_TRUE(eventually(
      [&] { return explanation().find("degraded: colocation disabled") != std::string::npos; }));
  EXPECT_EQ(allocatable("kubernetes.io/batch-cpu"), "");

  // Colocation enabled in the ConfigMap: every node is recomputed.
  applyConfig("colocation-config", R"({"enable": true})");
  ASSERT_TRUE(eventually([&] { return allocatable("kubernetes.io/batch-cpu") == "7400"; }));
  EXPECT_EQ(allocatable("kubernetes.io/batch-memory"), "42496Mi");
  EXPECT_EQ(allocatable("nvidia.com/gpu"), "8");
  EXPECT_EQ(allocatable("cpu"), "31");
  EXPECT_EQ(node()["metadata"]["annotations"]["team"], "a");
  // The explanation follows in the second patch.
  EXPECT_TRUE(eventually(
      [&] { return explanation().find("=> kubernetes.io/batch-cpu: 7400") != std::string::npos; }));

  // prod-b (2 cores requested, no metric) is deleted: batch-cpu grows by more than 10 %.
  ASSERT_TRUE(api_.removeBehind(k8s::kPods, "prod-b").isOk());
  EXPECT_TRUE(eventually([&] { return allocatable("kubernetes.io/batch-cpu") == "9400"; }));

  // Colocation disabled again: the resources are removed.
  applyConfig("colocation-config", R"({"enable": false})");
  EXPECT_TRUE(eventually([&] { return allocatable("kubernetes.io/batch-cpu").empty(); }));
  EXPECT_EQ(allocatable("nvidia.com/gpu"), "8");
}

TEST(NodeResourceControllerCreateTest, ConfigSourceIsRequired) {
  koord::testing::FakeApiClient api;
  k8s::SharedInformerFactory factory(api);
  auto ctrl = newNodeResourceController({.client = api, .informers = factory, .config = nullptr});
  EXPECT_EQ(ctrl.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::manager::noderesource
