// What a node advertises from its Device (scheduling.koordinator.sh/v1alpha1, named after the
// node), after Koordinator's noderesource gpudeviceresource plugin.
//
// Over the Device's spec.devices entries of type "gpu" with health true (n of them):
//   koordinator.sh/gpu-core         = 100 x n
//   koordinator.sh/gpu-memory       = the sum of their koordinator.sh/gpu-memory (a GPU that
//                                     reports none adds nothing)
//   koordinator.sh/gpu-memory-ratio = 100 x n
// and the labels node.koordinator.sh/gpu-model and node.koordinator.sh/gpu-driver-version with
// the values of the Device's labels of the same names (a label the Device does not carry, or
// carries empty, is not advertised). With no Device or no healthy GPU nothing is advertised.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>

#include "koord/api/scheduling/device.hpp"
#include "koord/api/well_known.hpp"
#include "koord/log/logger.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::manager::nodedevice {

inline constexpr std::string_view kDeviceTypeGPU = "gpu";

// The Node status keys this controller owns (in capacity and allocatable); no other key is ever
// written.
inline constexpr std::array<std::string_view, 3> kManagedResources = {
    api::kResourceGPUCore, api::kResourceGPUMemory, api::kResourceGPUMemoryRatio};
// The Node labels this controller owns.
inline constexpr std::array<std::string_view, 2> kManagedLabels = {api::kLabelGPUModel,
                                                                   api::kLabelGPUDriverVersion};

struct NodeGpu {
  int healthy_gpus = 0;
  resource::ResourceList resources;           // the kManagedResources; empty when healthy_gpus 0
  std::map<std::string, std::string> labels;  // of kManagedLabels; empty when healthy_gpus 0

  bool operator==(const NodeGpu&) const = default;
};

// What the node named like `device` advertises; `device` nullptr: nothing. A GPU whose memory
// cannot be added (a sum beyond Quantity's range) is left out with a warning on `logger`.
[[nodiscard]] NodeGpu nodeGpuFor(const api::scheduling::Device* device, const log::Logger& logger);

}  // namespace koord::manager::nodedevice
