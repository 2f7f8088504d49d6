// agent_gpu_probe: GPU discovery on the real host, for checking a GPU machine by hand.
//
//   agent_gpu_probe [--library libnvidia-ml.so.1] [--sys-root /sys] [--device NODE]
//
// Loads NVML with DlopenNvml, runs discoverGpus and prints one JSON object per GPU on stdout.
// With --device, prints instead the Device object koord-agent would report for a Node named NODE
// (one JSON line): discovery placed on the host's CPU topology (read under the parent of
// --sys-root) by reporters::buildDevice, exactly as the daemon does.
// Exit status: 0 after printing the GPUs, or "no NVML: <why>" when the library cannot be loaded
// (a node without the driver); 1 when NVML is unusable or discovery fails (the error on stderr);
// 2 for a bad command line.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "agent/devices/dlopen_nvml.hpp"
#include "agent/devices/gpu_discovery.hpp"
#include "agent/reporters/device_report.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/api/scheduling/device.hpp"

namespace {

using koord::agent::devices::GpuDevice;

nlohmann::json toJson(const GpuDevice& gpu) {
  nlohmann::json out = {
      {"index", gpu.index},
      {"model", gpu.model},
      {"uuid", gpu.uuid},
      {"minor", gpu.minor},
      {"memory_total_bytes", gpu.memory_total_bytes},
      {"driver_version", gpu.driver_version},
      {"healthy", gpu.healthy},
      {"unhealthy_reason", gpu.unhealthy_reason},
      {"pci_bus_id", gpu.pci_bus_id},
      {"numa_node", gpu.numa_node},
      {"local_cpus", gpu.local_cpus.toString()},
  };
  if (gpu.utilization) {
    out["utilization"] = {{"gpu_percent", gpu.utilization->gpu_percent},
                          {"memory_percent", gpu.utilization->memory_percent}};
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string library = koord::agent::devices::kNvmlLibrary;
  koord::agent::system::SysPaths paths;
  std::string device_for_node;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 < argc && arg == "--library") {
      library = argv[++i];
    } else if (i + 1 < argc && arg == "--sys-root") {
      paths.sys_root = argv[++i];
    } else if (i + 1 < argc && arg == "--device") {
      device_for_node = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--library NAME] [--sys-root PATH] [--device NODE]\n",
                   argv[0]);
      return 2;
    }
  }
  auto nvml = koord::agent::devices::DlopenNvml::create(library);
  if (!nvml.ok()) {
    if (nvml.status().code() == koord::StatusCode::kNotFound) {
      std::printf("no NVML: %s\n", nvml.status().message().c_str());
      return 0;
    }
    std::fprintf(stderr, "%s\n", nvml.status().toString().c_str());
    return 1;
  }
  auto gpus = koord::agent::devices::discoverGpus(nvml->get(), paths);
  if (!gpus.ok()) {
    std::fprintf(stderr, "%s\n", gpus.status().toString().c_str());
    return 1;
  }
  if (!device_for_node.empty()) {
    auto cpus = koord::agent::system::discoverCpuTopology(paths.sys_root.parent_path());
    if (!cpus.ok()) {
      std::fprintf(stderr, "%s\n", cpus.status().toString().c_str());
      return 1;
    }
    koord::api::core::Node node;
    node.metadata.name = device_for_node;
    node.metadata.uid = "00000000-0000-0000-0000-000000000000";  // the probe has no Node object
    const auto device = koord::agent::reporters::buildDevice(node, *gpus, *cpus);
    std::printf("%s\n", koord::api::scheduling::toJson(device).dump().c_str());
    return 0;
  }
  for (const GpuDevice& gpu : *gpus) {
    std::printf("%s\n", toJson(gpu).dump().c_str());
  }
  return 0;
}
