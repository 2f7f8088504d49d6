// Host: what koord-agent's discovery finds once at start (CPU topology, NUMA memory, the kubelet's
// cgroup layout, whether NVML loads), read under the roots of DaemonOptions::paths.
#pragma once

#include <vector>

#include "agent/app/daemon_options.hpp"
#include "agent/system/cgroup_layout.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/numa_memory.hpp"
#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::app {

struct Host {
  system::CpuTopology cpus;
  std::vector<system::NumaMemory> memory;
  system::CgroupLayout layout;
  // Whether libnvidia-ml loaded at start. It is loaded again for each Device report and unloaded
  // right after: loaded and initialised, NVML keeps about 20 MiB resident (measured on an H200
  // host), more than the rest of the agent.
  bool has_nvml = false;
};

// Discovers the host and logs what it found. Errors are discovery's (a missing sysfs tree, a
// cgroup driver that cannot be told); NVML failing to load is not one (has_nvml is false).
[[nodiscard]] Result<Host> discoverHost(const DaemonOptions& options, const log::Logger& logger);

// The kubelet config file: --kubelet-config, or <kubelet_root_dir>/config.yaml.
[[nodiscard]] std::filesystem::path kubeletConfigPath(const DaemonOptions& options);

}  // namespace koord::agent::app
