// BEMemoryEvict: BE pod eviction under node memory pressure (koordlet's memoryevict plugin,
// features BEMemoryEvict and MemoryAllocatableEvict). Every `interval` (1 s) it
// - (usage variant) reads the node's memory usage (the newest kNodeMemory sample) against the
//   Node's status.capacity memory; once usage% >= memoryEvictThresholdPercent it asks the evictor
//   to release capacity * (usage% - lower%) / 100 bytes from the Running BE pods, each weighed by
//   its working set (the newest kPodMemory sample; 0 without a fresh one), reason
//   "EvictPodByNodeMemoryUsage";
// - (allocatable variant) sums the kubernetes.io/batch-memory requests of the node's BE pods that
//   have not ended against the Node's kubernetes.io/batch-memory allocatable; once above
//   memoryAllocatableEvictThresholdPercent it asks to release the requests above lower%, each pod
//   weighed by its batch-memory request, reason "EvictPodByBEMemoryAllocatable".
// The evictor orders the candidates (priority, then weight) and stops once the release is met.
// After a run that evicted a pod no eviction is considered for `cool_time` (4 s).
//
// A run with no Node, no memory capacity or no fresh node sample evicts nothing and is not an
// error; a bad configuration is kInvalidArgument (nothing is evicted). Settings and their
// defaults: memory_evict_config.hpp.
//
// Metrics (registry may be null): gauges koord_agent_be_memory_usage_percent (the node's memory
// usage as last read), koord_agent_be_memory_allocatable_percent (BE batch-memory requests in
// percent of the batch allocatable) and koord_agent_be_memory_evict_release_bytes{variant} (what
// the last run asked to release; 0 when nothing). Evictions are counted by the evictor
// (koord_agent_evictions_total{reason,result}).
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/qosmanager/strategies/memory_evict/memory_evict_config.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {

inline constexpr std::string_view kReasonNodeMemoryUsage = "EvictPodByNodeMemoryUsage";
inline constexpr std::string_view kReasonBEMemoryAllocatable = "EvictPodByBEMemoryAllocatable";

struct MemoryEvictOptions {
  Clock::Duration interval = std::chrono::seconds(1);   // --memory-evict-interval-seconds
  Clock::Duration cool_time = std::chrono::seconds(4);  // --memory-evict-cool-time-seconds
  // How old the newest node or pod sample may be, against the pass's metric time, and still be
  // read (koordlet reads the last sample within two collect intervals of 1 s).
  std::chrono::milliseconds max_sample_age = std::chrono::seconds(2);
};

class MemoryEvict final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "BEMemoryEvict";

  // A metric that cannot be registered is logged and left out.
  MemoryEvict(MemoryEvictOptions options, log::Logger logger, metrics::MetricsRegistry* registry);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return options_.interval; }
  [[nodiscard]] bool runsOnStateChange() const override { return false; }
  // memoryEvictEnabled(): enable: true and one of the two thresholds set.
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* node_slo) const override;
  // kInvalidArgument for a bad configuration; OK otherwise (whatever the evictions' results: each
  // is in the evictor's log, Events and metric, and in debugState()).
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // {"status", "decision", "config", "usage": {node_memory_bytes, capacity_bytes, usage_percent,
  // threshold_percent, lower_percent, release_bytes, decision, candidates, outcomes},
  // "allocatable": {requested_bytes, allocatable_bytes, requested_percent, threshold_percent,
  // lower_percent, release_bytes, decision, candidates, outcomes}, "cooling_left_ms",
  // "last_eviction": {reason, seconds_ago, released_bytes, evicted, outcomes}}.
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  struct LastEviction {
    Clock::TimePoint at{};
    std::string reason;
    double released = 0;
    size_t evicted = 0;
    api::Json outcomes;
  };

  // One variant: fills `state` with its inputs and decision, evicts when over its threshold;
  // returns the number of pods evicted.
  size_t runUsage(const framework::StrategyContext& context, const api::core::Node& node,
                  const MemoryEvictConfig& config, api::Json& state);
  size_t runAllocatable(const framework::StrategyContext& context, const api::core::Node& node,
                        const AllocatableThresholds& thresholds, api::Json& state);
  // Sends `request` to the evictor, records the outcomes in `state` and last_eviction_.
  size_t evict(const framework::StrategyContext& context, framework::EvictionRequest request,
               api::Json& state);
  api::Json lastEvictionJson(Clock::TimePoint now) const;

  MemoryEvictOptions options_;
  log::Logger logger_;
  metrics::Gauge usage_percent_gauge_;
  metrics::Gauge allocatable_percent_gauge_;
  metrics::Gauge usage_release_gauge_;
  metrics::Gauge allocatable_release_gauge_;
  std::optional<Clock::TimePoint> cooling_since_;  // the last run that evicted a pod
  std::optional<LastEviction> last_eviction_;
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::memory_evict
