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
//
// Hostile or stale cpusets (koordlet trusts them; the agent does not):
// - CPUs that do not exist on the node (a resource-status cpuset "0-8191" on a 2-CPU node, a
//   reservedCPUs beyond the last CPU, a kubelet state naming other CPUs) are ignored: every set is
//   intersected with the node's CPUs. A pod whose cpuset names such CPUs gets an InvalidCPUSet
//   problem naming them.
// - The shared pool never goes below kMinSharedPoolCpus: claims are taken in order (the node's
//   reserved and kubelet-pinned CPUs first, then LSE/LSR pods by creationTimestamp, namespace,
//   name), and a claim that would take the pool's last CPUs leaves the lowest-numbered of them in
//   the pool (the pod still runs on them, shared) with a problem on the pod (or the Node) saying
//   so. The BE pool holds every CPU of the LS pool, so it keeps them too.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/reporters/kubelet_state.hpp"
#include "agent/reporters/problem_events.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/numa_memory.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::agent::reporters {

// The fewest CPUs the LS shared pool (and so the BE pool) keeps, whatever the claims.
inline constexpr size_t kMinSharedPoolCpus = 1;

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
// When `problems` is given, the cpuset problems above are appended to it (reason "InvalidCPUSet"
// on the Pod, or on the Node for its reservedCPUs and the kubelet's pinned CPUs), one per object.
[[nodiscard]] api::topology::NodeResourceTopology buildNodeResourceTopology(
    const NodeTopologyInputs& inputs, std::vector<ObjectProblem>* problems = nullptr);

}  // namespace koord::agent::reporters
