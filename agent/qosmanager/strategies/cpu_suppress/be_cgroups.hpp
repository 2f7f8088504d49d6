// The cgroup updates CPU suppress hands the executor: cpuset.cpus for the BE QoS folder and every
// BE pod's and container's folder, and cpu.cfs_quota_us for the BE QoS folder. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "agent/resourceexecutor/resource_executor.hpp"
#include "agent/system/cpu_pools.hpp"
#include "agent/system/cpu_topology.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

// The CPUs BE may use when not suppressed: the BE pool; the online CPUs while it is not known;
// the topology's CPUs while neither is. Empty when nothing is known.
[[nodiscard]] cpuset::CpuSet bePool(const system::CpuPools& cpus,
                                    const system::CpuTopology& topology);

struct CgroupUpdates {
  std::vector<resourceexecutor::ResourceUpdate> updates;
  std::vector<std::string> problems;  // "<ns>/<name>: <why its folder is unknown>"
};

// cpuset.cpus = `cpus` for qosDir(BestEffort), then each BE pod (isBePod) in `pods` order: its
// folder, then its started containers' folders. Pods and containers whose folder could not be
// resolved are left out and named in `problems`.
[[nodiscard]] CgroupUpdates beCpusetUpdates(const resourceexecutor::KubeletCgroupNaming& naming,
                                            const resourceexecutor::PodCgroups& pods,
                                            const cpuset::CpuSet& cpus, const std::string& reason);

// cpu.cfs_quota_us = `quota_us` for qosDir(BestEffort).
[[nodiscard]] resourceexecutor::ResourceUpdate beQuotaUpdate(
    const resourceexecutor::KubeletCgroupNaming& naming, int64_t quota_us, std::string reason);

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
