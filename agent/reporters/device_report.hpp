// The Device object koord-agent reports for its node's GPUs (a pure function: no I/O), as
// koordlet's device reporter writes it:
// - name = the node's name, ownerReference to the Node;
// - spec.devices: one entry per GPU, type "gpu", id = UUID, minor, health, resources
//   koordinator.sh/gpu-core 100, koordinator.sh/gpu-memory (its memory, bytes) and
//   koordinator.sh/gpu-memory-ratio 100, topology {socketID, nodeID, pcieID, busID};
// - labels node.koordinator.sh/gpu-vendor "nvidia", gpu-model (the name without the "NVIDIA "
//   prefix, spaces as '-': "H200") and gpu-driver-version, which koord-manager copies to the Node.
// A GPU whose PCI numa_node is unknown (-1) is placed on NUMA node 0 when the node has one NUMA
// node (common on VMs, the H200 capture among them), else reported with nodeID -1; socketID is
// the socket of that NUMA node's CPUs (-1 when unknown).
#pragma once

#include <string>
#include <vector>

#include "agent/devices/gpu_discovery.hpp"
#include "agent/system/cpu_topology.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/scheduling/device.hpp"

namespace koord::agent::reporters {

[[nodiscard]] api::scheduling::Device buildDevice(const api::core::Node& node,
                                                  const std::vector<devices::GpuDevice>& gpus,
                                                  const system::CpuTopology& cpus);

// "NVIDIA H200" -> "H200", "Tesla V100-SXM2-16GB" -> "Tesla-V100-SXM2-16GB".
[[nodiscard]] std::string gpuModelLabel(const std::string& name);

}  // namespace koord::agent::reporters
