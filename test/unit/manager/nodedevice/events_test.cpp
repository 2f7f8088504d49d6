#include "manager/nodedevice/events.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace koord::manager::nodedevice {
namespace {

class NodeDeviceHandlersTest : public ::testing::Test {
 protected:
  EnqueueNode recorder() {
    return [this](const std::string& name) { queued_.push_back(name); };
  }
  std::vector<std::string> queued_;
};

api::core::Node node() {
  api::core::Node n;
  n.metadata.name = "n1";
  n.status.capacity.emplace("cpu", resource::Quantity::fromInt(8));
  return n;
}

TEST_F(NodeDeviceHandlersTest, NodeUpdatesEnqueueOnlyForManagedFields) {
  auto h = nodeHandlers(recorder());
  auto base = std::make_shared<const api::core::Node>(node());
  api::core::Node heartbeat = node();
  heartbeat.metadata.resourceVersion = "2";
  heartbeat.status.capacity["cpu"] = resource::Quantity::fromInt(16);
  heartbeat.status.capacity["kubernetes.io/batch-cpu"] = resource::Quantity::fromInt(4000);
  heartbeat.metadata.labels["team"] = "a";
  auto p1 = std::make_shared<const api::core::Node>(heartbeat);
  api::core::Node gpu_edit = heartbeat;
  gpu_edit.status.allocatable["koordinator.sh/gpu-core"] = resource::Quantity::fromInt(100);
  auto p2 = std::make_shared<const api::core::Node>(gpu_edit);
  api::core::Node label_edit = gpu_edit;
  label_edit.metadata.labels["node.koordinator.sh/gpu-model"] = "A100";
  auto p3 = std::make_shared<const api::core::Node>(label_edit);

  h.onUpdate(base, p1);
  EXPECT_TRUE(queued_.empty());
  h.onUpdate(p1, p2);
  h.onUpdate(p2, p3);
  h.onAdd(base);
  EXPECT_EQ(queued_, (std::vector<std::string>{"n1", "n1", "n1"}));
  EXPECT_FALSE(h.onDelete);  // a deleted node has nothing left to write
}

TEST_F(NodeDeviceHandlersTest, DeviceStatusUpdatesDoNotEnqueue) {
  auto h = deviceHandlers(recorder());
  api::scheduling::Device base;
  base.metadata.name = "n1";
  api::scheduling::Device allocated = base;
  allocated.status.allocations.push_back({"gpu", {}, {}});
  api::scheduling::Device grown = allocated;
  grown.spec.devices.push_back({});
  api::scheduling::Device relabelled = grown;
  relabelled.metadata.labels["node.koordinator.sh/gpu-model"] = "A100";
  auto p0 = std::make_shared<const api::scheduling::Device>(base);
  auto p1 = std::make_shared<const api::scheduling::Device>(allocated);
  auto p2 = std::make_shared<const api::scheduling::Device>(grown);
  auto p3 = std::make_shared<const api::scheduling::Device>(relabelled);

  h.onUpdate(p0, p1);
  EXPECT_TRUE(queued_.empty());
  h.onUpdate(p1, p2);
  h.onUpdate(p2, p3);
  h.onDelete(p3);
  h.onAdd(p0);
  EXPECT_EQ(queued_, (std::vector<std::string>(4, "n1")));
}

}  // namespace
}  // namespace koord::manager::nodedevice
