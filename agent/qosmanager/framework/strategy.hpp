// Strategy: one QoS strategy of koord-agent (a koordlet qosmanager plugin), run by the Scheduler
// (scheduler.hpp) on its own interval. A strategy reads the node's state and metric windows from
// its StrategyContext and acts only through the context's ResourceExecutor (cgroup updates) and
// Evictor (evictions): it never writes a file or calls the API server itself.
//
// Each strategy declares `static constexpr std::string_view kName` ("RuntimeReconcile"), returned
// by name(): the registry key, the name in --disable flags' sets, logs and the `strategy` metric
// label. Strategies are listed in builtinStrategies() (strategies/builtin.hpp).
//
// Thread-compatible: the scheduler calls one method at a time, from its caller's thread.
#pragma once

#include <string_view>

#include "agent/qosmanager/framework/evictor.hpp"
#include "agent/qosmanager/framework/metric_windows.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "agent/resourceexecutor/resource_executor.hpp"
#include "agent/statesinformer/states_informer.hpp"
#include "agent/system/cpu_pools.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/status.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::qosmanager::framework {

// The node's CPUs and pools as the agent last computed them (discovery, then each
// NodeResourceTopology pass's CPU allocation; system/cpu_pools.hpp); an empty set means not known
// yet.
using NodeCpus = system::CpuPools;

// What a strategy may use during one run. Everything is borrowed for the run only; the executor
// and evictor are the same objects on every run of one daemon.
struct StrategyContext {
  const statesinformer::StatesInformer& states;  // the Node, its pods, NodeSLO, NodeMetric
  const MetricWindows& metrics;                  // usage series at this pass's wall-clock time
  resourceexecutor::ResourceExecutor& executor;  // the only way to change a cgroup
  Evictor& evictor;                              // the only way to evict a pod
  // The node's pods with their cgroup folders, resolved once for this pass of the daemon's loop
  // from states' pods: read a pod's or container's cgroup here, never build its path.
  const resourceexecutor::PodCgroups& pods;
  const NodeCpus& cpus;
  const Clock& clock;  // the scheduler's clock (cooling times, backoffs)
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  // kName. Must not change.
  [[nodiscard]] virtual std::string_view name() const = 0;
  // How long after the start of one run the next is due; positive, and must not change.
  [[nodiscard]] virtual Clock::Duration interval() const = 0;
  // Whether a change of the node's pods or Node also makes it due at once (as the runtime
  // reconciler is); must not change.
  [[nodiscard]] virtual bool runsOnStateChange() const = 0;
  // Whether it should run now, from the node's NodeSLO (null when the node has none). Called before
  // each due run; a disabled strategy is not run and is asked again one interval later.
  [[nodiscard]] virtual bool enabled(const api::slo::NodeSLO* node_slo) const = 0;
  // One run. An error is counted and logged by the scheduler; the strategy still runs at its next
  // interval. A run should not throw; one that does is treated as a failed run.
  [[nodiscard]] virtual Status run(const StrategyContext& context) = 0;
};

}  // namespace koord::agent::qosmanager::framework
