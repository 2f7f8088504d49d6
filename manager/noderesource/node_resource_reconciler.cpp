#include "manager/noderesource/node_resource_reconciler.hpp"

#include <chrono>

#include "koord/api/core/time.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/noderesource/cpu_normalization.hpp"
#include "manager/noderesource/node_patches.hpp"
#include "manager/noderesource/numa_batch.hpp"
#include "manager/noderesource/sync.hpp"

namespace koord::manager::noderesource {

namespace {

std::optional<std::string> nodeAnnotation(const api::core::Node& node, std::string_view key) {
  auto it = node.metadata.annotations.find(std::string(key));
  if (it == node.metadata.annotations.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) {
    if (!out.empty()) {
      out += '\n';
    }
    out += line;
  }
  return out;
}

k8s::PatchOptions statusSubresource() {
  k8s::PatchOptions options;
  options.subresource = "status";
  return options;
}

// The time the node's NodeMetric goes stale, when it is known.
std::optional<TimePoint> staleAt(const api::slo::NodeMetric* metric,
                                 const ColocationStrategy& strategy) {
  if (metric == nullptr || !metric->status.updateTime) {
    return std::nullopt;
  }
  auto updated = api::core::parseTime(*metric->status.updateTime);
  if (!updated.ok()) {
    return std::nullopt;
  }
  return *updated + std::chrono::minutes(strategy.degradeTimeMinutes);
}

}  // namespace

std::vector<std::string> podNodeNameIndex(const api::core::Pod& pod) {
  if (pod.spec.nodeName.empty()) {
    return {};
  }
  return {pod.spec.nodeName};
}

NodeResourceReconciler::NodeResourceReconciler(NodeResourceReconcilerOptions options)
    : options_(std::move(options)) {}

Result<std::unique_ptr<NodeResourceReconciler>> NodeResourceReconciler::create(
    NodeResourceReconcilerOptions options) {
  std::vector<std::string> missing;
  if (options.caches.nodes == nullptr) {
    missing.emplace_back("caches.nodes");
  }
  if (options.caches.pods == nullptr) {
    missing.emplace_back("caches.pods");
  }
  if (options.caches.nodeMetrics == nullptr) {
    missing.emplace_back("caches.nodeMetrics");
  }
  if (options.client == nullptr) {
    missing.emplace_back("client");
  }
  if (!options.config) {
    missing.emplace_back("config");
  }
  if (!missing.empty()) {
    std::string message = "failed to create the node resource reconciler: missing";
    for (const auto& field : missing) {
      message += " " + field;
    }
    return Status::invalidArgument(message);
  }
  std::unique_ptr<NodeResourceReconciler> out(new NodeResourceReconciler(std::move(options)));
  KOORD_RETURN_IF_ERROR(out->initMetrics());
  return out;
}

Status NodeResourceReconciler::initMetrics() {
  metrics::MetricsRegistry* registry = options_.metrics;
  if (registry == nullptr) {
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(
      auto writes,
      registry->counterFamily("koord_manager_noderesource_writes_total",
                              "Writes of the node resource controller, by object.", {"object"}));
  KOORD_ASSIGN_OR_RETURN(status_writes_, writes.withLabels({"node_status"}));
  KOORD_ASSIGN_OR_RETURN(annotation_writes_, writes.withLabels({"node_annotations"}));
  KOORD_ASSIGN_OR_RETURN(topology_writes_, writes.withLabels({"node_resource_topology"}));
  KOORD_ASSIGN_OR_RETURN(
      degraded_nodes_,
      registry->gauge("koord_manager_noderesource_degraded_nodes",
                      "Nodes whose batch and mid resources were last removed (degraded)."));
  KOORD_ASSIGN_OR_RETURN(
      invalid_strategy_,
      registry->counter("koord_manager_noderesource_invalid_strategy_total",
                        "Reconciles that left a node as it was because its colocation strategy "
                        "could not be used."));
  return Status::ok();
}

TimePoint NodeResourceReconciler::now() const {
  return options_.wall_clock ? options_.wall_clock() : std::chrono::system_clock::now();
}

Result<controller::ReconcileResult> NodeResourceReconciler::reconcile(
    const std::string& node_name) {
  const auto node = options_.caches.nodes->get(node_name);
  if (node == nullptr) {
    sync_.forget(node_name);
    degraded_nodes_.set(static_cast<double>(sync_.degradedCount()));
    return controller::ReconcileResult::done();
  }
  const auto config = options_.config();
  if (config == nullptr) {
    return Status::failedPrecondition("failed to reconcile node '" + node_name +
                                      "': no slo-controller-config");
  }
  KOORD_ASSIGN_OR_RETURN(auto pods,
                         options_.caches.pods->byIndex(std::string(kPodNodeNameIndex), node_name));
  PodRefs pod_refs;
  pod_refs.reserve(pods.size());
  for (const auto& pod : pods) {
    pod_refs.push_back(pod.get());
  }
  const auto metric = options_.caches.nodeMetrics->get(node_name);
  const auto nrt =
      options_.caches.topologies == nullptr ? nullptr : options_.caches.topologies->get(node_name);
  const TimePoint now = this->now();

  NodePlan plan = planNode({*node, pod_refs, metric.get(), nrt.get(), *config, now});
  if (!plan.strategyError.isOk()) {
    invalid_strategy_.inc();
    options_.logger.warn("node left as it is: its colocation strategy cannot be used",
                         {{"node", node_name}, {"error", plan.strategyError.message()}});
    return controller::ReconcileResult::done();
  }

  const NodeSyncRecord record = sync_.get(node_name);
  const resource::ResourceList desired = plan.resources();
  const SyncDecision decision = needSync(ownedResources(node->status.allocatable), desired,
                                         record.lastWrite, now, plan.strategy);
  const std::string degrade_kind = degradeKindOf(plan.degradeReason());
  const bool degrade_changed = record.lastWrite && record.degradeKind != degrade_kind;
  // A node already written as degraded for the same kind of reason and holding none of the
  // resources has nothing to rewrite: updateTimeThresholdSeconds does not apply to it (a cluster
  // with colocation off is not rewritten every five minutes).
  const bool settled_degrade = plan.degradeReason() && record.lastWrite && !degrade_changed &&
                               ownedResources(node->status.allocatable).empty() &&
                               ownedResources(node->status.capacity).empty();
  const bool write_resources = (decision.sync || degrade_changed) && !settled_degrade;

  std::map<std::string, std::optional<std::string>> annotations;
  if (write_resources) {
    annotations[std::string(kAnnotationResourceCalculation)] = joinLines(explainPlan(plan, now));
  }
  const std::string ratio_key(api::kAnnotationCPUNormalizationRatio);
  if (plan.cpuNormalization && cpuNormalizationNeedsSync(nodeAnnotation(*node, ratio_key),
                                                         plan.cpuNormalization->annotation)) {
    annotations[ratio_key] = plan.cpuNormalization->annotation;
  }
  const std::string amplification_key(api::kAnnotationNodeResourceAmplificationRatio);
  const auto current_amplification = nodeAnnotation(*node, amplification_key);
  if (current_amplification.value_or("") != plan.amplificationRatio.value_or("")) {
    annotations[amplification_key] = plan.amplificationRatio;
  }

  if (write_resources) {
    KOORD_RETURN_IF_ERROR(options_.client
                              ->patch(k8s::kNodes, "", node_name, k8s::PatchType::kMerge,
                                      resourceStatusPatch(desired), statusSubresource())
                              .status());
    status_writes_.inc();
    sync_.recordWrite(node_name, now, degrade_kind);
    degraded_nodes_.set(static_cast<double>(sync_.degradedCount()));
    if (plan.degradeReason()) {
      options_.logger.warn("batch and mid resources removed from the node",
                           {{"node", node_name}, {"reason", *plan.degradeReason()}});
    } else {
      options_.logger.debug("batch and mid resources written",
                            {{"node", node_name}, {"why", decision.reason}});
    }
  }
  if (!annotations.empty()) {
    KOORD_RETURN_IF_ERROR(options_.client
                              ->patch(k8s::kNodes, "", node_name, k8s::PatchType::kMerge,
                                      annotationPatch(annotations), k8s::PatchOptions{})
                              .status());
    annotation_writes_.inc();
  }
  if (plan.zones && nrt != nullptr) {
    KOORD_RETURN_IF_ERROR(writeTopology(node_name, *nrt, plan, now));
  }
  if (!plan.degradeReason()) {
    if (auto deadline = staleAt(metric.get(), plan.strategy); deadline && *deadline >= now) {
      return controller::ReconcileResult::requeueAfter(
          std::chrono::duration_cast<Clock::Duration>(*deadline - now + std::chrono::seconds(1)));
    }
  }
  return controller::ReconcileResult::done();
}

Status NodeResourceReconciler::writeTopology(const std::string& node_name,
                                             const api::topology::NodeResourceTopology& nrt,
                                             const NodePlan& plan, TimePoint now) {
  const NodeSyncRecord record = sync_.get(node_name);
  const bool expired = !record.lastTopologyWrite ||
                       now - *record.lastTopologyWrite >
                           std::chrono::seconds(plan.strategy.updateTimeThresholdSeconds);
  api::topology::NodeResourceTopology updated = nrt;
  const double ratio = plan.cpuNormalization ? plan.cpuNormalization->ratio : 1.0;
  if (!applyZoneBatch(updated, *plan.zones, ratio,
                      expired ? 0.0 : plan.strategy.resourceDiffThreshold)) {
    return Status::ok();
  }
  using api::topology::toJson;
  KOORD_RETURN_IF_ERROR(
      options_.client->update(k8s::kNodeResourceTopologies, "", toJson(updated)).status());
  topology_writes_.inc();
  sync_.recordTopologyWrite(node_name, now);
  return Status::ok();
}

}  // namespace koord::manager::noderesource
