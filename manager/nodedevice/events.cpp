#include "manager/nodedevice/events.hpp"

#include <memory>

#include "manager/nodedevice/gpu_resources.hpp"

namespace koord::manager::nodedevice {
namespace {

bool sameResource(const resource::ResourceList& a, const resource::ResourceList& b,
                  std::string_view key) {
  const auto x = a.find(key);
  const auto y = b.find(key);
  if (x == a.end() || y == b.end()) {
    return (x == a.end()) == (y == b.end());
  }
  return x->second == y->second;
}

bool sameLabel(const api::core::StringMap& a, const api::core::StringMap& b, std::string_view key) {
  const auto x = a.find(std::string(key));
  const auto y = b.find(std::string(key));
  if (x == a.end() || y == b.end()) {
    return (x == a.end()) == (y == b.end());
  }
  return x->second == y->second;
}

}  // namespace

bool managedNodeFieldsChanged(const api::core::Node& old_node, const api::core::Node& new_node) {
  for (std::string_view key : kManagedResources) {
    if (!sameResource(old_node.status.capacity, new_node.status.capacity, key) ||
        !sameResource(old_node.status.allocatable, new_node.status.allocatable, key)) {
      return true;
    }
  }
  for (std::string_view key : kManagedLabels) {
    if (!sameLabel(old_node.metadata.labels, new_node.metadata.labels, key)) {
      return true;
    }
  }
  return false;
}

bool deviceInputsChanged(const api::scheduling::Device& old_device,
                         const api::scheduling::Device& new_device) {
  return !(old_device.spec == new_device.spec) ||
         old_device.metadata.labels != new_device.metadata.labels;
}

k8s::ResourceEventHandlers<api::core::Node> nodeHandlers(EnqueueNode enqueue) {
  k8s::ResourceEventHandlers<api::core::Node> h;
  h.onAdd = [enqueue](const std::shared_ptr<const api::core::Node>& node) {
    enqueue(node->metadata.name);
  };
  h.onUpdate = [enqueue](const std::shared_ptr<const api::core::Node>& old_node,
                         const std::shared_ptr<const api::core::Node>& new_node) {
    if (managedNodeFieldsChanged(*old_node, *new_node)) {
      enqueue(new_node->metadata.name);
    }
  };
  return h;
}

k8s::ResourceEventHandlers<api::scheduling::Device> deviceHandlers(EnqueueNode enqueue) {
  using Ptr = std::shared_ptr<const api::scheduling::Device>;
  k8s::ResourceEventHandlers<api::scheduling::Device> h;
  h.onAdd = [enqueue](const Ptr& device) { enqueue(device->metadata.name); };
  h.onUpdate = [enqueue](const Ptr& old_device, const Ptr& new_device) {
    if (deviceInputsChanged(*old_device, *new_device)) {
      enqueue(new_device->metadata.name);
    }
  };
  h.onDelete = h.onAdd;
  return h;
}

}  // namespace koord::manager::nodedevice
