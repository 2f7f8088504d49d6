// CgroupV2Writer: the logical resources on the cgroup v2 unified hierarchy at
// SysPaths::cgroup_root, files `<cgroup_root>/<dir>/<file>`:
//   CpuShares    cpu.weight     = cpuWeightFromShares(shares) (2 -> 1, 1024 -> 39, 262144 -> 10000)
//   CpuCfsQuota  cpu.max        "<quota|max> <period>": the period already in the file is kept
//   CpuCfsPeriod cpu.max        "<quota|max> <period>": the quota already in the file is kept
//   CpuBurst     cpu.max.burst
//   CpusetCpus   cpuset.cpus    CpusetMems cpuset.mems
//   MemoryLimit  memory.max     MemoryMin memory.min   MemoryLow memory.low   MemoryHigh
//   memory.high
// -1 is written as "max" (quota and memory files) and "max" reads back as "-1". Writing a quota
// or period reads cpu.max first; a cpu.max that is missing or not "<quota|max> <period>" fails
// the write (kNotFound, or kInvalidArgument "failed to parse '<file>': ...").
// A fresh child on a real host reads cpu.max "max 100000", cpu.max.burst "0", cpu.weight "100",
// memory.{min,low} "0", memory.{high,max} "max", cpuset.{cpus,mems} "" (see the h200 capture).
// Stateless apart from its root; thread-safe as far as the files are (two concurrent quota and
// period writes to one cgroup can lose one of them: callers serialise, as the executor does).
#pragma once

#include "agent/resourceexecutor/cgroup_writer.hpp"

namespace koord::agent::resourceexecutor {

class CgroupV2Writer final : public CgroupWriter {
 public:
  explicit CgroupV2Writer(system::SysPaths paths) : paths_(std::move(paths)) {}

  [[nodiscard]] system::CgroupVersion version() const override {
    return system::CgroupVersion::kV2;
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
