// The NodeSLO / NodeMetric controller as koord-manager runs it: informers, event handlers, the
// configuration subscription and the controller around NodeSloReconciler (reconciler.hpp).
//
//   NodeSloDeps deps{.client = client, .informers = factory, .config = source, ...};
//   KOORD_ASSIGN_OR_RETURN(auto nodeslo, newNodeSloController(std::move(deps)));
//   KOORD_RETURN_IF_ERROR(manager.add(nodeslo));  // runs while this replica leads
//   factory.start();                                // after every informer is registered
//
// newNodeSloController registers (or reuses) three informers in deps.informers: Nodes
// (core/v1), NodeSLOs and NodeMetrics (slo.koordinator.sh/v1alpha1), each with the default
// decoder and the whole cluster as scope; adds the event handlers of node_events.hpp, each
// enqueueing the node's name; subscribes to deps.config so that a configuration change enqueues
// every node; and returns a Controller named "nodeslo" whose run() first queues every name known
// to any of the three caches (so NodeSLOs left by nodes deleted while no replica led are removed).
// The reconcile waits for the three informers to sync before it writes anything.
//
// Call it before deps.informers.start() (an informer registered later needs another start()).
// The returned controller, the handlers and the subscription share the reconciler; nothing
// refers to the controller strongly but the caller.
#pragma once

#include <memory>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"
#include "manager/nodeslo/reconciler.hpp"
#include "manager/sloconfig/config_source.hpp"

namespace koord::manager::nodeslo {

struct NodeSloDeps {
  k8s::Client& client;  // must outlive the controller
  k8s::SharedInformerFactory& informers;
  std::shared_ptr<sloconfig::SloConfigSource> config;  // non-null
  metrics::MetricsRegistry* metrics = nullptr;         // must outlive the controller; or nullptr
  log::Logger logger{};
  int workers = 2;
  const Clock* clock = nullptr;  // the controller's delays; nullptr: real time
  // The per-key backoff (ControllerOptions::rate_limiter); empty: client-go's default.
  std::function<std::unique_ptr<k8s::ItemRateLimiter>()> rate_limiter{};
};

// kInvalidArgument when deps.config is null; the errors of informerFor (an informer of these
// resources registered with another type), NodeSloReconciler::create and Controller::create.
[[nodiscard]] Result<std::shared_ptr<controller::Controller>> newNodeSloController(
    NodeSloDeps deps);

}  // namespace koord::manager::nodeslo
