#include "agent/metricsadvisor/cgroup_v1_reader.hpp"

#include <system_error>

#include "agent/metricsadvisor/cgroup_file.hpp"
#include "agent/system/cgroup_layout.hpp"

namespace koord::agent::metricsadvisor {

V1Hierarchy::V1Hierarchy(const std::filesystem::path& cgroup_root,
                         const std::vector<std::string>& names) {
  candidates_.reserve(names.size());
  for (const std::string& name : names) {
    candidates_.push_back((cgroup_root / name).string());
  }
}

Result<const std::string*> V1Hierarchy::dir() const {
  const int chosen = chosen_.load(std::memory_order_acquire);
  if (chosen >= 0) {
    return &candidates_[static_cast<size_t>(chosen)];
  }
  for (size_t i = 0; i < candidates_.size(); ++i) {
    std::error_code ec;
    if (std::filesystem::is_directory(candidates_[i], ec)) {
      chosen_.store(static_cast<int>(i), std::memory_order_release);
      return &candidates_[i];
    }
  }
  return Status::failedPrecondition("failed to read '" + candidates_.front() +
                                    "': no such cgroup hierarchy");
}

CgroupV1Reader::CgroupV1Reader(const system::SysPaths& paths, size_t max_open_files,
                               uint32_t inactive_file_period)
    : cpuacct_(paths.cgroup_root, system::v1SubsystemMounts("cpuacct")),
      cpu_(paths.cgroup_root, system::v1SubsystemMounts("cpu")),
      memory_(paths.cgroup_root, system::v1SubsystemMounts("memory")),
      files_(max_open_files),
      working_set_(files_, "memory.usage_in_bytes", "total_inactive_file", inactive_file_period) {}

Result<uint64_t> CgroupV1Reader::cpuUsageNanos(std::string_view relative_dir) const {
  KOORD_RETURN_IF_ERROR(checkRelativeDir(relative_dir));
  KOORD_ASSIGN_OR_RETURN(const std::string* root, cpuacct_.dir());
  return files_.readUint64(joinCgroupPath(*root, relative_dir, "cpuacct.usage"));
}

Result<uint64_t> CgroupV1Reader::memoryWorkingSetBytes(std::string_view relative_dir) const {
  KOORD_RETURN_IF_ERROR(checkRelativeDir(relative_dir));
  KOORD_ASSIGN_OR_RETURN(const std::string* root, memory_.dir());
  return working_set_.read(*root, relative_dir);
}

Result<CpuThrottlingStats> CgroupV1Reader::cpuThrottling(std::string_view relative_dir) const {
  KOORD_RETURN_IF_ERROR(checkRelativeDir(relative_dir));
  KOORD_ASSIGN_OR_RETURN(const std::string* root, cpu_.dir());
  CpuThrottlingStats stats;
  KOORD_RETURN_IF_ERROR(files_.readKeys(joinCgroupPath(*root, relative_dir, "cpu.stat"),
                                        {{"nr_periods", &stats.nr_periods},
                                         {"nr_throttled", &stats.nr_throttled},
                                         {"throttled_time", &stats.throttled_nanos}}));
  return stats;
}

}  // namespace koord::agent::metricsadvisor
