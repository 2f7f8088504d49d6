#include "manager/nodedevice/reconciler.hpp"

#include <utility>

#include "koord/k8s/resource.hpp"
#include "manager/nodedevice/gpu_resources.hpp"
#include "manager/nodedevice/node_patch.hpp"

namespace koord::manager::nodedevice {

Result<std::shared_ptr<NodeDeviceReconciler>> NodeDeviceReconciler::create(
    k8s::Client& client, NodeDeviceSources sources, metrics::MetricsRegistry* metrics,
    log::Logger logger) {
  std::string missing;
  if (!sources.node) {
    missing = "node";
  }
  if (!sources.device) {
    missing += missing.empty() ? "device" : ", device";
  }
  if (!missing.empty()) {
    return Status::invalidArgument("failed to create the nodedevice reconciler: sources missing: " +
                                   missing);
  }
  std::shared_ptr<NodeDeviceReconciler> reconciler(
      new NodeDeviceReconciler(client, std::move(sources), std::move(logger)));
  KOORD_RETURN_IF_ERROR(reconciler->initMetrics(metrics));
  return reconciler;
}

NodeDeviceReconciler::NodeDeviceReconciler(k8s::Client& client, NodeDeviceSources sources,
                                           log::Logger logger)
    : client_(client), sources_(std::move(sources)), logger_(std::move(logger)) {}

Status NodeDeviceReconciler::initMetrics(metrics::MetricsRegistry* registry) {
  if (registry == nullptr) {
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(auto family,
                         registry->counterFamily("koord_manager_nodedevice_writes_total",
                                                 "Node patches the nodedevice controller made, "
                                                 "by target (status, labels).",
                                                 {"target"}));
  KOORD_ASSIGN_OR_RETURN(status_writes_, family.withLabels({"status"}));
  KOORD_ASSIGN_OR_RETURN(label_writes_, family.withLabels({"labels"}));
  return Status::ok();
}

Result<controller::ReconcileResult> NodeDeviceReconciler::reconcile(const std::string& node_name) {
  if (sources_.synced && !sources_.synced()) {
    return controller::ReconcileResult::requeueAfter(kNotSyncedRetry);
  }
  const std::shared_ptr<const api::core::Node> node = sources_.node(node_name);
  if (node == nullptr) {
    return controller::ReconcileResult::done();
  }
  const std::shared_ptr<const api::scheduling::Device> device = sources_.device(node_name);
  const NodeGpu desired = nodeGpuFor(device.get(), logger_);
  const NodePatches patches = nodePatchesFor(*node, desired);
  const std::string object = "Node '" + node_name + "'";
  if (patches.status.has_value()) {
    k8s::PatchOptions options;
    options.subresource = "status";
    Result<api::Json> reply =
        client_.patch(k8s::kNodes, "", node_name, k8s::PatchType::kMerge, *patches.status, options);
    if (!reply.ok()) {
      return reply.status().withPrefix("failed to patch the status of " + object);
    }
    status_writes_.inc();
    logger_.info(
        "updated the node's GPU resources",
        {{"node", node_name}, {"healthyGPUs", static_cast<int64_t>(desired.healthy_gpus)}});
  }
  if (patches.labels.has_value()) {
    Result<api::Json> reply =
        client_.patch(k8s::kNodes, "", node_name, k8s::PatchType::kMerge, *patches.labels, {});
    if (!reply.ok()) {
      return reply.status().withPrefix("failed to patch the labels of " + object);
    }
    label_writes_.inc();
    logger_.info("updated the node's GPU labels", {{"node", node_name}});
  }
  return controller::ReconcileResult::done();
}

}  // namespace koord::manager::nodedevice
