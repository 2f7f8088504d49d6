#include "manager/nodeslo/reconciler.hpp"

#include <string>
#include <utility>
#include <vector>

#include "koord/api/slo/register.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/nodeslo/spec_patch.hpp"

namespace koord::manager::nodeslo {

Result<std::shared_ptr<NodeSloReconciler>> NodeSloReconciler::create(
    k8s::Client& client, NodeSloSources sources, metrics::MetricsRegistry* metrics,
    log::Logger logger) {
  std::vector<std::string> missing;
  if (!sources.node) {
    missing.emplace_back("node");
  }
  if (!sources.node_slo) {
    missing.emplace_back("node_slo");
  }
  if (!sources.node_metric) {
    missing.emplace_back("node_metric");
  }
  if (!sources.config) {
    missing.emplace_back("config");
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& name : missing) {
      names += (names.empty() ? "" : ", ") + name;
    }
    return Status::invalidArgument("failed to create the nodeslo reconciler: sources missing: " +
                                   names);
  }
  std::shared_ptr<NodeSloReconciler> reconciler(
      new NodeSloReconciler(client, std::move(sources), std::move(logger)));
  KOORD_RETURN_IF_ERROR(reconciler->initMetrics(metrics));
  return reconciler;
}

NodeSloReconciler::NodeSloReconciler(k8s::Client& client, NodeSloSources sources,
                                     log::Logger logger)
    : client_(client), sources_(std::move(sources)), logger_(std::move(logger)) {}

Status NodeSloReconciler::initMetrics(metrics::MetricsRegistry* registry) {
  if (registry == nullptr) {
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(
      auto family,
      registry->counterFamily("koord_manager_nodeslo_writes_total",
                              "NodeSLO and NodeMetric writes the nodeslo controller made, by "
                              "kind and operation (create, patch, delete).",
                              {"kind", "operation"}));
  KOORD_ASSIGN_OR_RETURN(slo_writes_.create, family.withLabels({"NodeSLO", "create"}));
  KOORD_ASSIGN_OR_RETURN(slo_writes_.patch, family.withLabels({"NodeSLO", "patch"}));
  KOORD_ASSIGN_OR_RETURN(slo_writes_.remove, family.withLabels({"NodeSLO", "delete"}));
  KOORD_ASSIGN_OR_RETURN(metric_writes_.create, family.withLabels({"NodeMetric", "create"}));
  KOORD_ASSIGN_OR_RETURN(metric_writes_.patch, family.withLabels({"NodeMetric", "patch"}));
  KOORD_ASSIGN_OR_RETURN(metric_writes_.remove, family.withLabels({"NodeMetric", "delete"}));
  return Status::ok();
}

Result<controller::ReconcileResult> NodeSloReconciler::reconcile(const std::string& node_name) {
  if (sources_.synced && !sources_.synced()) {
    return controller::ReconcileResult::requeueAfter(kNotSyncedRetry);
  }
  const std::shared_ptr<const api::core::Node> node = sources_.node(node_name);
  const std::shared_ptr<const sloconfig::SloControllerConfig> config = sources_.config();
  const sloconfig::SloControllerConfig defaults;
  const sloconfig::SloControllerConfig& in_force = config != nullptr ? *config : defaults;
  const Status slo = syncNodeSLO(node_name, node.get(), in_force);
  const Status metric = syncNodeMetric(node_name, node.get(), in_force);
  KOORD_RETURN_IF_ERROR(slo);
  KOORD_RETURN_IF_ERROR(metric);
  return controller::ReconcileResult::done();
}

Status NodeSloReconciler::syncNodeSLO(const std::string& name, const api::core::Node* node,
                                      const sloconfig::SloControllerConfig& config) {
  const std::shared_ptr<const api::slo::NodeSLO> current = sources_.node_slo(name);
  api::Json desired;
  if (node != nullptr) {
    desired = withoutNulls(api::slo::toJson(sloconfig::nodeSLOSpecFor(config, *node)));
  }
  return syncSpec(k8s::kNodeSLOs, api::slo::kNodeSLOKind, name, node != nullptr, current != nullptr,
                  current != nullptr ? withoutNulls(api::slo::toJson(current->spec)) : api::Json(),
                  current != nullptr ? current->metadata.resourceVersion : std::string(), desired,
                  slo_writes_);
}

Status NodeSloReconciler::syncNodeMetric(const std::string& name, const api::core::Node* node,
                                         const sloconfig::SloControllerConfig& config) {
  const std::shared_ptr<const api::slo::NodeMetric> current = sources_.node_metric(name);
  api::Json desired;
  if (node != nullptr) {
    desired = withoutNulls(api::slo::toJson(sloconfig::nodeMetricSpecFor(config, *node)));
  }
  return syncSpec(k8s::kNodeMetrics, api::slo::kNodeMetricKind, name, node != nullptr,
                  current != nullptr,
                  current != nullptr ? withoutNulls(api::slo::toJson(current->spec)) : api::Json(),
                  current != nullptr ? current->metadata.resourceVersion : std::string(), desired,
                  metric_writes_);
}

Status NodeSloReconciler::syncSpec(const k8s::GroupVersionResource& gvr, std::string_view kind,
                                   const std::string& name, bool node_exists, bool exists,
                                   const api::Json& current_spec,
                                   const std::string& resource_version,
                                   const api::Json& desired_spec, Writes& writes) {
  const std::string object = std::string(kind) + " '" + name + "'";
  if (!node_exists) {
    if (!exists) {
      return Status::ok();
    }
    const Status removed = client_.remove(gvr, "", name, {});
    if (k8s::isNotFound(removed)) {
      return Status::ok();
    }
    KOORD_RETURN_IF_ERROR(removed.withPrefix("failed to delete " + object));
    writes.remove.inc();
    logger_.info("deleted the object of a node that no longer exists",
                 {{"kind", kind}, {"node", name}});
    return Status::ok();
  }
  if (!exists) {
    api::Json created = {{"apiVersion", api::slo::kGroupVersion},
                         {"kind", kind},
                         {"metadata", {{"name", name}}},
                         {"spec", desired_spec}};
    Result<api::Json> reply = client_.create(gvr, "", created);
    if (!reply.ok()) {
      return reply.status().withPrefix("failed to create " + object);
    }
    writes.create.inc();
    logger_.info("created", {{"kind", kind}, {"node", name}});
    return Status::ok();
  }
  const std::optional<std::string> body =
      specPatchBody(current_spec, desired_spec, resource_version);
  if (!body.has_value()) {
    return Status::ok();
  }
  Result<api::Json> reply = client_.patch(gvr, "", name, k8s::PatchType::kMerge, *body, {});
  if (!reply.ok()) {
    return reply.status().withPrefix("failed to patch the spec of " + object);
  }
  writes.patch.inc();
  logger_.info("updated the spec", {{"kind", kind}, {"node", name}});
  return Status::ok();
}

}  // namespace koord::manager::nodeslo
