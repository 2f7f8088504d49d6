// The NodeResourceTopology koord-agent reports for its node, computed from what discovery found,
// the pods on the node and the kubelet's CPU manager state (a pure function: no I/O).
//
// What goes in (koordlet's states_noderesourcetopology.go is the model):
// - zones: one "node-<i>" zone (type Node) per NUMA node with cpu (whole CPUs of the node) and
//   memory (its MemTotal) as capacity, allocatable and available;
// - topologyPolicies: the kubelet topology manager policy and scope (topologyPolicyWord);
// - annotations: cpu-topology (every online CPU); cpu-shared-pools, be-cpu-shared-pools and
//   pod-cpu-allocs formatted from the node's CPU allocation (cpu_allocation.hpp says what the pools
//   hold and how hostile cpusets are treated); cpu-manager-policy (when the kubelet has a CPU
//   manager policy); and the node's reservation and system-qos-resource annotations copied;
// - label app.kubernetes.io/managed-by: Koordinator and an ownerReference to the Node.
#pragma once

#include <vector>

#include "agent/reporters/cpu_allocation.hpp"
#include "agent/reporters/kubelet_state.hpp"
#include "agent/reporters/node_topology_inputs.hpp"
#include "agent/reporters/problem_events.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::agent::reporters {

// The desired object (metadata: name, labels, annotations, ownerReferences; no resourceVersion),
// with the CPU annotations formatted from `cpus` (allocateNodeCpus(inputs), which the daemon
// computes once per pass and also hands to the QoS strategies).
[[nodiscard]] api::topology::NodeResourceTopology buildNodeResourceTopology(
    const NodeTopologyInputs& inputs, const NodeCpuAllocation& cpus);

// The same with the allocation computed here; `problems` gets allocateNodeCpus's.
[[nodiscard]] api::topology::NodeResourceTopology buildNodeResourceTopology(
    const NodeTopologyInputs& inputs, std::vector<ObjectProblem>* problems = nullptr);

}  // namespace koord::agent::reporters
