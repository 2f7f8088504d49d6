#include "manager/descheduler/framework/snapshot.hpp"

#include <utility>

namespace koord::manager::descheduler::framework {

ClusterSnapshot ClusterSnapshot::build(Input input) {
  ClusterSnapshot snapshot;
  snapshot.input_ = std::move(input);
  for (size_t i = 0; i < snapshot.input_.nodes.size(); ++i) {
    snapshot.node_index_.emplace(snapshot.input_.nodes[i]->metadata.name, i);
  }
  for (const PodPtr& pod : snapshot.input_.pods) {
    if (!pod->spec.nodeName.empty()) {
      snapshot.pods_by_node_[pod->spec.nodeName].push_back(pod);
    }
  }
  for (const NodeMetricPtr& metric : snapshot.input_.node_metrics) {
    snapshot.metric_by_node_[metric->metadata.name] = metric;
  }
  return snapshot;
}

NodePtr ClusterSnapshot::node(std::string_view name) const {
  auto it = node_index_.find(std::string(name));
  return it == node_index_.end() ? nullptr : input_.nodes[it->second];
}

const std::vector<PodPtr>& ClusterSnapshot::podsOnNode(std::string_view node) const {
  static const std::vector<PodPtr> kNone;
  auto it = pods_by_node_.find(std::string(node));
  return it == pods_by_node_.end() ? kNone : it->second;
}

NodeMetricPtr ClusterSnapshot::nodeMetric(std::string_view node) const {
  auto it = metric_by_node_.find(std::string(node));
  return it == metric_by_node_.end() ? nullptr : it->second;
}

std::optional<int32_t> ClusterSnapshot::priorityClassValue(std::string_view name) const {
  auto it = input_.priority_classes.find(std::string(name));
  if (it == input_.priority_classes.end())
    return std::nullopt;
  return it->second;
}

}  // namespace koord::manager::descheduler::framework
