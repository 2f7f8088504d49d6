// NodeDeviceReconciler: makes one Node advertise what its Device says (gpu_resources.hpp), with
// the two merge patches of node_patch.hpp: first PATCH nodes/<name>/status (the GPU resources in
// capacity and allocatable), then PATCH nodes/<name> (the GPU model and driver version labels).
// No write when the node already advertises it; a node that is not in the cache is left alone.
// The first failed patch is returned (the controller retries the node after its backoff). Until
// sources.synced() is true nothing is written (a Device cache still filling would strip GPUs from
// nodes) and the node is asked again after kNotSyncedRetry.
//
// Metrics (registry given): koord_manager_nodedevice_writes_total{target}, target status or
// labels, counted when the API server accepted the patch.
//
// Thread safety: reconcile() may run for distinct nodes at once; the sources must be thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/scheduling/device.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"

namespace koord::manager::nodedevice {

inline constexpr std::string_view kName = "nodedevice";
inline constexpr std::chrono::seconds kNotSyncedRetry{1};

struct NodeDeviceSources {
  std::function<std::shared_ptr<const api::core::Node>(const std::string&)> node;
  std::function<std::shared_ptr<const api::scheduling::Device>(const std::string&)> device;
  std::function<bool()> synced;  // empty: always true
};

class NodeDeviceReconciler {
 public:
  // kInvalidArgument naming each empty lookup; kAlreadyExists when the metric family clashes.
  // `client` (and `metrics`, when given) must outlive the reconciler. No I/O.
  [[nodiscard]] static Result<std::shared_ptr<NodeDeviceReconciler>> create(
      k8s::Client& client, NodeDeviceSources sources, metrics::MetricsRegistry* metrics,
      log::Logger logger);

  [[nodiscard]] Result<controller::ReconcileResult> reconcile(const std::string& node_name);

 private:
  NodeDeviceReconciler(k8s::Client& client, NodeDeviceSources sources, log::Logger logger);
  Status initMetrics(metrics::MetricsRegistry* registry);

  k8s::Client& client_;
  NodeDeviceSources sources_;
  log::Logger logger_;
  metrics::Counter status_writes_;
  metrics::Counter label_writes_;
};

}  // namespace koord::manager::nodedevice
