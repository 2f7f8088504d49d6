// The extension points a plugin may implement, after the Kubernetes scheduling framework
// (architecture.md section 3 maps them onto the extender's verbs). A plugin is one class that
// derives from Plugin and from every extension-point interface it implements; the runtime finds
// them with dynamic_cast, orders the calls, runs filter and score in parallel, times every call
// and turns the statuses into the wire replies. Plugins never time or log their own calls.
//
// Contracts common to all:
// - filter() and score() are const and thread-safe: the runtime calls them concurrently for
//   different nodes of one pod (and for different pods).
// - preFilter(), reserve(), unreserve(), permit() and preBind() are called sequentially for one
//   pod, but calls for different pods may run concurrently (a plugin guards its own state).
// - unreserve() is idempotent and may be called without reserve().
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/cycle_state.hpp"
#include "extender/framework/node_info.hpp"
#include "extender/framework/plugin_status.hpp"
#include "extender/framework/pod_info.hpp"

namespace koord::extender::framework {

class Plugin {
 public:
  virtual ~Plugin() = default;
  // The plugin's kName: registry key, config key, metric label, CycleState key prefix.
  [[nodiscard]] virtual std::string_view name() const = 0;
};

// Once per pod before filter (and before score and bind, which recompute). kSkip: this plugin's
// filter and score are not called for the pod. A rejection fails every node with its reason.
class PreFilterPlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PluginStatus preFilter(CycleState& state, const PodInfo& pod) const = 0;
};

// Whether the pod fits the node. Success, kUnschedulable or kUnschedulableAndUnresolvable with a
// reason the user reads ("Insufficient kubernetes.io/batch-cpu"), or kError.
class FilterPlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PluginStatus filter(const CycleState& state, const PodInfo& pod,
                                            const NodeInfo& node) const = 0;
};

// A score in [0, 100] for a node that passed filter (higher is better). The runtime multiplies
// it by the plugin's configured weight, sums over plugins, and scales the total to the wire's
// 0..10.
class ScorePlugin : public virtual Plugin {
 public:
  // Called once per pod after preFilter: false when the plugin has no preference for this pod
  // (it would score every node 0), so that score() is not called for each node and the plugin is
  // left out of the weighted average. Default: true.
  [[nodiscard]] virtual bool scores(const CycleState& /*state*/, const PodInfo& /*pod*/) const {
    return true;
  }
  [[nodiscard]] virtual int64_t score(const CycleState& state, const PodInfo& pod,
                                      const NodeInfo& node) const = 0;
  // Called once with the scores of every node (in the order of `nodes`), before weighting; may
  // rescale them into [0, 100]. Default: unchanged.
  virtual void normalizeScores(const CycleState& /*state*/, const PodInfo& /*pod*/,
                               const std::vector<const NodeInfo*>& /*nodes*/,
                               std::vector<int64_t>& /*scores*/) const {}
};

// bind: takes what the pod will use on `node` (cpus, devices, reservation, quota) in the plugin's
// own accounting. A failure unreserves every plugin, in reverse order.
class ReservePlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PluginStatus reserve(CycleState& state, const PodInfo& pod,
                                             const NodeInfo& node) = 0;
  virtual void unreserve(CycleState& state, const PodInfo& pod, const std::string& node) = 0;
};

// bind, after reserve: Success, or kWait with a timeout (gangs: the bind is held until the
// plugin's allow() or the timeout), or a rejection.
class PermitPlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PluginStatus permit(CycleState& state, const PodInfo& pod,
                                            const std::string& node,
                                            std::chrono::milliseconds& timeout) = 0;
};

// What bind writes to the pod in one merge patch before the binding POST.
struct BindPatch {
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> labels;
  [[nodiscard]] bool empty() const { return annotations.empty() && labels.empty(); }
};

// bind, after permit: adds the plugin's result annotations (resource-status, device-allocated,
// reservation-allocated) to the patch.
class PreBindPlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PluginStatus preBind(CycleState& state, const PodInfo& pod,
                                             const NodeInfo& node, BindPatch& patch) = 0;
};

// preempt: given the victims kube-scheduler proposes on a node, keeps the node (possibly with
// fewer or other victims from the same list) or vetoes it (returns a rejection).
class PreemptPlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PluginStatus selectVictims(
      const CycleState& state, const PodInfo& preemptor, const NodeInfo& node,
      std::vector<std::shared_ptr<const PodInfo>>& victims) const = 0;
};

}  // namespace koord::extender::framework
