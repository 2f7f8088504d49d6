// BECPUEvict: BE pod eviction when BE gets too little of the CPU it requested (koordlet's cpuevict
// plugin, features BECPUEvict and CPUAllocatableEvict). Every `interval` (1 s), by cpuEvictPolicy:
// - evictByRealLimit: BE's real limit (cpu_evict_formula.hpp beRealLimit: CPU suppress's cpuset
//   or quota, else the BE pool) against the sum of the Running BE pods' kubernetes.io/batch-cpu
//   requests is the satisfaction. When satisfaction <= lower% and BE uses the real limit (the sum
//   of the BE pods' kPodCpu, both averaged over the window and now, >= the usage threshold of the
//   real limit), it asks the evictor to release request * (upper% - satisfaction) of batch-cpu
//   requests, each Running BE pod weighed by its batch-cpu request; reason
//   "EvictPodByBECPUSatisfaction". A window with too few samples (count * collect interval <
//   window / 3) or no fresh sample evicts nothing.
// - evictByAllocatable: the batch-cpu requests of the BE pods that have not ended against the
//   Node's kubernetes.io/batch-cpu allocatable; above cpuAllocatableEvictThresholdPercent it asks
//   to release the requests above lower%; reason "EvictPodByBECPUAllocatable".
// After a run that evicted a pod no eviction is considered for `cool_time` (20 s).
//
// Request and real limit are the current ones (this agent keeps no history of them), so koordlet's
// "min of the release by the window average and by the current value" is the one release; the
// window and the current value both gate on BE usage. The evictor orders candidates by priority,
// then by their batch-cpu request (koordlet orders by usage / request within a priority; the
// evictor has one weight per pod, and the release is counted in requests).
//
// Metrics (registry may be null): gauges koord_agent_be_cpu_satisfaction,
// koord_agent_be_cpu_real_limit_cores, koord_agent_be_cpu_usage_cores (window average),
// koord_agent_be_cpu_allocatable_percent and koord_agent_be_cpu_evict_release_cores (what the
// last run asked to release; 0 when nothing). Evictions are counted by the evictor.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_config.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies::cpu_evict {

inline constexpr std::string_view kReasonBECPUSatisfaction = "EvictPodByBECPUSatisfaction";
inline constexpr std::string_view kReasonBECPUAllocatable = "EvictPodByBECPUAllocatable";

struct CpuEvictOptions {
  Clock::Duration interval = std::chrono::seconds(1);    // --cpu-evict-interval-seconds
  Clock::Duration cool_time = std::chrono::seconds(20);  // --cpu-evict-cool-time-seconds
  // --collect-res-used-interval: the shortest window, the unit of the window rule; a pod's newest
  // sample counts as current when at most two intervals old.
  std::chrono::seconds collect_interval = std::chrono::seconds(1);
};

class CpuEvict final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "BECPUEvict";

  // A metric that cannot be registered is logged and left out.
  CpuEvict(CpuEvictOptions options, log::Logger logger, metrics::MetricsRegistry* registry);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return options_.interval; }
  [[nodiscard]] bool runsOnStateChange() const override { return false; }
  // cpuEvictEnabled(): enable: true and the policy's fields set.
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* node_slo) const override;
  // kInvalidArgument for a bad configuration (nothing evicted); OK otherwise.
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // {"status", "decision", "config", "cooling_left_ms", "policy",
  //  evictByRealLimit: "real_limit_milli", "real_limit_source", "request_milli", "satisfaction",
  //  "usage_window_milli", "usage_window_samples", "usage_current_milli", "window_valid",
  //  "release_milli", "candidates", "outcomes";
  //  evictByAllocatable: "requested_milli", "allocatable_milli", "requested_percent",
  //  "release_milli", "candidates", "outcomes";
  //  "last_eviction": {reason, seconds_ago, released_milli, evicted, outcomes}}.
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  struct LastEviction {
    Clock::TimePoint at{};
    std::string reason;
    double released_cores = 0;
    size_t evicted = 0;
    api::Json outcomes;
  };

  // One policy: fills `state` with its inputs and decision (state["decision"]), evicts when over
  // its threshold; returns the number of pods evicted.
  size_t runRealLimit(const framework::StrategyContext& context, const CpuEvictConfig& config,
                      api::Json& state);
  size_t runAllocatable(const framework::StrategyContext& context, const api::core::Node& node,
                        const AllocatableThresholds& thresholds, api::Json& state);
  size_t evict(const framework::StrategyContext& context, framework::EvictionRequest request,
               api::Json& state);

  CpuEvictOptions options_;
  log::Logger logger_;
  metrics::Gauge satisfaction_gauge_;
  metrics::Gauge real_limit_gauge_;
  metrics::Gauge usage_gauge_;
  metrics::Gauge allocatable_percent_gauge_;
  metrics::Gauge release_gauge_;
  std::optional<Clock::TimePoint> cooling_since_;
  std::optional<LastEviction> last_eviction_;
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::cpu_evict
