// CPUAllocations: the node data source (framework/node_data.hpp) of NodeNUMAResource: for each
// node, the cpusets and NUMA resources its pods hold, read from their
// scheduling.koordinator.sh/resource-status annotations (written by this plugin's bind, or by
// Koordinator's scheduler before us), with the exclusive policy each pod asked for in its
// resource-spec. Rebuilt with the NodeInfo whenever the node's pods change, so a verb call reads
// pods and allocations from one snapshot. What binds in flight took is not here: the plugin adds
// the AllocationCache's entries on top.
//
// The Reservations placed on the node that hold CPUs or NUMA resources (the cpuset and
// numaNodeResources of their resource-status, from the Reservation helper,
// common::ReservationState) hold them like pods, less what their owners on the node already use
// (per CPU; per NUMA node and resource, never below zero), and nothing once an owner took an
// allocateOnce one: no other pod is given them, and an owner is (node_numa_resource.hpp). A
// Reservation whose resource-status is unreadable holds none and is listed in `unreadable`.
//
// A pod whose resource-status does not parse holds nothing and is listed in `unreadable` (the
// simulator's CPUS section names it); it does not make the node unusable.
//
// Thread safety: make() runs under the ClusterState's write lock; the data is immutable once built.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/node_data.hpp"
#include "extender/framework/resource.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"
#include "extender/plugins/node_numa_resource/cpu_mask.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_numa_resource {

struct PodAllocation {
  std::string pod_key;  // "namespace/name"
  cpuset::CpuSet cpus;
  api::extension::CPUExclusivePolicy exclusive = api::extension::CPUExclusivePolicy::kNone;
  std::map<int, framework::Resource> numa;  // NUMA node -> what the pod holds there
};

struct NodeCPUAllocations {
  std::vector<PodAllocation> pods;  // pods holding a cpuset or NUMA resources, in pod order
  CpuMask allocated;                // union of the cpusets
  AllocatedCPUs refs;               // per CPU: holders and the exclusive policy
  std::map<int, framework::Resource> numa_used;  // NUMA node -> sum of what pods hold there
  std::map<int, int> numa_single;                // NUMA node -> pods holding only that NUMA node
  std::map<int, int> numa_shared;                // NUMA node -> pods spanning it and others
  std::vector<std::string> unreadable;           // "namespace/name: <parse error>"
  // Reservation UID -> the CPUs it still holds for its owners (also counted in `allocated`).
  std::map<std::string, cpuset::CpuSet> reservation_cpus;
  // Reservation UID -> the NUMA resources it still holds for its owners, NUMA node -> amounts
  // (also counted in `numa_used`).
  std::map<std::string, std::map<int, framework::Resource>> reservation_numa;

  // Adds one pod's allocation to every total.
  void add(PodAllocation allocation);
};

// What is left of `held` (NUMA node -> amounts) once `used` is taken from it, per NUMA node and
// resource, never below zero; NUMA nodes with nothing left are dropped.
[[nodiscard]] std::map<int, framework::Resource> remainingNUMA(
    const std::map<int, framework::Resource>& held, const std::map<int, framework::Resource>& used);

// Reads one pod's allocation; nullopt when it holds none. A malformed annotation is an error
// naming it.
[[nodiscard]] Result<std::optional<PodAllocation>> podAllocationOf(const api::core::Pod& pod,
                                                                   const std::string& key);

class CPUAllocationSource final : public framework::TypedNodeDataSource<NodeCPUAllocations> {
 public:
  // The source of `cluster`: added on first call, the same one after; it installs the
  // Reservation helper too (common::ReservationState::install), to read reservations' CPUs.
  static CPUAllocationSource& install(framework::ClusterState& cluster);
  explicit CPUAllocationSource(const common::ReservationState* reservations)
      : reservations_(reservations) {}

 protected:
  [[nodiscard]] std::shared_ptr<const NodeCPUAllocations> make(
      const framework::NodeInfo& node) const override;

 private:
  const common::ReservationState* reservations_;  // nullptr: no reservation holds CPUs
};

}  // namespace koord::extender::plugins::node_numa_resource
