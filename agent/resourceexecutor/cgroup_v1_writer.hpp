// CgroupV1Writer: the logical resources on cgroup v1 hierarchies, one per subsystem, under
// SysPaths::cgroup_root:
//   CpuShares    cpu/<dir>/cpu.shares          CpusetCpus   cpuset/<dir>/cpuset.cpus
//   CpuCfsQuota  cpu/<dir>/cpu.cfs_quota_us    CpusetMems   cpuset/<dir>/cpuset.mems
//   CpuCfsPeriod cpu/<dir>/cpu.cfs_period_us   MemoryLimit  memory/<dir>/memory.limit_in_bytes
//   CpuBurst     cpu/<dir>/cpu.cfs_burst_us
// The cpu folder is `cpu` when it exists, else `cpu,cpuacct` or `cpuacct,cpu` (co-mounted
// controllers without the usual symlinks). MemoryMin, MemoryLow and MemoryHigh have no v1 file
// (kUnimplemented). Values are written as given: the kernel takes "-1" for an unlimited quota and
// memory limit. Reading memory.limit_in_bytes within 1 MiB of INT64_MAX (the kernel's "no limit",
// 9223372036854771712 with 4 KiB pages) gives "-1".
// Stateless apart from its roots; thread-safe.
#pragma once

#include "agent/resourceexecutor/cgroup_writer.hpp"

namespace koord::agent::resourceexecutor {

class CgroupV1Writer final : public CgroupWriter {
 public:
  explicit CgroupV1Writer(system::SysPaths paths) : paths_(std::move(paths)) {}

  [[nodiscard]] system::CgroupVersion version() const override {
    return system::CgroupVersion::kV1;
  }
  [[nodiscard]] Result<std::string> fileName(CgroupResource resource) const override;
  [[nodiscard]] Result<std::filesystem::path> filePath(
      CgroupResource resource, const std::filesystem::path& dir) const override;
  [[nodiscard]] Status write(CgroupResource resource, const std::filesystem::path& dir,
                             std::string_view value) override;
  [[nodiscard]] Result<std::string> read(CgroupResource resource,
                                         const std::filesystem::path& dir) const override;

 private:
  system::SysPaths paths_;
};

}  // namespace koord::agent::resourceexecutor
