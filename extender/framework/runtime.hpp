// Runtime: runs the configured plugins for the extender's verbs (architecture.md section 3):
// owns their order, the parallelism of filter and score, config validation, the permit wait and
// the timing metrics. Plugins never time or log their own calls.
//
// Metrics (when a MetricsRegistry is given):
//   koord_extender_plugin_duration_seconds{plugin,extension_point}: one observation per plugin
//     call for the per-pod points (pre_filter, reserve, unreserve, permit, pre_bind,
//     select_victims); for the per-node points (filter, score) one observation per verb call:
//     the plugin's time summed over every node of that call. normalize_score per call.
//   koord_extender_verb_duration_seconds{verb}: filter, prioritize, bind, preempt.
//
// Thread safety: filter(), score(), preempt() and bind() may be called concurrently from many
// threads; the plugins' contracts (plugin.hpp) say what each plugin must tolerate.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/binder.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "extender/framework/registry.hpp"
#include "extender/framework/waiting_pods.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"
#include "koord/common/thread_pool.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::extender::framework {

struct PluginConfig {
  std::string name;
  api::Json args;      // null: every default
  int64_t weight = 1;  // score only; must be > 0
};

struct RuntimeOptions {
  std::vector<PluginConfig> plugins;
  // Threads for filter and score, the caller included; 0: one per CPU this process may use (its
  // affinity mask, capped by its cgroup CPU limit: koord/common/cpu_budget.hpp). 1: no workers.
  int parallelism = 0;
  // filter and score run in parallel only when nodes * plugins reaches this many calls; below it
  // the caller does all the work (waking workers costs more than a few hundred cheap calls).
  // 0: the built-in default.
  int64_t min_parallel_work = 0;
  // The longest a bind waits for permits, whatever a plugin asks (Kubernetes' 15 minutes).
  std::chrono::milliseconds max_permit_wait = std::chrono::minutes(15);
  // A bind's deadline for the binder, from the bind's start (see binder.hpp): koord-extender's
  // bindTimeout, kept under kube-scheduler's httpTimeout.
  std::chrono::milliseconds bind_timeout = std::chrono::seconds(4);
  // Of filter and prioritize calls, the percentage (0..100) whose filter and score plugins are
  // timed per node for koord_extender_plugin_duration_seconds: the first call, then evenly spread
  // (kube-scheduler samples its plugin metrics the same way, 10% of cycles). A clock read per
  // plugin per node is the cost of timing; the verb histograms time every call.
  int plugin_metrics_sample_percent = 10;
};

class Runtime {
 public:
  // Makes every configured plugin through the registry. kInvalidArgument listing ALL errors,
  // one per line (unknown name, duplicate name, weight <= 0, a factory's errors).
  [[nodiscard]] static Result<std::unique_ptr<Runtime>> create(
      const Registry& registry, const Handle& handle, RuntimeOptions options,
      metrics::MetricsRegistry* metrics = nullptr);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  struct FilterResult {
    std::vector<std::string> feasible;           // node names that passed, in input order
    std::map<std::string, PluginStatus> failed;  // node -> the first rejecting status
    PluginStatus error;                          // kError when the call itself failed
  };
  // preFilter once, then every filter plugin per node (in config order, stopping at the first
  // rejection), nodes in parallel. A preFilter rejection fails every node with it; a kError from
  // any plugin sets `error`. `nodes` must not hold nullptr. `names`, when given, must hold
  // nodes[i]->name() at i (the names the caller looked the nodes up by): the result's names are
  // copied from it, so that no NodeInfo is read for its name (each is a cache miss on a busy core).
  [[nodiscard]] FilterResult filter(const PodInfo& pod,
                                    const std::vector<std::shared_ptr<const NodeInfo>>& nodes,
                                    const std::vector<std::string>* names = nullptr) const;

  // preFilter once, then per node sum(weight * normalized score) / sum(weights) over the score
  // plugins not skipped by preFilter, in [0, 100], one per input node (same order). A plugin that
  // scores every node 0 is left out of both sums (it has no preference for this pod). All zeros
  // when preFilter rejects or fails, or when no score plugin runs.
  [[nodiscard]] std::vector<int64_t> score(
      const PodInfo& pod, const std::vector<std::shared_ptr<const NodeInfo>>& nodes) const;

  // The bind flow: preFilter + filter on `node` (re-check), reserve (all, in order), permit
  // (waiting up to the smallest timeout a kWait asked for), preBind (collecting one BindPatch),
  // binder.patchPod (skipped when the patch is empty), binder.bindPod, both given the deadline
  // bind's start + bind_timeout. A failure from reserve on
  // unreserves every reserve plugin, in reverse order, once, and returns the failure (tagged with
  // its plugin; "binder" for the binder's errors, as kError, with the binder's message, which the
  // caller prefixes with the pod and the node). A re-check failure reserved
  // nothing and is returned as is.
  [[nodiscard]] PluginStatus bind(const PodInfo& pod, const NodeInfo& node, Binder& binder);

  // preempt: per candidate node known to the cluster view, every PreemptPlugin in order may trim
  // the victims (only to a subset of the given ones) or veto the node (a rejection or error).
  // Nodes vetoed, unknown, or trimmed from some victims to none are left out.
  [[nodiscard]] std::map<std::string, std::vector<std::shared_ptr<const PodInfo>>> preempt(
      const PodInfo& preemptor,
      const std::map<std::string, std::vector<std::shared_ptr<const PodInfo>>>& candidates) const;

  // RuntimeOptions::bind_timeout.
  [[nodiscard]] std::chrono::milliseconds bindTimeout() const;
  // Whether any score plugin is configured (when none is, every score is 0 and the caller may skip
  // the call).
  [[nodiscard]] bool scores() const;
  // The configured plugins' names, in config order.
  [[nodiscard]] std::vector<std::string> pluginNames() const;
  // The pods a Permit plugin holds now (also reachable from a bind's CycleState).
  [[nodiscard]] WaitingPods& waitingPods() { return waiting_pods_; }

  struct Impl;

 private:
  explicit Runtime(std::unique_ptr<Impl> impl);
  PluginStatus runBind(const PodInfo& pod, const NodeInfo& node, Binder& binder,
                       BindDeadline deadline);

  std::unique_ptr<Impl> impl_;
  WaitingPods waiting_pods_;
};

}  // namespace koord::extender::framework
