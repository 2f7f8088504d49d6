// The logical cgroup resources the executor writes, independent of the cgroup version, and the
// rules their values follow.
//
// Values are always in cgroup v1 units, as decimal text:
//   CpuShares     2..262144 (cpu.shares; v2 cpu.weight is derived from it)
//   CpuCfsQuota   microseconds > 0, or -1 for unlimited
//   CpuCfsPeriod  microseconds > 0
//   CpuBurst      microseconds >= 0
//   CpusetCpus    a CPU list in the kernel's list format ("0-3,8"), possibly empty
//   CpusetMems    a NUMA node list in the same format
//   MemoryLimit   bytes >= 0, or -1 for unlimited (v1 limit_in_bytes, v2 memory.max)
//   MemoryMin, MemoryLow, MemoryHigh  bytes >= 0, or -1 for "max" (cgroup v2 only)
// Pure functions; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor {

enum class CgroupResource {
  kCpuShares,
  kCpuCfsQuota,
  kCpuCfsPeriod,
  kCpuBurst,
  kCpusetCpus,
  kCpusetMems,
  kMemoryLimit,
  kMemoryMin,
  kMemoryLow,
  kMemoryHigh,
};

inline constexpr std::array<CgroupResource, 10> kAllCgroupResources = {
    CgroupResource::kCpuShares,   CgroupResource::kCpuCfsQuota, CgroupResource::kCpuCfsPeriod,
    CgroupResource::kCpuBurst,    CgroupResource::kCpusetCpus,  CgroupResource::kCpusetMems,
    CgroupResource::kMemoryLimit, CgroupResource::kMemoryMin,   CgroupResource::kMemoryLow,
    CgroupResource::kMemoryHigh,
};

// The snake_case name used in metric labels and logs: "cpu_shares", "cpu_cfs_quota",
// "cpu_cfs_period", "cpu_burst", "cpuset_cpus", "cpuset_mems", "memory_limit", "memory_min",
// "memory_low", "memory_high".
[[nodiscard]] std::string_view cgroupResourceName(CgroupResource resource);

// True for CpusetCpus and CpusetMems, whose value must be a subset of the parent's.
[[nodiscard]] bool isCpusetResource(CgroupResource resource);

// The canonical text of a value (surrounding whitespace removed, integers in plain decimal,
// CPU lists as the kernel prints them: " 0,1,2,3\n" is "0-3"), so that equal values compare
// equal. kInvalidArgument "failed to parse <name> value '<text>': <rule>" when the value breaks
// the rules above.
[[nodiscard]] Result<std::string> canonicalValue(CgroupResource resource, std::string_view text);

// The smallest and largest cpu.shares, and cpu.weight.
inline constexpr int64_t kMinCpuShares = 2;
inline constexpr int64_t kMaxCpuShares = 262144;
inline constexpr int64_t kMinCpuWeight = 1;
inline constexpr int64_t kMaxCpuWeight = 10000;

// cgroup v2 cpu.weight for v1 cpu.shares, as the kubelet and runc convert it:
// 1 + ((shares - 2) * 9999) / 262142, shares clamped to 2..262144 (so weight is 1..10000).
// 2 -> 1, 1024 -> 39, 262144 -> 10000.
[[nodiscard]] int64_t cpuWeightFromShares(int64_t shares);

// The inverse the kubelet uses to read cpu.weight back: 2 + ((weight - 1) * 262142) / 9999,
// weight clamped to 1..10000. Lossy: sharesFromCpuWeight(cpuWeightFromShares(1024)) is 998.
[[nodiscard]] int64_t sharesFromCpuWeight(int64_t weight);

}  // namespace koord::agent::resourceexecutor
