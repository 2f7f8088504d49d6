#include "agent/app/host.hpp"

#include <memory>

#include "agent/devices/dlopen_nvml.hpp"

namespace koord::agent::app {

std::filesystem::path kubeletConfigPath(const DaemonOptions& options) {
  return options.kubelet_config.empty() ? options.kubelet_root_dir / "config.yaml"
                                        : options.kubelet_config;
}

Result<Host> discoverHost(const DaemonOptions& options, const log::Logger& logger) {
  Host host;
  const std::filesystem::path root = options.paths.sys_root.parent_path();
  KOORD_ASSIGN_OR_RETURN(host.cpus, system::discoverCpuTopology(root));
  KOORD_ASSIGN_OR_RETURN(host.memory, system::discoverNumaMemory(root));
  system::CgroupLayoutOptions layout_options;
  layout_options.driver = options.cgroup_driver;
  layout_options.cgroup_root = options.kubelet_cgroup_root;
  layout_options.kubelet_config = kubeletConfigPath(options);
  KOORD_ASSIGN_OR_RETURN(host.layout, system::discoverCgroupLayout(options.paths, layout_options));
  Result<std::unique_ptr<devices::Nvml>> nvml = devices::DlopenNvml::create(options.nvml_library);
  if (nvml.ok()) {
    host.has_nvml = true;
  } else {
    logger.info("no NVML library: no GPUs reported", {{"reason", nvml.status().message()}});
  }
  logger.info("discovered the host", {{"cpus", host.cpus.cpus.size()},
                                      {"numaNodes", host.cpus.numa_nodes},
                                      {"cgroup", system::toString(host.layout.version)},
                                      {"driver", system::toString(host.layout.driver)},
                                      {"kubepods", host.layout.kubepods.string()},
                                      {"cfsBurst", host.layout.cfs_burst}});
  return host;
}

}  // namespace koord::agent::app
