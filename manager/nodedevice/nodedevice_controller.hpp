// The Device -> Node controller as koord-manager runs it: informers, event handlers (events.hpp)
// and the controller around NodeDeviceReconciler (reconciler.hpp).
//
//   KOORD_ASSIGN_OR_RETURN(auto nodedevice, newNodeDeviceController({.client = client,
//                                                                  .informers = factory, ...}));
//   KOORD_RETURN_IF_ERROR(manager.add(nodedevice));  // runs while this replica leads
//   factory.start();                                   // after every informer is registered
//
// newNodeDeviceController registers (or reuses) two informers in deps.informers: Nodes (core/v1,
// default decoder) and Devices (scheduling.koordinator.sh/v1alpha1, with deviceDecoder of
// device_decoder.hpp when this is the first registration of Devices: a Device informer
// registered earlier keeps its own decoder), both cluster-wide; adds the handlers; and returns a
// Controller named "nodedevice" whose run() first queues every node of the cache. The reconcile
// waits for both informers to sync before it writes.
//
// Call it before deps.informers.start(). Nothing refers to the controller strongly but the caller.
#pragma once

#include <functional>
#include <memory>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"
#include "manager/nodedevice/reconciler.hpp"

namespace koord::manager::nodedevice {

struct NodeDeviceDeps {
  k8s::Client& client;  // must outlive the controller
  k8s::SharedInformerFactory& informers;
  metrics::MetricsRegistry* metrics = nullptr;  // must outlive the controller; or nullptr
  log::Logger logger{};
  int workers = 2;
  const Clock* clock = nullptr;  // the controller's delays; nullptr: real time
  std::function<std::unique_ptr<k8s::ItemRateLimiter>()> rate_limiter{};  // empty: default
};

// The errors of informerFor, NodeDeviceReconciler::create and Controller::create.
[[nodiscard]] Result<std::shared_ptr<controller::Controller>> newNodeDeviceController(
    NodeDeviceDeps deps);

}  // namespace koord::manager::nodedevice
