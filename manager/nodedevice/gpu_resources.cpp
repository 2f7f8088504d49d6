#include "manager/nodedevice/gpu_resources.hpp"

#include <cstdint>

namespace koord::manager::nodedevice {

NodeGpu nodeGpuFor(const api::scheduling::Device* device, const log::Logger& logger) {
  NodeGpu out;
  if (device == nullptr) {
    return out;
  }
  resource::Quantity memory;
  for (size_t i = 0; i < device->spec.devices.size(); ++i) {
    const api::scheduling::DeviceInfo& info = device->spec.devices[i];
    if (info.type != kDeviceTypeGPU || !info.health) {
      continue;
    }
    const resource::Quantity own = resource::get(info.resources, api::kResourceGPUMemory);
    Result<resource::Quantity> sum = memory.add(own);
    if (!sum.ok()) {
      logger.warn("GPU left out of the node's resources", {{"device", device->metadata.name},
                                                           {"index", static_cast<int64_t>(i)},
                                                           {"error", sum.status().message()}});
      continue;
    }
    memory = *sum;
    ++out.healthy_gpus;
  }
  if (out.healthy_gpus == 0) {
    return out;
  }
  const int64_t percent = int64_t{100} * out.healthy_gpus;
  out.resources.emplace(api::kResourceGPUCore, resource::Quantity::fromInt(percent));
  out.resources.emplace(api::kResourceGPUMemory, memory);
  out.resources.emplace(api::kResourceGPUMemoryRatio, resource::Quantity::fromInt(percent));
  for (std::string_view label : kManagedLabels) {
    const auto it = device->metadata.labels.find(std::string(label));
    if (it != device->metadata.labels.end() && !it->second.empty()) {
      out.labels.emplace(label, it->second);
    }
  }
  return out;
}

}  // namespace koord::manager::nodedevice
