// Which informer events make the NodeSLO / NodeMetric controller look at a node again. Every event
// is mapped to the node's name (a NodeSLO and a NodeMetric are named after their node), and the
// reconcile is level-triggered, so these filters only save work: a node whose inputs did not
// change would be reconciled to no write anyway.
//
// - Node added or deleted: always.
// - Node updated: when its labels changed (they select the nodeStrategies[] / nodeConfigs[] entry
//   of every slo-controller-config key, and carry the reclaim-ratio overrides) or its
//   node.koordinator.sh/colocation-strategy annotation changed (it overrides the colocation
//   strategy the NodeMetric collect policy comes from). Heartbeats and status updates do not.
// - NodeSLO / NodeMetric added or deleted: always (a NodeSLO left behind by a deleted node is
//   removed; one deleted by hand is created again).
// - NodeSLO / NodeMetric updated: when the spec changed (someone edited it; the controller puts
//   it back). koord-agent's NodeMetric status reports every minute do not.
#pragma once

#include <functional>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/k8s/informer.hpp"

namespace koord::manager::nodeslo {

[[nodiscard]] bool nodeInputsChanged(const api::core::Node& old_node,
                                     const api::core::Node& new_node);
[[nodiscard]] bool specChanged(const api::slo::NodeSLO& old_slo, const api::slo::NodeSLO& new_slo);
[[nodiscard]] bool specChanged(const api::slo::NodeMetric& old_metric,
                               const api::slo::NodeMetric& new_metric);

// Informer handlers applying the rules above; each calls `enqueue` with the node's name.
using EnqueueNode = std::function<void(const std::string& node_name)>;
[[nodiscard]] k8s::ResourceEventHandlers<api::core::Node> nodeHandlers(EnqueueNode enqueue);
[[nodiscard]] k8s::ResourceEventHandlers<api::slo::NodeSLO> nodeSloHandlers(EnqueueNode enqueue);
[[nodiscard]] k8s::ResourceEventHandlers<api::slo::NodeMetric> nodeMetricHandlers(
    EnqueueNode enqueue);

}  // namespace koord::manager::nodeslo
