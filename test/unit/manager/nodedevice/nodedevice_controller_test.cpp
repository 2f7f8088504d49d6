// The controller as koord-manager runs it: real informers over the in-memory API server.
#include "manager/nodedevice/nodedevice_controller.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "koord/k8s/resource.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "test/unit/manager/nodedevice/fixture.hpp"
#include "test/unit/manager/support/controller_harness.hpp"
#include "test/unit/manager/support/fake_api_client.hpp"

namespace koord::manager::nodedevice {
namespace {

using testing::deviceJson;
using testing::Gpu;
using testing::nodeJson;

using manager::testing::eventually;

class NodeDeviceControllerTest : public ::testing::Test {
 protected:
  void start() {
    auto ctrl = newNodeDeviceController({.client = api_, .informers = factory_, .workers = 1});
    ASSERT_TRUE(ctrl.ok()) << ctrl.status().toString();
    controller_ = *ctrl;
    running_.start(factory_, controller_);
  }

  void TearDown() override { running_.stop(); }

  std::string gpuCore(const std::string& node) {
    const api::Json v =
        api_.object(k8s::kNodes, node)["status"]["allocatable"]["koordinator.sh/gpu-core"];
    return v.is_string() ? v.get<std::string>() : "<none>";
  }

  koord::testing::FakeApiClient api_;
  k8s::SharedInformerFactory factory_{api_};
  std::shared_ptr<controller::Controller> controller_;
  manager::testing::RunningController running_;
};

TEST_F(NodeDeviceControllerTest, NodesFollowTheirDevices) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kNodes, nodeJson("n2"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true}, {1, true}}));
  start();
  EXPECT_TRUE(eventually([&] { return gpuCore("n1") == "200"; }));

  // A GPU fails: the node advertises one.
  ASSERT_TRUE(
      api_.editBehind(
              k8s::kDevices, "n1",
              {{"spec",
                {{"devices", deviceJson("n1", {{0, true}, {1, false}})["spec"]["devices"]}}}})
          .isOk());
  EXPECT_TRUE(eventually([&] { return gpuCore("n1") == "100"; }));

  // Someone overwrites the value: it is put back.
  ASSERT_TRUE(api_.editBehind(k8s::kNodes, "n1",
                              {{"status", {{"allocatable", {{"koordinator.sh/gpu-core", "800"}}}}}})
                  .isOk());
  EXPECT_TRUE(eventually([&] { return gpuCore("n1") == "100"; }));

  // A Device appears for n2; n1's goes away.
  api_.seed(k8s::kDevices, deviceJson("n2", {{0, true}, {1, true}, {2, true}}));
  EXPECT_TRUE(eventually([&] { return gpuCore("n2") == "300"; }));
  ASSERT_TRUE(api_.removeBehind(k8s::kDevices, "n1").isOk());
  EXPECT_TRUE(eventually([&] {
    return gpuCore("n1") == "<none>" &&
           !api_.object(k8s::kNodes, "n1")["metadata"]["labels"].contains(
               "node.koordinator.sh/gpu-model");
  }));
}

TEST_F(NodeDeviceControllerTest, ADeviceEntryThatDoesNotParseIsSkipped) {
  api_.seed(k8s::kNodes, nodeJson("n1"));
  api_.seed(k8s::kDevices, deviceJson("n1", {{0, true, "16Gi"}, {1, true, "lots"}}));
  start();
  EXPECT_TRUE(eventually([&] { return gpuCore("n1") == "100"; }));
  EXPECT_EQ(api_.object(k8s::kNodes, "n1")["status"]["capacity"]["koordinator.sh/gpu-memory"],
            "16Gi");
}

}  // namespace
}  // namespace koord::manager::nodedevice
