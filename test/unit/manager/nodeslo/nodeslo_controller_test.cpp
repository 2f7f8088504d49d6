// The controller as koord-manager runs it: real informers over the in-memory API server, the
// real Controller, and the SloConfigSource.
#include "manager/nodeslo/nodeslo_controller.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "koord/k8s/resource.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/metrics/registry.hpp"
#include "test/unit/manager/nodeslo/fixture.hpp"
#include "test/unit/manager/support/controller_harness.hpp"

namespace koord::manager::nodeslo {
namespace {

using testing::nodeJson;

using manager::testing::eventually;

class NodeSloControllerTest : public ::testing::Test {
 protected:
  void start() {
    auto source = sloconfig::SloConfigSource::create({});
    ASSERT_TRUE(source.ok());
    source_ = *source;
    NodeSloDeps deps{.client = api_, .informers = factory_, .config = source_};
    deps.metrics = &registry_;
    deps.workers = 1;
    auto ctrl = newNodeSloController(std::move(deps));
    ASSERT_TRUE(ctrl.ok()) << ctrl.status().toString();
    controller_ = *ctrl;
    running_.start(factory_, controller_);
  }

  void TearDown() override { running_.stop(); }

  void applyConfig(const std::string& key, const std::string& value) {
    source_->onConfigMap(manager::testing::sloConfigMap(key, value));
  }

  int64_t threshold(const std::string& node) {
    const api::Json slo = api_.object(k8s::kNodeSLOs, node);
    const api::Json& v =
        slo.is_null() ? slo
                      : slo["spec"]["resourceUsedThresholdWithBE"]["cpuSuppressThresholdPercent"];
    return v.is_number() ? v.get<int64_t>() : -1;
  }

  koord::testing::FakeApiClient api_;
  k8s::SharedInformerFactory factory_{api_};
  metrics::MetricsRegistry registry_;
  std::shared_ptr<sloconfig::SloConfigSource> source_;
  std::shared_ptr<controller::Controller> controller_;
  manager::testing::RunningController running_;
};

TEST_F(NodeSloControllerTest, FollowsNodesTheConfigMapAndEditsByHand) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  start();
  ASSERT_TRUE(eventually(
      [&] { return threshold("n1") == 65 && !api_.object(k8s::kNodeMetrics, "n1").is_null(); }));

  // The ConfigMap changes: every node's NodeSLO follows.
  applyConfig("resource-threshold-config", R"({
    "clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 50},
    "nodeStrategies": [{"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
                        "cpuSuppressThresholdPercent": 30}]})");
  EXPECT_TRUE(eventually([&] { return threshold("n1") == 50; }));

  // The node is labelled into the "gpu" node strategy.
  ASSERT_TRUE(
      api_.editBehind(k8s::kNodes, "n1", {{"metadata", {{"labels", {{"pool", "gpu"}}}}}}).isOk());
  EXPECT_TRUE(eventually([&] { return threshold("n1") == 30; }));

  // Someone edits the spec: it is put back.
  ASSERT_TRUE(
      api_.editBehind(
              k8s::kNodeSLOs, "n1",
              {{"spec", {{"resourceUsedThresholdWithBE", {{"cpuSuppressThresholdPercent", 99}}}}}})
          .isOk());
  EXPECT_TRUE(eventually([&] { return threshold("n1") == 30; }));

  // Someone deletes the NodeMetric: it is created again.
  ASSERT_TRUE(api_.removeBehind(k8s::kNodeMetrics, "n1").isOk());
  EXPECT_TRUE(eventually([&] { return !api_.object(k8s::kNodeMetrics, "n1").is_null(); }));

  // A new node gets its objects; a deleted one loses them.
  api_.seed(k8s::kNodes, nodeJson("n2"));
  EXPECT_TRUE(eventually([&] { return threshold("n2") == 50; }));
  ASSERT_TRUE(api_.removeBehind(k8s::kNodes, "n1").isOk());
  EXPECT_TRUE(eventually([&] {
    return api_.object(k8s::kNodeSLOs, "n1").is_null() &&
           api_.object(k8s::kNodeMetrics, "n1").is_null();
  }));
  EXPECT_FALSE(api_.object(k8s::kNodeSLOs, "n2").is_null());
}

TEST_F(NodeSloControllerTest, ObjectsLeftByNodesDeletedWhileNotRunningAreRemoved) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kNodeSLOs, {{"apiVersion", "slo.koordinator.sh/v1alpha1"},
                             {"kind", "NodeSLO"},
                             {"metadata", {{"name", "gone"}}}});
  api_.seed(k8s::kNodeMetrics, {{"apiVersion", "slo.koordinator.sh/v1alpha1"},
                                {"kind", "NodeMetric"},
                                {"metadata", {{"name", "gone"}}}});
  start();
  EXPECT_TRUE(eventually([&] {
    return api_.object(k8s::kNodeSLOs, "gone").is_null() &&
           api_.object(k8s::kNodeMetrics, "gone").is_null() && threshold("n1") == 65;
  }));
}

TEST(NodeSloControllerCreateTest, ConfigSourceIsRequired) {
  koord::testing::FakeApiClient api;
  k8s::SharedInformerFactory factory(api);
  auto ctrl = newNodeSloController({.client = api, .informers = factory, .config = nullptr});
  ASSERT_FALSE(ctrl.ok());
  EXPECT_EQ(ctrl.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::manager::nodeslo
