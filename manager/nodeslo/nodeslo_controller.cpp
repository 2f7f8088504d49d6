#include "manager/nodeslo/nodeslo_controller.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/nodeslo/node_events.hpp"

namespace koord::manager::nodeslo {
namespace {

template <class T>
std::function<std::shared_ptr<const T>(const std::string&)> lookupIn(
    std::shared_ptr<k8s::Informer<T>> informer) {
  return [informer = std::move(informer)](const std::string& name) {
    return informer->store().get(name);
  };
}

}  // namespace

Result<std::shared_ptr<controller::Controller>> newNodeSloController(NodeSloDeps deps) {
  if (deps.config == nullptr) {
    return Status::invalidArgument("failed to create the nodeslo controller: no config source");
  }
  KOORD_ASSIGN_OR_RETURN(auto nodes, deps.informers.informerFor<api::core::Node>(k8s::kNodes));
  KOORD_ASSIGN_OR_RETURN(auto slos, deps.informers.informerFor<api::slo::NodeSLO>(k8s::kNodeSLOs));
  KOORD_ASSIGN_OR_RETURN(auto metrics,
                         deps.informers.informerFor<api::slo::NodeMetric>(k8s::kNodeMetrics));

  NodeSloSources sources;
  sources.node = lookupIn(nodes);
  sources.node_slo = lookupIn(slos);
  sources.node_metric = lookupIn(metrics);
  sources.config = [config = deps.config] { return config->current(); };
  sources.synced = [nodes, slos, metrics, config = deps.config] {
    return config->synced() && nodes->hasSynced() && slos->hasSynced() && metrics->hasSynced();
  };
  const log::Logger logger = deps.logger.child(std::string(kName));
  KOORD_ASSIGN_OR_RETURN(
      std::shared_ptr<NodeSloReconciler> reconciler,
      NodeSloReconciler::create(deps.client, std::move(sources), deps.metrics, logger));

  controller::ControllerOptions options;
  options.name = std::string(kName);
  options.workers = deps.workers;
  options.reconcile = [reconciler](std::stop_token, const std::string& key) {
    return reconciler->reconcile(key);
  };
  options.list_keys = [nodes, slos, metrics] {
    std::set<std::string> names;
    for (const auto& node : nodes->store().list()) {
      names.insert(node->metadata.name);
    }
    for (const auto& slo : slos->store().list()) {
      names.insert(slo->metadata.name);
    }
    for (const auto& metric : metrics->store().list()) {
      names.insert(metric->metadata.name);
    }
    return std::vector<std::string>(names.begin(), names.end());
  };
  options.rate_limiter = std::move(deps.rate_limiter);
  options.clock = deps.clock;
  options.metrics = deps.metrics;
  options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::shared_ptr<controller::Controller> ctrl,
                         controller::Controller::create(std::move(options)));

  // The handlers live as long as the informers; they hold the controller weakly.
  EnqueueNode enqueue = controller::weakEnqueuer(ctrl);
  nodes->addHandlers(nodeHandlers(enqueue));
  slos->addHandlers(nodeSloHandlers(enqueue));
  metrics->addHandlers(nodeMetricHandlers(enqueue));
  deps.config->subscribe(
      controller::weakEnqueueAll(ctrl, [nodes] { return nodes->store().listKeys(); }));
  return ctrl;
}

}  // namespace koord::manager::nodeslo
