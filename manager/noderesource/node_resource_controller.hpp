// newNodeResourceController: koord-manager's node resource controller (batch and mid resources on
// every Node, their explanation, CPU normalization and resource amplification ratios, NUMA-level
// batch on NodeResourceTopologies; node_resource_reconciler.hpp) as a Controller keyed by node
// name, fed by the shared informers.
//
//   auto controller = newNodeResourceController({.client = client, .informers = factory,
//                                                .config = slo_config_source, ...});
//   manager.add(*controller);  // reconciles while this replica leads
//
// It asks the factory for the Node, Pod (decodePodForAccounting), NodeMetric and
// NodeResourceTopology informers (the factory starts them with the others), adds kPodNodeNameIndex
// to the Pod cache (an index of that name already there is taken to be the same), and enqueues:
// - a node on its add, update and delete;
// - the node of a pod (spec.nodeName) on the pod's add and delete, and the old and the new node on
//   an update;
// - a node on the add, update and delete of its NodeMetric and of its NodeResourceTopology;
// - every node in the cache when the slo-controller-config changes (SloConfigSource::subscribe);
// - every node in the cache each time the controller starts (a new leader).
// Call before the informers start. No I/O.
#pragma once

#include <memory>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"
#include "manager/sloconfig/config_source.hpp"

namespace koord::manager::noderesource {

inline constexpr std::string_view kControllerName = "noderesource";

struct NodeResourceDeps {
  k8s::Client& client;                                 // must outlive the controller
  k8s::SharedInformerFactory& informers;               // must outlive the controller
  std::shared_ptr<sloconfig::SloConfigSource> config;  // non-null
  metrics::MetricsRegistry* metrics = nullptr;         // must outlive the controller; nullptr: none
  log::Logger logger{};
  const Clock* clock = nullptr;  // the queue's delays; nullptr: real time
  k8s::WallClock wall_clock{};   // "now" of the calculation; empty: system_clock
  int workers = 2;
};

// kInvalidArgument when config is null; the informer factory's and the Controller's
// errors otherwise.
[[nodiscard]] Result<std::shared_ptr<controller::Controller>> newNodeResourceController(
    NodeResourceDeps deps);

}  // namespace koord::manager::noderesource
