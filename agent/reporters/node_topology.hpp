// The NodeResourceTopology koord-agent reports for its node, computed from what discovery found,
// the pods on the node and the kubelet's CPU manager state (a pure function: no I/O).
//
// What goes in (koordlet's states_noderesourcetopology.go is the model):
// - zones: one "node-<i>" zone (type Node) per NUMA node with cpu (whole CPUs of the node) and
//   memory (its MemTotal) as capacity, allocatable and available;
// - topologyPolicies: the kubelet topology manager policy and scope (topologyPolicyWord);
// - annotations: cpu-topology (every online CPU), cpu-shared-pools (per socket/NUMA node: the CPUs
//   no LSE/LSR pod, kubelet-pinned container, node reservation or exclusive system-qos cpuset
//   holds), be-cpu-shared-pools (the same, but BE pods may run on LSR CPUs, so only LSE and the
//   reserved CPUs are left out), pod-cpu-allocs (LSE/LSR pods from their resource-status, and
//   kubelet-pinned pods with managedByKubelet), cpu-manager-policy (when the kubelet has a CPU
//   manager policy), and the node's reservation and system-qos-resource annotations copied;
// - label app.kubernetes.io/managed-by: Koordinator and an ownerReference to the Node.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/reporters/kubelet_state.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/numa_memory.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::agent::reporters {

struct NodeTopologyInputs {
  std::shared_ptr<const api::core::Node> node;  // required (name, uid, annotations)
  system::CpuTopology cpus;
  std::vector<system::NumaMemory> memory;
  std::vector<std::shared_ptr<const api::core::Pod>> pods;
  std::optional<KubeletCpuState> kubelet_state;
  KubeletConfigInfo kubelet_config;
};

// The desired object (metadata: name, labels, annotations, ownerReferences; no resourceVersion).
// Pods in a terminal phase are ignored; an unparsable pod annotation skips that pod's allocation.
[[nodiscard]] api::topology::NodeResourceTopology buildNodeResourceTopology(
    const NodeTopologyInputs& inputs);

}  // namespace koord::agent::reporters
