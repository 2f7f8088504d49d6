// CgroupV1Reader: CgroupReader over the cgroup v1 hierarchies mounted under
// SysPaths::cgroup_root (one folder per hierarchy: cpu, cpuacct, memory, or the combined
// "cpu,cpuacct"). See cgroup_reader.hpp for the contract.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "agent/metricsadvisor/cgroup_file_cache.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/metricsadvisor/working_set_reader.hpp"

namespace koord::agent::metricsadvisor {

// One v1 hierarchy, known by the names it may be mounted under. The folder of the first name that
// exists is found at the first call that needs it and kept (a lock-free, idempotent probe; safe
// from several threads).
class V1Hierarchy {
 public:
  V1Hierarchy(const std::filesystem::path& cgroup_root, const std::vector<std::string>& names);

  // The hierarchy's folder (owned by this object); kFailedPrecondition "failed to read
  // '<first candidate>': no such cgroup hierarchy" while none of the names exists (probed again
  // at the next call).
  [[nodiscard]] Result<const std::string*> dir() const;

 private:
  std::vector<std::string> candidates_;
  mutable std::atomic<int> chosen_{-1};
};

class CgroupV1Reader final : public CgroupReader {
 public:
  // `max_open_files`: see CgroupFileCache; `inactive_file_period`: see WorkingSetReader.
  explicit CgroupV1Reader(const system::SysPaths& paths,
                          size_t max_open_files = CgroupFileCache::kDefaultMaxOpenFiles,
                          uint32_t inactive_file_period = WorkingSetReader::kDefaultPeriod);

  [[nodiscard]] system::CgroupVersion version() const override {
    return system::CgroupVersion::kV1;
  }
  [[nodiscard]] Result<uint64_t> cpuUsageNanos(std::string_view relative_dir) const override;
  [[nodiscard]] Result<uint64_t> memoryWorkingSetBytes(
      std::string_view relative_dir) const override;
  [[nodiscard]] Result<CpuThrottlingStats> cpuThrottling(
      std::string_view relative_dir) const override;

 private:
  V1Hierarchy cpuacct_;
  V1Hierarchy cpu_;
  V1Hierarchy memory_;
  mutable CgroupFileCache files_;         // internally synchronized
  mutable WorkingSetReader working_set_;  // internally synchronized; reads through files_
};

}  // namespace koord::agent::metricsadvisor
