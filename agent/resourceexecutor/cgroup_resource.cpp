#include "agent/resourceexecutor/cgroup_resource.hpp"

#include <algorithm>
#include <limits>

#include "agent/system/sysfs_file.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::resourceexecutor {

namespace {

Status badValue(CgroupResource resource, std::string_view text, std::string_view rule) {
  return Status::invalidArgument("failed to parse " + std::string(cgroupResourceName(resource)) +
                                 " value '" + std::string(text) + "': " + std::string(rule));
}

// An integer in [min, max], or -1 when `unlimited` allows it.
Result<std::string> canonicalInt(CgroupResource resource, std::string_view text, int64_t min,
                                 int64_t max, bool unlimited, std::string_view rule) {
  int64_t value = 0;
  if (!system::parseInt64(system::trimSpace(text), &value) ||
      !((value >= min && value <= max) || (unlimited && value == -1))) {
    return badValue(resource, text, rule);
  }
  return std::to_string(value);
}

}  // namespace

std::string_view cgroupResourceName(CgroupResource resource) {
  switch (resource) {
    case CgroupResource::kCpuShares:
      return "cpu_shares";
    case CgroupResource::kCpuCfsQuota:
      return "cpu_cfs_quota";
    case CgroupResource::kCpuCfsPeriod:
      return "cpu_cfs_period";
    case CgroupResource::kCpuBurst:
      return "cpu_burst";
    case CgroupResource::kCpusetCpus:
      return "cpuset_cpus";
    case CgroupResource::kCpusetMems:
      return "cpuset_mems";
    case CgroupResource::kMemoryLimit:
      return "memory_limit";
    case CgroupResource::kMemoryMin:
      return "memory_min";
    case CgroupResource::kMemoryLow:
      return "memory_low";
    case CgroupResource::kMemoryHigh:
      return "memory_high";
  }
  return "unknown";
}

bool isCpusetResource(CgroupResource resource) {
  return resource == CgroupResource::kCpusetCpus || resource == CgroupResource::kCpusetMems;
}

Result<std::string> canonicalValue(CgroupResource resource, std::string_view text) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (resource) {
    case CgroupResource::kCpuShares:
      return canonicalInt(resource, text, kMinCpuShares, kMaxCpuShares, false,
                          "expected an integer in 2..262144");
    case CgroupResource::kCpuCfsQuota:
      return canonicalInt(resource, text, 1, kMax, true,
                          "expected microseconds > 0, or -1 for unlimited");
    case CgroupResource::kCpuCfsPeriod:
      return canonicalInt(resource, text, 1, kMax, false, "expected microseconds > 0");
    case CgroupResource::kCpuBurst:
      return canonicalInt(resource, text, 0, kMax, false, "expected microseconds >= 0");
    case CgroupResource::kCpusetCpus:
    case CgroupResource::kCpusetMems: {
      auto set = cpuset::CpuSet::parse(text);
      if (!set.ok()) {
        return badValue(resource, text, set.status().message());
      }
      return set->toString();
    }
    case CgroupResource::kMemoryLimit:
    case CgroupResource::kMemoryMin:
    case CgroupResource::kMemoryLow:
    case CgroupResource::kMemoryHigh:
      return canonicalInt(resource, text, 0, kMax, true, "expected bytes >= 0, or -1 for max");
  }
  return badValue(resource, text, "unknown resource");
}

int64_t cpuWeightFromShares(int64_t shares) {
  const int64_t clamped = std::clamp(shares, kMinCpuShares, kMaxCpuShares);
  const int64_t weight = 1 + ((clamped - 2) * 9999) / 262142;
  return std::clamp(weight, kMinCpuWeight, kMaxCpuWeight);
}

int64_t sharesFromCpuWeight(int64_t weight) {
  const int64_t clamped = std::clamp(weight, kMinCpuWeight, kMaxCpuWeight);
  return 2 + ((clamped - 1) * 262142) / 9999;
}

}  // namespace koord::agent::resourceexecutor
