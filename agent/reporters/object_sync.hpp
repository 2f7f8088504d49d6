// Writing the agent's own cluster-scoped objects (NodeResourceTopology, Device, NodeMetric):
// created when missing, updated only when what the agent owns in them changed, so an unchanged
// node costs one GET per report and no write.
//
// Every function is one round of "get, compare, write"; a conflict (someone else wrote in
// between) or an API server that went away is returned to the caller, which retries on its next
// report with backoff. Thread-compatible: one reporter calls these for its own object.
#pragma once

#include "koord/api/scheduling/device.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/common/status.hpp"
#include "koord/k8s/client.hpp"

namespace koord::agent::reporters {

// The ownerReference that ties a node's report objects to their Node, so that they go away with it.
[[nodiscard]] api::core::OwnerReference nodeOwnerReference(const api::core::ObjectMeta& node);

// What a sync did (for metrics, logs and tests).
enum class SyncOutcome { kCreated, kUpdated, kUnchanged };

// The agent owns the NRT's topologyPolicies, its zones' cpu and memory resources, the labels and
// annotations it sets and its owner reference; other zone resources (the manager's
// kubernetes.io/batch-cpu and batch-memory) and other labels and annotations are kept.
[[nodiscard]] Result<SyncOutcome> syncNodeResourceTopology(
    k8s::Client& client, const api::topology::NodeResourceTopology& desired);

// The agent owns the Device's spec.devices, its labels and its owner reference.
[[nodiscard]] Result<SyncOutcome> syncDevice(k8s::Client& client,
                                             const api::scheduling::Device& desired);

// Writes `status` into the node's NodeMetric through the status subresource, creating the
// NodeMetric first when it does not exist (owned by the Node; spec left to koord-manager, which
// fills metricCollectPolicy). Always writes: the status carries a new updateTime each report.
[[nodiscard]] Result<SyncOutcome> syncNodeMetricStatus(k8s::Client& client,
                                                       const api::core::ObjectMeta& node,
                                                       const api::slo::NodeMetricStatus& status);

}  // namespace koord::agent::reporters
