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

#include <optional>
#include <string_view>

#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/qosmanager/framework/evictor.hpp"
#include "agent/qosmanager/framework/metric_windows.hpp"
#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "agent/resourceexecutor/resource_executor.hpp"
#include "agent/resourceexecutor/system_config_executor.hpp"
#include "agent/statesinformer/states_informer.hpp"
#include "agent/system/cgroup_types.hpp"
#include "agent/system/cpu_pools.hpp"
#include "agent/system/cpu_topology.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/status.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::qosmanager::framework {

// The node's CPUs and pools as the agent last computed them (discovery, then each
// NodeResourceTopology pass's CPU allocation; system/cpu_pools.hpp); an empty set means not known
// yet.
using NodeCpus = system::CpuPools;

// What discovery found about the node once, at start.
struct NodeFacts {
  const system::CpuTopology& topology;  // online CPUs with core, socket and NUMA node
  // How the kubelet names cgroups: resourceexecutor::qosDir(naming, kBestEffort) is the BE QoS
  // folder, kubepodsDir(naming) the root of every pod.
  resourceexecutor::KubeletCgroupNaming naming;
  system::CgroupVersion cgroup_version = system::CgroupVersion::kV1;
  bool cfs_burst = false;  // whether the kernel has cpu.cfs_burst_us / cpu.max.burst
  // Reads cgroup statistics (cpu.stat throttling, usage); reading is allowed, writing is not.
  const metricsadvisor::CgroupReader& reader;
};

// Decisions one strategy makes that another must follow. Owned by the daemon and kept across
// passes; strategies run one at a time, so no lock is needed.
struct SharedDecisions {
  // CPU suppress's BE cpuset (policy cpuset): RuntimeReconcile gives BE containers this instead
  // of the BE pool. nullopt when suppress is off or under cfsQuota: the BE pool.
  std::optional<cpuset::CpuSet> be_cpuset;
  // CPU suppress's BE QoS quota (policy cfsQuota), in microseconds per 100 ms period; nullopt
  // when suppress is off or under cpuset. BE CPU eviction reads the BE real limit from these two.
  std::optional<int64_t> be_cfs_quota_us;
};

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
  const NodeFacts& node;
  SharedDecisions& shared;
  // Node-wide kernel settings (vm/min_free_kbytes...); null where the daemon has none (tests).
  resourceexecutor::SystemConfigExecutor* system_config = nullptr;
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
  // What the last run saw and decided, for /debug/qos ("be_cpus": 2, "inputs": {...}): enough for
  // a user to tell why. null before the first run. Called right after run(), on the same thread.
  [[nodiscard]] virtual api::Json debugState() const = 0;
};

}  // namespace koord::agent::qosmanager::framework
