#include "manager/nodeslo/node_events.hpp"

#include <memory>
#include <string>

#include "koord/api/well_known.hpp"

namespace koord::manager::nodeslo {
namespace {

const std::string* annotation(const api::core::Node& node, std::string_view key) {
  const auto it = node.metadata.annotations.find(std::string(key));
  return it == node.metadata.annotations.end() ? nullptr : &it->second;
}

// Handlers for an object named after its node: added or deleted always, updated when the spec
// changed.
template <class T>
k8s::ResourceEventHandlers<T> specHandlers(const EnqueueNode& enqueue) {
  k8s::ResourceEventHandlers<T> h;
  h.onAdd = [enqueue](const std::shared_ptr<const T>& obj) { enqueue(obj->metadata.name); };
  h.onUpdate = [enqueue](const std::shared_ptr<const T>& old_obj,
                         const std::shared_ptr<const T>& new_obj) {
    if (specChanged(*old_obj, *new_obj)) {
      enqueue(new_obj->metadata.name);
    }
  };
  h.onDelete = h.onAdd;
  return h;
}

}  // namespace

bool nodeInputsChanged(const api::core::Node& old_node, const api::core::Node& new_node) {
  if (old_node.metadata.labels != new_node.metadata.labels) {
    return true;
  }
  const std::string* before = annotation(old_node, api::kAnnotationNodeColocationStrategy);
  const std::string* after = annotation(new_node, api::kAnnotationNodeColocationStrategy);
  if (before == nullptr || after == nullptr) {
    return before != after;
  }
  return *before != *after;
}

bool specChanged(const api::slo::NodeSLO& old_slo, const api::slo::NodeSLO& new_slo) {
  return !(old_slo.spec == new_slo.spec);
}

bool specChanged(const api::slo::NodeMetric& old_metric, const api::slo::NodeMetric& new_metric) {
  return !(old_metric.spec == new_metric.spec);
}

k8s::ResourceEventHandlers<api::core::Node> nodeHandlers(EnqueueNode enqueue) {
  k8s::ResourceEventHandlers<api::core::Node> h;
  h.onAdd = [enqueue](const std::shared_ptr<const api::core::Node>& node) {
    enqueue(node->metadata.name);
  };
  h.onUpdate = [enqueue](const std::shared_ptr<const api::core::Node>& old_node,
                         const std::shared_ptr<const api::core::Node>& new_node) {
    if (nodeInputsChanged(*old_node, *new_node)) {
      enqueue(new_node->metadata.name);
    }
  };
  h.onDelete = h.onAdd;
  return h;
}

k8s::ResourceEventHandlers<api::slo::NodeSLO> nodeSloHandlers(EnqueueNode enqueue) {
  return specHandlers<api::slo::NodeSLO>(enqueue);
}

k8s::ResourceEventHandlers<api::slo::NodeMetric> nodeMetricHandlers(EnqueueNode enqueue) {
  return specHandlers<api::slo::NodeMetric>(enqueue);
}

}  // namespace koord::manager::nodeslo
