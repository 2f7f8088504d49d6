// SysPaths: the host roots every agent component reads and writes through.
//
// Production points them at the host mounts the DaemonSet gives the agent (by default `/proc`,
// `/sys`, `/sys/fs/cgroup`, `/sys/fs/resctrl`); tests point them at a temporary tree. No agent
// code opens a host path that was not joined to one of these roots.
#pragma once

#include <filesystem>

namespace koord::agent::system {

struct SysPaths {
  // procfs: stat, meminfo, cpuinfo, self/mountinfo.
  std::filesystem::path proc_root = "/proc";
  // sysfs: devices/system/cpu, devices/system/node, bus/pci/devices.
  std::filesystem::path sys_root = "/sys";
  // The cgroup mount: under cgroup v1 the folder holding one folder per subsystem (cpu, cpuset,
  // memory, ...); under cgroup v2 the unified hierarchy itself.
  std::filesystem::path cgroup_root = "/sys/fs/cgroup";
  // The resctrl filesystem (mounted or not).
  std::filesystem::path resctrl_root = "/sys/fs/resctrl";

  // Every root placed under `prefix` (a test's temporary tree, or `/host` in a container):
  // under("/tmp/t") has proc_root "/tmp/t/proc" and cgroup_root "/tmp/t/sys/fs/cgroup".
  [[nodiscard]] static SysPaths under(const std::filesystem::path& prefix) {
    SysPaths paths;
    paths.proc_root = prefix / "proc";
    paths.sys_root = prefix / "sys";
    paths.cgroup_root = prefix / "sys/fs/cgroup";
    paths.resctrl_root = prefix / "sys/fs/resctrl";
    return paths;
  }
};

}  // namespace koord::agent::system
