// CgroupV2Reader: CgroupReader over the cgroup v2 unified hierarchy at SysPaths::cgroup_root.
// See cgroup_reader.hpp for the contract. The root cgroup itself has no memory.current, so
// memoryWorkingSetBytes("") fails with kNotFound.
#pragma once

#include <string>

#include "agent/metricsadvisor/cgroup_file_cache.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/metricsadvisor/working_set_reader.hpp"

namespace koord::agent::metricsadvisor {

class CgroupV2Reader final : public CgroupReader {
 public:
  // `max_open_files`: see CgroupFileCache; `inactive_file_period`: see WorkingSetReader.
  explicit CgroupV2Reader(const system::SysPaths& paths,
                          size_t max_open_files = CgroupFileCache::kDefaultMaxOpenFiles,
                          uint32_t inactive_file_period = WorkingSetReader::kDefaultPeriod);

  [[nodiscard]] system::CgroupVersion version() const override {
    return system::CgroupVersion::kV2;
  }
  [[nodiscard]] Result<uint64_t> cpuUsageNanos(std::string_view relative_dir) const override;
  [[nodiscard]] Result<uint64_t> memoryWorkingSetBytes(
      std::string_view relative_dir) const override;
  [[nodiscard]] Result<CpuThrottlingStats> cpuThrottling(
      std::string_view relative_dir) const override;

 private:
  std::string root_;
  mutable CgroupFileCache files_;         // internally synchronized
  mutable WorkingSetReader working_set_;  // internally synchronized; reads through files_
};

}  // namespace koord::agent::metricsadvisor
