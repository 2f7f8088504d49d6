// ColocationStrategy: the colocation-config fields (slo-controller-config, koordinator-reference
// §5.1) that the batch and mid calculation reads, resolved for one node: every field holds a value,
// and a default-constructed strategy is Koordinator's DefaultColocationStrategy. Merging the
// cluster config, nodeConfigs[], the node's colocation-strategy annotation and its ratio labels
// into one strategy happens before (koord_manager_sloconfig reads the ConfigMap); this library
// only consumes the result. Value type; pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "koord/common/status.hpp"

namespace koord::manager::noderesource {

// How high-priority pods are charged against the node (configuration.CalculatePolicy).
enum class CalculatePolicy {
  kUsage,            // "usage": their measured usage
  kRequest,          // "request": their requests (memory only)
  kMaxUsageRequest,  // "maxUsageRequest": max(request, usage), pod by pod
};

// midReclaimMode: unset or "dynamic" reclaims from prodReclaimable; "static" reserves a fixed
// share of the capacity.
enum class MidReclaimMode { kDynamic, kStatic };

// "usage", "request", "maxUsageRequest".
[[nodiscard]] std::string_view toString(CalculatePolicy policy);
// The exact spelling; nullopt for anything else.
[[nodiscard]] std::optional<CalculatePolicy> parseCalculatePolicy(std::string_view text);
// "dynamic", "static".
[[nodiscard]] std::string_view toString(MidReclaimMode mode);
[[nodiscard]] std::optional<MidReclaimMode> parseMidReclaimMode(std::string_view text);

struct ColocationStrategy {
  // false: batch and mid resources are removed from the node.
  bool enable = false;
  // The share of the capacity batch may reclaim; safetyMargin = capacity * (100 - percent) / 100
  // (negative above 100).
  int64_t cpuReclaimThresholdPercent = 60;
  int64_t memoryReclaimThresholdPercent = 65;
  // CPU supports kUsage and kMaxUsageRequest; kRequest for CPU is computed as kUsage, as
  // Koordinator does. Memory supports all three.
  CalculatePolicy cpuCalculatePolicy = CalculatePolicy::kUsage;
  CalculatePolicy memoryCalculatePolicy = CalculatePolicy::kUsage;
  // The NodeMetric is stale (batch and mid removed) when now - updateTime exceeds this.
  int64_t degradeTimeMinutes = 15;
  // needSync(): a node is rewritten at least this often...
  int64_t updateTimeThresholdSeconds = 300;
  // ...or when a resource moves by more than this fraction of its old value.
  double resourceDiffThreshold = 0.1;
  // Upper bounds of mid-cpu / mid-memory, in percent of the capacity.
  int64_t midCPUThresholdPercent = 100;
  int64_t midMemoryThresholdPercent = 100;
  // The share of the unallocated (not requested by prod) capacity added to dynamic mid.
  int64_t midUnallocatedPercent = 0;
  // Static mode: mid = capacity * percent / 100 (bounded by the mid threshold).
  int64_t midStaticCPUReservedPercent = 0;
  int64_t midStaticMemoryReservedPercent = 0;
  // nullopt reads as kDynamic.
  std::optional<MidReclaimMode> midReclaimMode;
  // When set, batch is capped at capacity * percent / 100.
  std::optional<int64_t> batchCPUThresholdPercent;
  std::optional<int64_t> batchMemoryThresholdPercent;

  bool operator==(const ColocationStrategy&) const = default;
};

// Koordinator's IsColocationStrategyValid on the fields above: durations (degradeTimeMinutes,
// updateTimeThresholdSeconds) > 0, reclaim and batch threshold percents >= 0,
// resourceDiffThreshold in (0, 1], mid percents in [0, 100]; CPU policy not kRequest. OK or
// kInvalidArgument naming every bad field: "invalid colocation strategy: degradeTimeMinutes 0
// must be > 0; midUnallocatedPercent 200 must be in [0, 100]".
[[nodiscard]] Status validate(const ColocationStrategy& strategy);

}  // namespace koord::manager::noderesource
