// NodeTopologyInputs: what the NodeResourceTopology of the node is computed from (discovery, the
// node's pods and the kubelet's files), shared by the CPU allocation (cpu_allocation.hpp) and the
// object's builder (node_topology.hpp).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "agent/reporters/kubelet_state.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/numa_memory.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::agent::reporters {

struct NodeTopologyInputs {
  std::shared_ptr<const api::core::Node> node;  // required (name, uid, annotations)
  system::CpuTopology cpus;
  std::vector<system::NumaMemory> memory;
  std::vector<std::shared_ptr<const api::core::Pod>> pods;
  std::optional<KubeletCpuState> kubelet_state;
  KubeletConfigInfo kubelet_config;
};

}  // namespace koord::agent::reporters
