#include "manager/noderesource/node_resource_controller.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/transforms.hpp"
#include "manager/noderesource/node_resource_reconciler.hpp"

namespace koord::manager::noderesource {

namespace {

// Handlers that enqueue the object's name (NodeMetric and NodeResourceTopology are named after
// their node).
template <class T>
k8s::ResourceEventHandlers<T> byName(const std::shared_ptr<controller::Controller>& controller) {
  k8s::ResourceEventHandlers<T> h;
  auto enqueue = [controller](const std::shared_ptr<const T>& obj) {
    controller->enqueue(obj->metadata.name);
  };
  h.onAdd = enqueue;
  h.onUpdate = [enqueue](const std::shared_ptr<const T>&, const std::shared_ptr<const T>& obj) {
    enqueue(obj);
  };
  h.onDelete = enqueue;
  return h;
}

k8s::ResourceEventHandlers<api::core::Pod> byPodNode(
    const std::shared_ptr<controller::Controller>& controller) {
  k8s::ResourceEventHandlers<api::core::Pod> h;
  auto enqueue = [controller](const std::shared_ptr<const api::core::Pod>& pod) {
    if (!pod->spec.nodeName.empty()) {
      controller->enqueue(pod->spec.nodeName);
    }
  };
  h.onAdd = enqueue;
  h.onUpdate = [enqueue](const std::shared_ptr<const api::core::Pod>& old_pod,
                         const std::shared_ptr<const api::core::Pod>& pod) {
    if (old_pod->spec.nodeName != pod->spec.nodeName) {
      enqueue(old_pod);
    }
    enqueue(pod);
  };
  h.onDelete = enqueue;
  return h;
}

}  // namespace

Result<std::shared_ptr<controller::Controller>> newNodeResourceController(NodeResourceDeps deps) {
  if (deps.config == nullptr) {
    return Status::invalidArgument(
        "failed to create the node resource controller: no slo-controller-config source");
  }
  KOORD_ASSIGN_OR_RETURN(auto nodes, deps.informers.informerFor<api::core::Node>(k8s::kNodes));
  KOORD_ASSIGN_OR_RETURN(auto pods, deps.informers.informerFor<api::core::Pod>(
                                        k8s::kPods, {}, &k8s::decodePodForAccounting));
  KOORD_ASSIGN_OR_RETURN(auto metrics,
                         deps.informers.informerFor<api::slo::NodeMetric>(k8s::kNodeMetrics));
  KOORD_ASSIGN_OR_RETURN(auto topologies,
                         deps.informers.informerFor<api::topology::NodeResourceTopology>(
                             k8s::kNodeResourceTopologies));
  Status indexed = pods->store().addIndexer(std::string(kPodNodeNameIndex), &podNodeNameIndex);
  if (!indexed.isOk() && indexed.code() != StatusCode::kAlreadyExists) {
    return indexed;
  }

  NodeResourceReconcilerOptions options;
  options.caches = {&nodes->store(), &pods->store(), &metrics->store(), &topologies->store()};
  options.client = &deps.client;
  options.config = [source = deps.config] { return source->current(); };
  options.wall_clock = deps.wall_clock;
  options.metrics = deps.metrics;
  options.logger = deps.logger;
  KOORD_ASSIGN_OR_RETURN(std::shared_ptr<NodeResourceReconciler> reconciler,
                         NodeResourceReconciler::create(std::move(options)));

  controller::ControllerOptions controller_options;
  controller_options.name = std::string(kControllerName);
  controller_options.workers = deps.workers;
  // Nothing is computed before every input has been listed once: a node reconciled before its
  // NodeMetric or its pods arrived would lose batch, or get it from a partial pod list.
  // The informers by plain pointer: the factory owns them and outlives the controller, and their
  // handlers hold the controller, so owning them here would make a cycle.
  const std::vector<const k8s::InformerBase*> informers = {nodes.get(), pods.get(), metrics.get(),
                                                           topologies.get()};
  controller_options.reconcile =
      [reconciler, informers, config = deps.config](
          const std::stop_token&, const std::string& key) -> Result<controller::ReconcileResult> {
    const bool synced = std::all_of(informers.begin(), informers.end(),
                                    [](const k8s::InformerBase* i) { return i->hasSynced(); });
    if (!synced || !config->synced()) {
      return controller::ReconcileResult::requeueAfter(std::chrono::seconds(1));
    }
    return reconciler->reconcile(key);
  };
  const k8s::Store<api::core::Node>* node_store = &nodes->store();
  controller_options.list_keys = [node_store] { return node_store->listKeys(); };
  controller_options.clock = deps.clock;
  controller_options.metrics = deps.metrics;
  controller_options.logger = deps.logger;
  KOORD_ASSIGN_OR_RETURN(auto controller,
                         controller::Controller::create(std::move(controller_options)));

  nodes->addHandlers(controller->handlers<api::core::Node>());
  pods->addHandlers(byPodNode(controller));
  metrics->addHandlers(byName<api::slo::NodeMetric>(controller));
  topologies->addHandlers(byName<api::topology::NodeResourceTopology>(controller));
  // A weak reference: the controller holds the source (through the reconciler's config getter),
  // so a strong one would keep both alive forever.
  deps.config->subscribe(
      controller::weakEnqueueAll(controller, [node_store] { return node_store->listKeys(); }));
  return controller;
}

}  // namespace koord::manager::noderesource
