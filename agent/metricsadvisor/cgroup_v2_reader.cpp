#include "agent/metricsadvisor/cgroup_v2_reader.hpp"

#include <limits>

#include "agent/metricsadvisor/cgroup_file.hpp"

namespace koord::agent::metricsadvisor {

namespace {

constexpr uint64_t kNanosPerMicro = 1000;

// usec * 1000, or kInvalidArgument when it does not fit 64 bits.
Result<uint64_t> microsToNanos(uint64_t usec, const std::string& path, std::string_view key) {
  if (usec > std::numeric_limits<uint64_t>::max() / kNanosPerMicro) {
    return Status::invalidArgument("failed to parse '" + path + "': '" + std::string(key) +
                                   "' overflows nanoseconds");
  }
  return usec * kNanosPerMicro;
}

}  // namespace

CgroupV2Reader::CgroupV2Reader(const system::SysPaths& paths, size_t max_open_files,
                               uint32_t inactive_file_period)
    : root_(paths.cgroup_root.string()),
      files_(max_open_files),
      working_set_(files_, "memory.current", "inactive_file", inactive_file_period) {
  while (root_.size() > 1 && root_.back() == '/') {
    root_.pop_back();
  }
}

Result<uint64_t> CgroupV2Reader::cpuUsageNanos(std::string_view relative_dir) const {
  KOORD_RETURN_IF_ERROR(checkRelativeDir(relative_dir));
  const std::string path = joinCgroupPath(root_, relative_dir, "cpu.stat");
  uint64_t usage_usec = 0;
  KOORD_RETURN_IF_ERROR(files_.readKeys(path, {{"usage_usec", &usage_usec}}));
  return microsToNanos(usage_usec, path, "usage_usec");
}

Result<uint64_t> CgroupV2Reader::memoryWorkingSetBytes(std::string_view relative_dir) const {
  KOORD_RETURN_IF_ERROR(checkRelativeDir(relative_dir));
  return working_set_.read(root_, relative_dir);
}

Result<CpuThrottlingStats> CgroupV2Reader::cpuThrottling(std::string_view relative_dir) const {
  KOORD_RETURN_IF_ERROR(checkRelativeDir(relative_dir));
  const std::string path = joinCgroupPath(root_, relative_dir, "cpu.stat");
  CpuThrottlingStats stats;
  uint64_t throttled_usec = 0;
  KOORD_RETURN_IF_ERROR(files_.readKeys(path, {{"nr_periods", &stats.nr_periods},
                                               {"nr_throttled", &stats.nr_throttled},
                                               {"throttled_usec", &throttled_usec}}));
  KOORD_ASSIGN_OR_RETURN(stats.throttled_nanos,
                         microsToNanos(throttled_usec, path, "throttled_usec"));
  return stats;
}

}  // namespace koord::agent::metricsadvisor
