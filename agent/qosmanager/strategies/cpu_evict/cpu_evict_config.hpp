// BE CPU eviction's settings: NodeSLO spec.resourceUsedThresholdWithBE merged with koordlet's
// defaults and validated. cpuEvictPolicy (default evictByRealLimit) picks the variant:
// - evictByRealLimit (koordlet BECPUEvict): cpuEvictBESatisfactionLowerPercent in (0, 60] and
//   cpuEvictBESatisfactionUpperPercent in (0, 100), both required, upper >= lower;
//   cpuEvictBEUsageThresholdPercent in (0, 100], default 90; cpuEvictTimeWindowSeconds > 0 when
//   set, and the window is max(it, the collect interval): koordlet's default window is the
//   collect interval (1 s), i.e. the newest sample.
// - evictByAllocatable (koordlet CPUAllocatableEvict): cpuAllocatableEvictThresholdPercent > 0
//   (may exceed 100: batch CPU may be over-committed) required; cpuAllocatableEvictLowerPercent in
//   [0, threshold), default threshold - 2 (floored at 0); allocatableEvictPriorityThreshold, when
//   set, at most 7999 (koord-mid's top), and only pods with priority <= it are summed and evicted.
// evictEnabledPriorityThreshold, when set, limits evictByRealLimit's candidates to pods with
// priority <= it (koordlet's "highest priority that may be evicted").
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "koord/api/codec.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::qosmanager::strategies::cpu_evict {

struct SatisfactionThresholds {
  int64_t lower_percent = 0;
  int64_t upper_percent = 0;
  int64_t usage_threshold_percent = 90;
  std::chrono::seconds window{1};
};

struct AllocatableThresholds {
  int64_t threshold_percent = 0;
  int64_t lower_percent = 0;
  std::optional<int32_t> priority_threshold;  // allocatableEvictPriorityThreshold
};

struct CpuEvictConfig {
  api::slo::CPUEvictPolicy policy = api::slo::CPUEvictPolicy::kEvictByRealLimit;
  std::optional<SatisfactionThresholds> satisfaction;  // set under evictByRealLimit
  std::optional<AllocatableThresholds> allocatable;    // set under evictByAllocatable
  std::optional<int32_t> evict_priority_threshold;     // evictEnabledPriorityThreshold
};

inline constexpr int64_t kSatisfactionLowerMaxPercent = 60;
inline constexpr int64_t kSatisfactionUpperMaxPercent = 100;  // exclusive
inline constexpr int64_t kDefaultBEUsageThresholdPercent = 90;
inline constexpr int64_t kReleaseBufferPercent = 2;
inline constexpr int32_t kMaxAllocatableEvictPriority = 7999;

// Whether the strategy runs: a NodeSLO whose resourceUsedThresholdWithBE has enable: true and
// sets the policy's own fields (evictByRealLimit: a satisfaction percent; evictByAllocatable:
// cpuAllocatableEvictThresholdPercent). A NodeSLO that sets none of them (the manager's default)
// leaves BE CPU eviction off, as koordlet's feature gate does by default.
[[nodiscard]] bool cpuEvictEnabled(const api::slo::NodeSLO* node_slo);

// The validated settings; kInvalidArgument naming the field when a value is out of range or a
// required one is missing. `collect_interval` is the metric collectors' interval (the shortest
// window).
[[nodiscard]] Result<CpuEvictConfig> cpuEvictConfig(
    const api::slo::ResourceThresholdStrategy& section, std::chrono::seconds collect_interval);

// The settings as /debug/qos shows them.
[[nodiscard]] api::Json toJson(const CpuEvictConfig& config);

}  // namespace koord::agent::qosmanager::strategies::cpu_evict
