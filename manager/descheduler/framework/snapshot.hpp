// The cluster one descheduling pass looks at: nodes, pods, NodeMetrics and PriorityClasses as
// the informers held them when the pass began. Build it with ClusterSnapshot::build(); the
// indexes (pods by node, NodeMetric by node) are made once there.
//
// Immutable after build(); safe to read from many threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"

namespace koord::manager::descheduler::framework {

using PodPtr = std::shared_ptr<const api::core::Pod>;
using NodePtr = std::shared_ptr<const api::core::Node>;
using NodeMetricPtr = std::shared_ptr<const api::slo::NodeMetric>;

class ClusterSnapshot {
 public:
  struct Input {
    std::vector<NodePtr> nodes;
    std::vector<PodPtr> pods;
    std::vector<NodeMetricPtr> node_metrics;
    std::map<std::string, int32_t> priority_classes;  // name -> value
  };

  [[nodiscard]] static ClusterSnapshot build(Input input);

  [[nodiscard]] const std::vector<NodePtr>& nodes() const { return input_.nodes; }
  [[nodiscard]] const std::vector<PodPtr>& pods() const { return input_.pods; }
  // The node named `name`, or nullptr.
  [[nodiscard]] NodePtr node(std::string_view name) const;
  // The pods bound to `node` (spec.nodeName), in input order; empty when none.
  [[nodiscard]] const std::vector<PodPtr>& podsOnNode(std::string_view node) const;
  // The NodeMetric of `node` (metadata.name == node name), or nullptr.
  [[nodiscard]] NodeMetricPtr nodeMetric(std::string_view node) const;
  // The value of PriorityClass `name`, if it exists.
  [[nodiscard]] std::optional<int32_t> priorityClassValue(std::string_view name) const;

 private:
  Input input_;
  std::unordered_map<std::string, size_t> node_index_;
  std::unordered_map<std::string, std::vector<PodPtr>> pods_by_node_;
  std::unordered_map<std::string, NodeMetricPtr> metric_by_node_;
};

}  // namespace koord::manager::descheduler::framework
