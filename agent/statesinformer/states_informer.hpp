// StatesInformer: what koord-agent knows about its own node from the API server: the Node, the
// pods bound to it, its NodeSLO and its NodeMetric (for spec.metricCollectPolicy).
//
// Every getter returns the latest cached state (nullptr / empty until the first list arrives, or
// when the object does not exist) as shared, immutable objects. Callbacks run on the informers'
// threads after the cache changed; they must be quick (a callback typically sets a flag or wakes
// a loop). Thread safety: every method is thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"

namespace koord::agent::statesinformer {

// What changed, for onChange callbacks.
enum class StateKind { kNode, kPods, kNodeSLO, kNodeMetric };

class StatesInformer {
 public:
  using Callback = std::function<void(StateKind)>;

  virtual ~StatesInformer() = default;

  [[nodiscard]] virtual std::shared_ptr<const api::core::Node> node() const = 0;
  // The pods whose spec.nodeName is this node, sorted by namespace/name.
  [[nodiscard]] virtual std::vector<std::shared_ptr<const api::core::Pod>> pods() const = 0;
  [[nodiscard]] virtual std::shared_ptr<const api::slo::NodeSLO> nodeSLO() const = 0;
  [[nodiscard]] virtual std::shared_ptr<const api::slo::NodeMetric> nodeMetric() const = 0;
  // True once every watched resource has been listed once.
  [[nodiscard]] virtual bool hasSynced() const = 0;
  // Registers `callback` for every later change (call before the informers start).
  virtual void onChange(Callback callback) = 0;
};

}  // namespace koord::agent::statesinformer
