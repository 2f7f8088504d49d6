// CPUBurst: koordlet's cpuburst plugin. Lets latency-sensitive containers run above their CPU
// limit for short spells, by the policy of the NodeSLO's spec.cpuBurstStrategy (cpu_burst_config
// .hpp), which a pod's koordinator.sh/cpuBurst annotation overrides:
// - cpuBurstOnly / auto: cpu.cfs_burst_us = limit cores × cpuBurstPercent/100 × 100000 on each
//   container with a CPU limit, and the sum on its pod; capped at the quota, which the kernel
//   requires (burst <= quota). Only where the kernel has cfs_burst_us (NodeFacts::cfs_burst):
//   elsewhere that part is skipped, logged once and shown by koord_agent_cpu_burst_unsupported.
// - cfsQuotaBurstOnly / auto: each run, a container throttled since the last run (cpu.stat
//   nr_throttled grew) gets its cpu.cfs_quota_us ×1.2, one whose burst budget (BurstLimiter,
//   when cfsQuotaBurstPeriodSeconds >= 0) is spent ×0.8, others keep theirs; the node's share
//   pool overrides (overload: down; cooling or unknown: no up); the quota stays within
//   [limit × period, that × cfsQuotaBurstPercent/100]. The pod's quota is the kubelet's plus the
//   containers' increments (-1 when a container has no limit).
// Pods whose raw QoS class (the koordinator.sh/qosClass label) is LSE, LSR or BE, or that are not
// Pending or Running, are left alone (their state is forgotten); so are containers without a CPU
// limit and containers that have not started. When a pod's effective policy no longer includes a
// part it had written, that part is reset once: cfs_burst_us 0, the quotas back to their base.
//
// Writes go per pod through one ResourceExecutor::updateBatch, ordered so that cgroup v1 never
// sees a burst above its quota nor a child quota above its pod's: containers whose quota falls
// (burst, then quota), the pod (burst then quota when its quota falls, else quota then burst),
// then the other containers (quota, then burst). Unchanged values are skipped by the executor's
// cache. The state (quota written, last nr_throttled, limiter) is kept per container id in
// memory and only advanced when its pod's batch succeeded; containers that left are forgotten.
//
// The LS containers' quota is not written by RuntimeReconcile (runtimehooks/pod_plan.hpp writes
// the quota of BE containers and of LSE/LSR containers with a cpuset only), so they do not fight.
//
// Metrics (registry may be null): koord_agent_cpu_burst_scaled_total{direction="up|down"}
// (containers whose quota was raised or lowered), koord_agent_cpu_burst_throttled_containers,
// koord_agent_cpu_burst_share_pool_state (0 idle, 1 cooling, 2 overload, 3 unknown),
// koord_agent_cpu_burst_unsupported (1 once a pod asked for cfs_burst_us on a kernel without it).
//
// Thread-compatible (the scheduler calls one method at a time).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/qosmanager/strategies/cpu_burst/burst_limiter.hpp"
#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_config.hpp"
#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_formula.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {

inline constexpr std::string_view kScaledMetric = "koord_agent_cpu_burst_scaled_total";
inline constexpr std::string_view kThrottledMetric = "koord_agent_cpu_burst_throttled_containers";
inline constexpr std::string_view kSharePoolStateMetric = "koord_agent_cpu_burst_share_pool_state";
inline constexpr std::string_view kUnsupportedMetric = "koord_agent_cpu_burst_unsupported";

class CpuBurst final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "CPUBurst";
  static constexpr Clock::Duration kDefaultInterval = std::chrono::seconds(1);

  // `registry` may be null (no metrics); a metric that cannot be registered is logged and not
  // kept.
  CpuBurst(Clock::Duration interval, log::Logger logger, metrics::MetricsRegistry* registry);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return interval_; }
  [[nodiscard]] bool runsOnStateChange() const override { return false; }
  // Whenever the node has a NodeSLO: a pod's annotation may ask for burst under policy none, and
  // a run under none resets what earlier runs changed.
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* node_slo) const override {
    return node_slo != nullptr;
  }
  // kInvalidArgument naming the field for an out-of-range spec.cpuBurstStrategy, and
  // nothing is written. Otherwise the first pod whose batch failed ("<ns>/<name>: <error>"); a
  // pod whose cgroup vanished (kNotFound) is skipped, not a failure.
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // {"policy" (the node's), "config", "share_pool": {"usage_ratio", "state", "node_used_cores",
  // "excluded_used_cores", "node_cores", "excluded_request_cores", "threshold_percent"},
  // "containers": [{"pod", "container", "id", "policy", "base", "ceil", "quota", "burst",
  // "throttled", "action", "applied"}], "errors": [...]}; {"error"} when the config was refused.
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  struct ContainerState {
    std::string pod_uid;
    int64_t base_us = 0;
    int64_t quota_us = 0;  // last written, else the base
    int64_t burst_us = 0;  // last written, else 0
    bool quota_managed = false;
    bool burst_managed = false;
    std::optional<uint64_t> nr_throttled;  // at the previous read
    std::optional<BurstLimiter> limiter;
  };
  struct SharePool {
    std::optional<double> ratio;
    SharePoolState state = SharePoolState::kUnknown;
    double node_used = 0;
    double excluded_used = 0;
    double node_cores = 0;
    double excluded_requests = 0;
  };
  struct RunTally {
    int64_t throttled = 0;
    std::vector<api::Json> rows;
    std::vector<std::string> errors;  // "<ns>/<name>: <error>" of pods whose batch failed
    Status first_error;
    std::set<std::string> seen;  // container ids still alive and in scope
  };

  [[nodiscard]] SharePool sharePool(const framework::StrategyContext& context,
                                    int64_t threshold_percent) const;
  void runPod(const framework::StrategyContext& context, const resourceexecutor::PodCgroup& pod,
              const BurstConfig& node_config, SharePoolState state, RunTally& tally);
  [[nodiscard]] double usagePercent(const framework::StrategyContext& context,
                                    const std::string& id, int64_t limit_milli,
                                    const ContainerState& state) const;
  void warnBadAnnotation(const api::core::Pod& pod, const std::string& error);
  void reportUnsupported();

  Clock::Duration interval_;
  log::Logger logger_;
  metrics::Counter scaled_up_;
  metrics::Counter scaled_down_;
  metrics::Gauge throttled_gauge_;
  metrics::Gauge share_pool_gauge_;
  metrics::Gauge unsupported_gauge_;
  bool unsupported_reported_ = false;
  std::map<std::string, ContainerState, std::less<>> containers_;  // by container id
  // Pod uid -> the malformed annotation last warned about, so each is logged once.
  std::map<std::string, std::string, std::less<>> warned_annotations_;
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
