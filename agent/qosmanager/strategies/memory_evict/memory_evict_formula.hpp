// BE memory eviction's arithmetic (koordlet memoryevict), pure: how full the node is and how much
// to release.
#pragma once

#include <cstdint>
#include <string>

#include "agent/qosmanager/strategies/memory_evict/memory_evict_config.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {

// The node's memory usage in whole percent of its capacity, floored (koordlet:
// int64(used) * 100 / capacity). `capacity_bytes` must be > 0; a negative use counts as 0.
[[nodiscard]] int64_t usagePercent(int64_t used_bytes, int64_t capacity_bytes);

// Bytes to release once usage reaches the threshold: capacity * (usage% - lower%) / 100 (integer,
// as koordlet), and 0 while usage% < threshold.
[[nodiscard]] int64_t usageRelease(int64_t capacity_bytes, int64_t usage_percent,
                                   const UsageThresholds& thresholds);

// The batch memory requested in percent of the batch allocatable (no rounding); 0 when nothing is
// requested, +infinity when something is requested against an allocatable of 0.
[[nodiscard]] double allocatablePercent(int64_t requested_bytes, int64_t allocatable_bytes);

// Bytes of request to release once requested / allocatable is above the threshold (strictly, as
// koordlet): requested - allocatable * lower% / 100; 0 otherwise. An allocatable of 0 (the batch
// account taken away) with anything requested releases everything requested.
[[nodiscard]] int64_t allocatableRelease(int64_t requested_bytes, int64_t allocatable_bytes,
                                         const AllocatableThresholds& thresholds);

// "12 B", "800 KiB", "512 MiB", "1.2 GiB": one decimal, dropped when it is 0.
[[nodiscard]] std::string formatBytes(double bytes);

}  // namespace koord::agent::qosmanager::strategies::memory_evict
