// koordlet's memory QoS formulas (cgreconcile calculateContainerResources, reference 3(i)).
//
// Per container, with `request` and `limit` in bytes (the container's resources.memory, or its
// kubernetes.io/batch-memory for BE pods; a negative request counts as 0, a limit <= 0 as none):
//   memory.min  = request × minLimitPercent / 100
//   memory.low  = request × lowLimitPercent / 100
//   memory.high = "max" when throttlingPercent is 0, else
//                 floor((request + (L − request) × throttlingPercent / 100) / pageSize) × pageSize
//                 with L = limit when > 0, else the node's allocatable memory
// then low := max(low, min) when low > 0, and high := max(high, min) when high > 0. Integer
// arithmetic truncates as Go's does. A pod's memory.min and memory.low are the sums of its
// containers'; memory.high is set on containers only (as koordlet).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>

#include "agent/qosmanager/strategies/memory_qos/memory_qos_config.hpp"

namespace koord::agent::qosmanager::strategies::memory_qos {

// memory.high's "max", in the executor's v1 units (cgroup_resource.hpp).
inline constexpr int64_t kMemoryMax = -1;

struct MemoryQosValues {
  int64_t min = 0;
  int64_t low = 0;
  // kMemoryMax for "max"; nullopt when it cannot be computed (throttling set, no limit and the
  // node's allocatable memory unknown): not written.
  std::optional<int64_t> high = kMemoryMax;

  bool operator==(const MemoryQosValues&) const = default;
};

// One container's values. `node_allocatable` <= 0 means unknown; `page_size` must be > 0.
[[nodiscard]] MemoryQosValues containerMemoryQos(int64_t request, int64_t limit,
                                                 int64_t node_allocatable,
                                                 const MemoryQosProfile& profile,
                                                 int64_t page_size);

// The memory.min and memory.low of a pod or QoS folder: sums over what it holds.
struct MemoryProtection {
  int64_t min = 0;
  int64_t low = 0;

  void add(int64_t more_min, int64_t more_low) {
    min += more_min;
    low += more_low;
  }
  bool operator==(const MemoryProtection&) const = default;
};

}  // namespace koord::agent::qosmanager::strategies::memory_qos
