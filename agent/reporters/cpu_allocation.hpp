// The node's CPU allocation: which CPUs the node itself and its LSE/LSR pods hold, and so the
// shared pools the other pods run on (system::CpuPools), computed once per NodeResourceTopology
// pass from discovery, the node's annotations, the pods' resource-status cpusets and the kubelet's
// CPU manager state (a pure function: no I/O). The NodeResourceTopology's cpu-shared-pools,
// be-cpu-shared-pools and pod-cpu-allocs annotations are formatted from it (node_topology.hpp),
// and the daemon hands its pools to the QoS strategies.
//
// - The LS shared pool: every online CPU except those of the node's reservedCPUs
//   (node.koordinator.sh/reservation), an exclusive system-qos-resource cpuset, the kubelet's
//   pinned containers, and LSE/LSR pods' resource-status cpusets (and an LS pod's, which a node
//   whose cpu-bind-policy binds every integer-CPU pod gives it; it counts as LSR here).
// - The BE pool: the same, but BE pods may run on LSR and kubelet-pinned CPUs, so only LSE and
//   the node's reserved CPUs are left out.
// - allocs: LSE/LSR (and pinned LS) pods with their cpusets (claim order), then kubelet-pinned
//   pods with managedByKubelet.
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
// Pods in a terminal phase are ignored; an unparsable pod annotation skips that pod's claim.
#pragma once

#include <cstddef>
#include <vector>

#include "agent/reporters/node_topology_inputs.hpp"
#include "agent/reporters/problem_events.hpp"
#include "agent/system/cpu_pools.hpp"
#include "koord/api/extension/cpu_topology.hpp"

namespace koord::agent::reporters {

// The fewest CPUs the LS shared pool (and so the BE pool) keeps, whatever the claims.
inline constexpr size_t kMinSharedPoolCpus = 1;

struct NodeCpuAllocation {
  system::CpuPools pools;
  std::vector<api::extension::PodCPUAlloc> allocs;
};

// The allocation of `in` (its node, cpus, pods and kubelet_state). When `problems` is given, the
// cpuset problems above are appended to it (reason "InvalidCPUSet" on the Pod, or on the Node for
// its reservedCPUs and the kubelet's pinned CPUs), one per object.
[[nodiscard]] NodeCpuAllocation allocateNodeCpus(const NodeTopologyInputs& in,
                                                 std::vector<ObjectProblem>* problems = nullptr);

}  // namespace koord::agent::reporters
