// NodeResourceReconciler: koord-manager's node resource controller for one node (Koordinator's
// slo-controller noderesource controller, koordinator-reference §3(c)), reading only informer
// caches and writing with merge patches. The Controller around it (node_resource_controller.hpp)
// queues node names; tests call reconcile() directly with caches they fill.
//
// reconcile(node):
// - The node gone: its memory (sync_state.hpp) is forgotten; done.
// - planNode (node_plan.hpp) over the node, its pods (the Pod cache's kPodNodeNameIndex), its
//   NodeMetric and NodeResourceTopology (same name as the node) and the current config.
// - A strategy the calculation cannot use: the node is left as it is, a warning is logged and
//   koord_manager_noderesource_invalid_strategy_total counts it; done (a config change
//   requeues every node).
// - Resources: written when needSync (sync.hpp) says so against the node's current
//   status.allocatable (first time since start, updateTimeThresholdSeconds elapsed, or a move
//   beyond resourceDiffThreshold, a resource added or removed), or when the kind of degrade
//   changed since the last write; never for a node already written as degraded for the same kind
//   of reason that holds none of the four resources (no periodic rewrite while degraded). One merge
//   patch to nodes/<name>/status sets kubernetes.io/batch-cpu, batch-memory, mid-cpu and mid-memory
//   in status.capacity and status.allocatable, or null (removes) them when degraded; no other key
//   is named.
// - Annotations, one merge patch to the Node naming only these keys:
//   koord-manager.koordinator.sh/resource-calculation (explainPlan's lines joined by "\n") with
//   every resource write; node.koordinator.sh/cpu-normalization-ratio when this round computed a
//   ratio that differs from the node's by 0.01 or more (or the node has none, or an unreadable
//   one); node.koordinator.sh/resource-amplification-ratio when its text changes (null removes
//   it). The status patch goes first, so the explanation never describes numbers not written.
// - NodeResourceTopology: when planNode computed zones, they are applied (numa_batch.hpp) to a
//   copy of the cached NRT with resourceDiffThreshold, or exactly once updateTimeThresholdSeconds
//   passed since the last NRT write; when that changed anything the NRT is written with an
//   update carrying the cached resourceVersion, so a concurrent koord-agent write is never lost
//   (a conflict fails the reconcile and the retry reads the new object). Koordinator leaves the
//   NRT alone while batch is degraded; so does this.
// - Requeue: when not degraded, after the NodeMetric's staleness deadline (status.updateTime +
//   degradeTimeMinutes, plus one second), so a node whose koord-agent stopped reporting loses its
//   batch and mid resources without any further event.
// A failed write is returned as the error (the Controller retries with backoff); the memory is
// updated only after a successful write.
//
// Metrics (options.metrics):
//   koord_manager_noderesource_writes_total{object}   counter; object is node_status,
//                                                     node_annotations, node_resource_topology
//   koord_manager_noderesource_degraded_nodes          gauge: nodes whose last write removed
//                                                      their resources
//   koord_manager_noderesource_invalid_strategy_total  counter
//
// Thread safety: reconcile() may run for different nodes at once (the Controller never runs one
// node twice at once).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/store.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"
#include "manager/noderesource/node_plan.hpp"
#include "manager/noderesource/sync_state.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::noderesource {

// The Pod cache index by spec.nodeName (pods not bound yet are not indexed).
inline constexpr std::string_view kPodNodeNameIndex = "spec.nodeName";
[[nodiscard]] std::vector<std::string> podNodeNameIndex(const api::core::Pod& pod);

using ConfigGetter = std::function<std::shared_ptr<const sloconfig::SloControllerConfig>()>;

struct NodeResourceCaches {
  const k8s::Store<api::core::Node>* nodes = nullptr;
  const k8s::Store<api::core::Pod>* pods = nullptr;  // with kPodNodeNameIndex
  const k8s::Store<api::slo::NodeMetric>* nodeMetrics = nullptr;
  // nullptr: no NodeResourceTopology (no CPU normalization model, no NUMA-level batch).
  const k8s::Store<api::topology::NodeResourceTopology>* topologies = nullptr;
};

struct NodeResourceReconcilerOptions {
  NodeResourceCaches caches;                    // must outlive the reconciler
  k8s::Client* client = nullptr;                // must outlive the reconciler
  ConfigGetter config;                          // never returns null
  k8s::WallClock wall_clock;                    // empty: system_clock
  metrics::MetricsRegistry* metrics = nullptr;  // must outlive the reconciler; nullptr: none
  log::Logger logger;
};

class NodeResourceReconciler {
 public:
  // kInvalidArgument when a cache (nodes, pods, nodeMetrics), the client or config is missing;
  // kAlreadyExists when the metric families clash with others in options.metrics.
  [[nodiscard]] static Result<std::unique_ptr<NodeResourceReconciler>> create(
      NodeResourceReconcilerOptions options);

  [[nodiscard]] Result<controller::ReconcileResult> reconcile(const std::string& node_name);

  [[nodiscard]] const SyncState& syncState() const { return sync_; }

 private:
  explicit NodeResourceReconciler(NodeResourceReconcilerOptions options);
  Status initMetrics();
  [[nodiscard]] TimePoint now() const;
  Status writeTopology(const std::string& node_name, const api::topology::NodeResourceTopology& nrt,
                       const NodePlan& plan, TimePoint now);

  NodeResourceReconcilerOptions options_;
  SyncState sync_;
  metrics::Counter status_writes_, annotation_writes_, topology_writes_, invalid_strategy_;
  metrics::Gauge degraded_nodes_;
};

}  // namespace koord::manager::noderesource
