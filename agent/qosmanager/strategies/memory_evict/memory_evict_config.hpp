// BE memory eviction's settings: NodeSLO spec.resourceUsedThresholdWithBE merged with koordlet's
// defaults and validated.
//
// Two variants, each on when its threshold is set:
// - usage (koordlet BEMemoryEvict): memoryEvictThresholdPercent, in (0, 100];
//   memoryEvictLowerPercent in [0, threshold), default threshold - 2 (floored at 0).
// - allocatable (koordlet MemoryAllocatableEvict): memoryAllocatableEvictThresholdPercent > 0
//   (may exceed 100: batch memory may be over-committed); memoryAllocatableEvictLowerPercent in
//   [0, threshold), default threshold - 2 (floored at 0; koordlet leaves it unset-as-0 but
//   dereferences it, so a configured value is what koordlet actually runs with);
//   allocatableEvictPriorityThreshold, when set, at most 7999 (koord-mid's top: prod pods are
//   never evicted), and only pods with priority <= it are summed and evicted.
// evictEnabledPriorityThreshold, when set, limits the usage variant's candidates to pods with
// priority <= it (koordlet's "highest priority that may be evicted"; koordlet applies it to its
// all-pods MemoryEvict, here to BE pods).
#pragma once

#include <cstdint>
#include <optional>

#include "koord/api/codec.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {

struct UsageThresholds {
  int64_t threshold_percent = 0;
  int64_t lower_percent = 0;
};

struct AllocatableThresholds {
  int64_t threshold_percent = 0;
  int64_t lower_percent = 0;
  std::optional<int32_t> priority_threshold;  // allocatableEvictPriorityThreshold
};

struct MemoryEvictConfig {
  std::optional<UsageThresholds> usage;              // nullopt: memoryEvictThresholdPercent unset
  std::optional<AllocatableThresholds> allocatable;  // nullopt: its threshold unset
  std::optional<int32_t> evict_priority_threshold;   // evictEnabledPriorityThreshold
};

// koordlet's memoryReleaseBufferPercent: the default lower percent is the threshold minus this.
inline constexpr int64_t kReleaseBufferPercent = 2;
inline constexpr int32_t kMaxAllocatableEvictPriority = 7999;  // koord-mid's highest value

// Whether the strategy runs: a NodeSLO whose resourceUsedThresholdWithBE has enable: true and
// sets memoryEvictThresholdPercent or memoryAllocatableEvictThresholdPercent (any value: a bad
// one is reported by the run, not silently ignored).
[[nodiscard]] bool memoryEvictEnabled(const api::slo::NodeSLO* node_slo);

// The validated settings; kInvalidArgument naming the field
// ("resourceUsedThresholdWithBE.memoryEvictLowerPercent ...") when a value is out of range, or
// when neither threshold is set.
[[nodiscard]] Result<MemoryEvictConfig> memoryEvictConfig(
    const api::slo::ResourceThresholdStrategy& section);

// The settings as /debug/qos shows them.
[[nodiscard]] api::Json toJson(const MemoryEvictConfig& config);

}  // namespace koord::agent::qosmanager::strategies::memory_evict
