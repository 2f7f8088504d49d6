#include "manager/nodedevice/reconciler.hpp"

#include <gtest/gtest.h>

#include <string>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/nodedevice/device_decoder.hpp"
#include "test/unit/manager/nodedevice/fixture.hpp"
#include "test/unit/manager/support/fake_api_client.hpp"

namespace koord::manager::nodedevice {
namespace {

using testing::deviceJson;
using testing::Gpu;
using testing::nodeJson;

class NodeDeviceReconcilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = NodeDeviceReconciler::create(api_, sources(), &registry_, log::Logger());
    ASSERT_TRUE(created.ok()) << created.status().toString();
    reconciler_ = *created;
  }

  NodeDeviceSources sources() {
    NodeDeviceSources s;
    s.node = [this](const std::string& name) -> std::shared_ptr<const api::core::Node> {
      api::Json j = api_.object(k8s::kNodes, name);
      if (j.is_null()) {
        return nullptr;
      }
      auto node = k8s::decodeObject<api::core::Node>(std::move(j));
      return node.ok() ? std::make_shared<const api::core::Node>(*node) : nullptr;
    };
    s.device = [this](const std::string& name) -> std::shared_ptr<const api::scheduling::Device> {
      api::Json j = api_.object(k8s::kDevices, name);
      if (j.is_null()) {
        return nullptr;
      }
      auto device = decodeDeviceSkippingBadEntries(std::move(j), log::Logger());
      return device.ok() ? std::make_shared<const api::scheduling::Device>(*device) : nullptr;
    };
    return s;
  }

  void reconcileOk(const std::string& node) {
    auto result = reconciler_->reconcile(node);
    ASSERT_TRUE(result.ok()) << result.status().toString();
  }

  api::Json status(const std::string& node) { return api_.object(k8s::kNodes, node)["status"]; }
  api::Json labels(const std::string& node) {
    return api_.object(k8s::kNodes, node)["metadata"]["labels"];
  }

  koord::testing::FakeApiClient api_;
  metrics::MetricsRegistry registry_;
  std::shared_ptr<NodeDeviceReconciler> reconciler_;
};

TEST_F(NodeDeviceReconcilerTest, HealthyGpusAreAdvertisedWithoutTouchingOtherResources) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true, "16Gi"}, {1, true, "16Gi"}, {2, false}}));
  reconcileOk("n1");

  for (const char* list : {"capacity", "allocatable"}) {
    const api::Json l = status("n1")[list];
    EXPECT_EQ(l["koordinator.sh/gpu-core"], "200") << list;
    EXPECT_EQ(l["koordinator.sh/gpu-memory"], "32Gi") << list;
    EXPECT_EQ(l["koordinator.sh/gpu-memory-ratio"], "200") << list;
    EXPECT_EQ(l["cpu"], "8") << list;
    EXPECT_EQ(l["kubernetes.io/batch-cpu"], "4000") << list;
  }
  EXPECT_EQ(labels("n1")["node.koordinator.sh/gpu-model"], "A100");
  EXPECT_EQ(labels("n1")["node.koordinator.sh/gpu-driver-version"], "535.104.05");
  EXPECT_EQ(labels("n1")["kubernetes.io/hostname"], "n1");

  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 2U);
  EXPECT_EQ(writes[0].verb, "patch");
  EXPECT_EQ(writes[0].subresource, "status");
  EXPECT_EQ(writes[0].body, (api::Json{{"status",
                                        {{"capacity",
                                          {{"koordinator.sh/gpu-core", "200"},
                                           {"koordinator.sh/gpu-memory", "32Gi"},
                                           {"koordinator.sh/gpu-memory-ratio", "200"}}},
                                         {"allocatable",
                                          {{"koordinator.sh/gpu-core", "200"},
                                           {"koordinator.sh/gpu-memory", "32Gi"},
                                           {"koordinator.sh/gpu-memory-ratio", "200"}}}}}}));
  EXPECT_EQ(writes[1].subresource, "");
  EXPECT_EQ(writes[1].body,
            (api::Json{{"metadata",
                        {{"labels",
                          {{"node.koordinator.sh/gpu-model", "A100"},
                           {"node.koordinator.sh/gpu-driver-version", "535.104.05"}}}}}}));
}

TEST_F(NodeDeviceReconcilerTest, NothingWrittenWhenTheNodeAlreadyAdvertisesIt) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  reconcileOk("n1");
  api_.clearWrites();
  reconcileOk("n1");
  EXPECT_EQ(api_.writeCount(), 0U);

  api_.seed(k8s::kNodes, nodeJson("cpu-only"));  // no Device, nothing advertised: nothing to do
  reconcileOk("cpu-only");
  EXPECT_EQ(api_.writeCount(), 0U);
}

TEST_F(NodeDeviceReconcilerTest, DeviceGoneRemovesTheResourcesAndLabelsOnly) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  reconcileOk("n1");
  // Another controller writes batch resources meanwhile.
  ASSERT_TRUE(api_.editBehind(k8s::kNodes, "n1",
                              {{"status", {{"capacity", {{"kubernetes.io/batch-cpu", "5000"}}}}}})
                  .isOk());
  ASSERT_TRUE(api_.removeBehind(k8s::kDevices, "n1").isOk());
  api_.clearWrites();
  reconcileOk("n1");

  for (const char* list : {"capacity", "allocatable"}) {
    const api::Json l = status("n1")[list];
    EXPECT_FALSE(l.contains("koordinator.sh/gpu-core")) << list;
    EXPECT_FALSE(l.contains("koordinator.sh/gpu-memory")) << list;
    EXPECT_FALSE(l.contains("koordinator.sh/gpu-memory-ratio")) << list;
    EXPECT_EQ(l["cpu"], "8") << list;
  }
  EXPECT_EQ(status("n1")["capacity"]["kubernetes.io/batch-cpu"], "5000");
  EXPECT_FALSE(labels("n1").contains("node.koordinator.sh/gpu-model"));
  EXPECT_FALSE(labels("n1").contains("node.koordinator.sh/gpu-driver-version"));
  EXPECT_EQ(labels("n1")["kubernetes.io/hostname"], "n1");
  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 2U);
  EXPECT_TRUE(writes[0].body["status"]["capacity"]["koordinator.sh/gpu-core"].is_null());
  EXPECT_FALSE(writes[0].body["status"]["capacity"].contains("kubernetes.io/batch-cpu"));
}

TEST_F(NodeDeviceReconcilerTest, GpusTurningUnhealthyAreTakenAway) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true, "16Gi"}, {1, true, "16Gi"}}));
  reconcileOk("n1");
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true, "16Gi"}, {1, false, "16Gi"}}));
  reconcileOk("n1");
  EXPECT_EQ(status("n1")["allocatable"]["koordinator.sh/gpu-core"], "100");
  EXPECT_EQ(status("n1")["allocatable"]["koordinator.sh/gpu-memory"], "16Gi");

  api_.seed(k8s::kDevices, deviceJson("n1", {{0, false}, {1, false}}));
  reconcileOk("n1");
  EXPECT_FALSE(status("n1")["allocatable"].contains("koordinator.sh/gpu-core"));
  EXPECT_FALSE(labels("n1").contains("node.koordinator.sh/gpu-model"));
}

TEST_F(NodeDeviceReconcilerTest, AValueChangedByHandIsPutBackAlone) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  reconcileOk("n1");
  ASSERT_TRUE(api_.editBehind(k8s::kNodes, "n1",
                              {{"status", {{"allocatable", {{"koordinator.sh/gpu-core", "999"}}}}}})
                  .isOk());
  api_.clearWrites();
  reconcileOk("n1");
  const auto writes = api_.writes();
  ASSERT_EQ(writes.size(), 1U);
  EXPECT_EQ(writes[0].body,
            (api::Json{{"status", {{"allocatable", {{"koordinator.sh/gpu-core", "100"}}}}}}));
  EXPECT_EQ(status("n1")["allocatable"]["koordinator.sh/gpu-core"], "100");
}

TEST_F(NodeDeviceReconcilerTest, SameValueInAnotherSpellingIsNotRewritten) {
  api::Json node = nodeJson("n1");
  node["status"]["capacity"]["koordinator.sh/gpu-memory"] = "17179869184";
  node["status"]["allocatable"]["koordinator.sh/gpu-memory"] = "16Gi";
  node["status"]["capacity"]["koordinator.sh/gpu-core"] = "100";
  node["status"]["allocatable"]["koordinator.sh/gpu-core"] = "100";
  node["status"]["capacity"]["koordinator.sh/gpu-memory-ratio"] = "100";
  node["status"]["allocatable"]["koordinator.sh/gpu-memory-ratio"] = "100";
  node["metadata"]["labels"]["node.koordinator.sh/gpu-model"] = "A100";
  node["metadata"]["labels"]["node.koordinator.sh/gpu-driver-version"] = "535.104.05";
  api_.seed(k8s::kNodes, node);
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true, "16Gi"}}));
  reconcileOk("n1");
  EXPECT_EQ(api_.writeCount(), 0U);
}

TEST_F(NodeDeviceReconcilerTest, ModelAndDriverFollowTheDevice) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  reconcileOk("n1");
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}, "H100", ""));
  api_.clearWrites();
  reconcileOk("n1");
  EXPECT_EQ(labels("n1")["node.koordinator.sh/gpu-model"], "H100");
  EXPECT_FALSE(labels("n1").contains("node.koordinator.sh/gpu-driver-version"));
  ASSERT_EQ(api_.writeCount(), 1U);  // the resources did not change
  EXPECT_EQ(api_.writes()[0].subresource, "");
}

TEST_F(NodeDeviceReconcilerTest, AnAbsentNodeIsLeftAlone) {
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  reconcileOk("n1");
  EXPECT_EQ(api_.writeCount(), 0U);
}

TEST_F(NodeDeviceReconcilerTest, FailedPatchIsReturnedForRetry) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  api_.failNext("patch", "nodes", k8s::apiErrorStatus(503, "", "PATCH", "/nodes/n1/status"));
  auto failed = reconciler_->reconcile("n1");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("failed to patch the status of Node 'n1'"),
            std::string::npos)
      << failed.status().message();
  reconcileOk("n1");
  EXPECT_EQ(status("n1")["capacity"]["koordinator.sh/gpu-core"], "100");
  EXPECT_EQ(labels("n1")["node.koordinator.sh/gpu-model"], "A100");
}

TEST_F(NodeDeviceReconcilerTest, NothingIsWrittenBeforeTheCachesSynced) {
  bool synced = false;
  auto s = sources();
  s.synced = [&synced] { return synced; };
  auto reconciler = NodeDeviceReconciler::create(api_, std::move(s), nullptr, log::Logger());
  ASSERT_TRUE(reconciler.ok());
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  auto result = (*reconciler)->reconcile("n1");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->requeue_after, kNotSyncedRetry);
  EXPECT_EQ(api_.writeCount(), 0U);
}

TEST_F(NodeDeviceReconcilerTest, WritesAreCounted) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}}));
  reconcileOk("n1");
  reconcileOk("n1");
  const std::string text = registry_.serialize();
  EXPECT_NE(text.find(R"(koord_manager_nodedevice_writes_total{target="status"} 1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(R"(koord_manager_nodedevice_writes_total{target="labels"} 1)"),
            std::string::npos)
      << text;
}

TEST(NodeDeviceReconcilerCreateTest, LookupsAreRequired) {
  koord::testing::FakeApiClient api;
  auto created = NodeDeviceReconciler::create(api, NodeDeviceSources{}, nullptr, log::Logger());
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.status().message().find("node, device"), std::string::npos);
}

}  // namespace
}  // namespace koord::manager::nodedevice
