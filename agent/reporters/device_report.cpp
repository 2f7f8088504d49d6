#include "agent/reporters/device_report.hpp"

#include <algorithm>

#include "agent/reporters/object_sync.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::reporters {

namespace {

constexpr std::string_view kNvidiaPrefix = "NVIDIA ";

int32_t socketOfNode(const system::CpuTopology& cpus, int32_t numa_node) {
  for (const system::CpuInfo& cpu : cpus.cpus) {
    if (cpu.node == numa_node) {
      return cpu.socket;
    }
  }
  return -1;
}

}  // namespace

std::string gpuModelLabel(const std::string& name) {
  std::string model = name;
  if (model.rfind(kNvidiaPrefix, 0) == 0) {
    model = model.substr(kNvidiaPrefix.size());
  }
  std::replace(model.begin(), model.end(), ' ', '-');
  return model;
}

api::scheduling::Device buildDevice(const api::core::Node& node,
                                    const std::vector<devices::GpuDevice>& gpus,
                                    const system::CpuTopology& cpus) {
  api::scheduling::Device device;
  device.apiVersion = "scheduling.koordinator.sh/v1alpha1";
  device.kind = std::string(api::scheduling::kDeviceKind);
  device.metadata.name = node.metadata.name;
  device.metadata.ownerReferences.push_back(nodeOwnerReference(node.metadata));
  if (!gpus.empty()) {
    device.metadata.labels[std::string(api::kLabelGPUVendor)] = "nvidia";
    device.metadata.labels[std::string(api::kLabelGPUModel)] = gpuModelLabel(gpus.front().model);
    device.metadata.labels[std::string(api::kLabelGPUDriverVersion)] = gpus.front().driver_version;
  }
  for (const devices::GpuDevice& gpu : gpus) {
    api::scheduling::DeviceInfo info;
    info.type = "gpu";
    info.id = gpu.uuid;
    if (gpu.minor >= 0) {
      info.minor = gpu.minor;
    }
    info.health = gpu.healthy;
    info.resources[std::string(api::kResourceGPUCore)] = resource::Quantity::fromInt(100);
    info.resources[std::string(api::kResourceGPUMemory)] = resource::Quantity::fromInt(
        static_cast<int64_t>(gpu.memory_total_bytes), resource::QuantityFormat::kBinarySI);
    info.resources[std::string(api::kResourceGPUMemoryRatio)] = resource::Quantity::fromInt(100);
    api::scheduling::DeviceTopology topology;
    topology.nodeID = gpu.numa_node;
    if (topology.nodeID < 0 && cpus.numa_nodes <= 1) {
      topology.nodeID = 0;
    }
    topology.socketID = topology.nodeID >= 0 ? socketOfNode(cpus, topology.nodeID) : -1;
    topology.busID = gpu.pci_bus_id;
    // The PCIe root the GPU hangs off: "<domain>:<bus>" of its bus id.
    topology.pcieID = gpu.pci_bus_id.substr(0, std::min<size_t>(gpu.pci_bus_id.size(), 7));
    info.topology = std::move(topology);
    device.spec.devices.push_back(std::move(info));
  }
  return device;
}

}  // namespace koord::agent::reporters
