// How many CPUs this process may keep busy at once, as a container sees it: the CPUs of its
// affinity mask (a cpuset, the kubelet's static CPU manager, taskset), capped by the CPU quota of
// its cgroup and of every ancestor (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` over
// `cpu.cfs_period_us`), rounded up. A process under `limits: {cpu: 2}` on a 64-core node gets 2,
// where std::thread::hardware_concurrency() says 64.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>

namespace koord {

// Where the figures come from; tests point them at a folder of their own.
struct CpuBudgetSources {
  // The process's cgroup membership ("0::/path" for v2, "N:cpu,cpuacct:/path" for v1).
  std::filesystem::path proc_self_cgroup = "/proc/self/cgroup";
  // Where cgroupfs is mounted: the v2 hierarchy itself, or a folder holding the v1 hierarchies
  // (cpu, or cpu,cpuacct).
  std::filesystem::path cgroup_root = "/sys/fs/cgroup";
  // The CPUs of the calling thread's affinity mask; unset: sched_getaffinity(2), falling back to
  // hardware_concurrency() when that fails.
  std::function<int()> affinity_cpus;
};

// The CPU quota in CPUs (1.5 for "150000 100000") of the process's cgroup and its ancestors up to
// the mount's root, the smallest one found; nullopt when none is set ("max", -1) or none can be
// read. A cgroup path that does not exist under the mount (a container without a cgroup
// namespace, where the mount's root already is the container's cgroup) is read from the root.
// Unreadable or malformed files count as no limit.
[[nodiscard]] std::optional<double> cgroupCpuLimit(const CpuBudgetSources& sources = {});

// min(affinity CPUs, ceil(cgroupCpuLimit())), at least 1.
[[nodiscard]] int availableCpus(const CpuBudgetSources& sources = {});

}  // namespace koord
