// NodeSloReconciler: makes one node's NodeSLO and NodeMetric (slo.koordinator.sh/v1alpha1,
// cluster-scoped, both named after the node) match slo-controller-config, after Koordinator's
// pkg/slo-controller/nodeslo and nodemetric controllers. One reconcile does both objects.
//
// reconcile(node) reads the node, its NodeSLO and its NodeMetric from `sources` (informer caches
// in koord-manager) and the configuration from sources.config(), then:
// - node absent: deletes the NodeSLO and the NodeMetric that exist (NotFound counts as done);
// - NodeSLO absent: creates it with spec = nodeSLOSpecFor(config, node);
// - NodeSLO present with another spec: merge-patches the spec only (spec_patch.hpp: keys someone
//   added are removed, status is never written, the cached resourceVersion guards the patch);
// - NodeMetric absent: creates it with spec = nodeMetricSpecFor(config, node) and no status;
// - NodeMetric present with another spec: merge-patches the spec only (koord-agent owns status);
// - otherwise: no write.
// Both objects are attempted; the first failure is returned (the controller retries the node
// after its backoff; a Conflict or AlreadyExists from a stale cache heals that way). Until
// sources.synced() is true nothing is written (a cache that is still filling would make every
// NodeSLO look orphaned) and the node is asked again after kNotSyncedRetry.
//
// Metrics (metrics registry given): koord_manager_nodeslo_writes_total{kind,operation}, kind
// NodeSLO or NodeMetric, operation create, patch or delete; counted when the API server accepted
// the write (a delete answered NotFound is not counted).
//
// Thread safety: reconcile() may run for distinct nodes at once (the controller runs one key on
// one worker at a time); the sources must be thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::nodeslo {

inline constexpr std::string_view kName = "nodeslo";
inline constexpr std::chrono::seconds kNotSyncedRetry{1};

// Where the reconciler reads the cluster. Each lookup takes the object's name and returns nullptr
// when there is none.
struct NodeSloSources {
  std::function<std::shared_ptr<const api::core::Node>(const std::string&)> node;
  std::function<std::shared_ptr<const api::slo::NodeSLO>(const std::string&)> node_slo;
  std::function<std::shared_ptr<const api::slo::NodeMetric>(const std::string&)> node_metric;
  // The configuration in force (SloConfigSource::current in koord-manager); never null.
  std::function<std::shared_ptr<const sloconfig::SloControllerConfig>()> config;
  // True once every cache above holds its first list; empty: always true.
  std::function<bool()> synced;
};

class NodeSloReconciler {
 public:
  // kInvalidArgument naming each empty source; kAlreadyExists when the metric family clashes.
  // `client` (and `metrics`, when given) must outlive the reconciler. No I/O.
  [[nodiscard]] static Result<std::shared_ptr<NodeSloReconciler>> create(
      k8s::Client& client, NodeSloSources sources, metrics::MetricsRegistry* metrics,
      log::Logger logger);

  [[nodiscard]] Result<controller::ReconcileResult> reconcile(const std::string& node_name);

 private:
  struct Writes {
    metrics::Counter create, patch, remove;
  };

  NodeSloReconciler(k8s::Client& client, NodeSloSources sources, log::Logger logger);
  Status initMetrics(metrics::MetricsRegistry* registry);
  Status syncNodeSLO(const std::string& name, const api::core::Node* node,
                     const sloconfig::SloControllerConfig& config);
  Status syncNodeMetric(const std::string& name, const api::core::Node* node,
                        const sloconfig::SloControllerConfig& config);
  // Creates, patches or deletes one object of `gvr`; `current` is its cached spec and
  // resourceVersion, or nullptr/empty when absent.
  Status syncSpec(const k8s::GroupVersionResource& gvr, std::string_view kind,
                  const std::string& name, bool node_exists, bool exists,
                  const api::Json& current_spec, const std::string& resource_version,
                  const api::Json& desired_spec, Writes& writes);

  k8s::Client& client_;
  NodeSloSources sources_;
  log::Logger logger_;
  Writes slo_writes_;
  Writes metric_writes_;
};

}  // namespace koord::manager::nodeslo
