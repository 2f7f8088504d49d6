// NodeCPUView: one node's CPUs and NUMA resources as a NodeNUMAResource call sees them: the
// topology (NodeTopology), what the node's pods hold (CPUAllocationSource's data) and what binds in
// flight took (the AllocationCache entries of the plugin on the node, whose `detail` is the
// resource-status the bind will write and whose `target` is the exclusive policy's name).
// Built per call; cheap when nothing is in flight (it points at the shared data).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/allocation_cache.hpp"
#include "extender/framework/resource.hpp"
#include "extender/plugins/node_numa_resource/cpu_allocations.hpp"
#include "extender/plugins/node_numa_resource/node_topology.hpp"
#include "extender/plugins/node_numa_resource/numa_hints.hpp"

namespace koord::extender::plugins::node_numa_resource {

class NodeCPUView {
 public:
  // `held` may be nullptr (no pod on the node holds anything); `in_flight` are the plugin's
  // AllocationCache entries on this node (unreadable ones are skipped).
  NodeCPUView(const NodeTopology& topology, const NodeCPUAllocations* held,
              const std::vector<framework::AllocationCache::Allocation>& in_flight);

  [[nodiscard]] const NodeTopology& topology() const { return topology_; }
  // The CPUs the reservation with `uid` holds on the node (empty when none).
  [[nodiscard]] cpuset::CpuSet reservationCPUs(const std::string& uid) const;
  // The NUMA resources it holds there, NUMA node -> amounts (nullptr when none).
  [[nodiscard]] const std::map<int, framework::Resource>* reservationNUMA(
      const std::string& uid) const;
  // Whether any reservation holds CPUs or NUMA resources here.
  [[nodiscard]] bool holdsReservations() const {
    return !all().reservation_cpus.empty() || !all().reservation_numa.empty();
  }
  // Frees in this view what the reservation with `uid` holds (its CPUs and NUMA resources): what
  // an owner of it sees. Lending one reservation twice frees it once.
  void lendReservation(const std::string& uid);
  // CPUs a new cpuset may use: usable - held (maxRefCount 1).
  [[nodiscard]] int freeCPUs() const { return topology_.usable.countWithout(allocated()); }
  // Physical cores all of whose CPUs are free.
  [[nodiscard]] int freeWholeCores() const;
  [[nodiscard]] cpuset::CpuSet available() const;
  // The free CPUs of one NUMA node.
  [[nodiscard]] cpuset::CpuSet availableOn(int numa_node) const;
  [[nodiscard]] const AllocatedCPUs& refs() const {
    return merged_ ? merged_->refs : (held_ != nullptr ? held_->refs : empty_.refs);
  }
  // The NUMA zones with what is still free on each (cpu milli, memory, ...), their status and
  // their free CPUs (for a cpuset pod: whole free cores x CPUs per core when `full_pcpus`).
  [[nodiscard]] std::vector<NUMANodeResources> numaNodes(bool cpu_bind, bool full_pcpus) const;

 private:
  [[nodiscard]] const CpuMask& allocated() const {
    return merged_ ? merged_->allocated : (held_ != nullptr ? held_->allocated : empty_.allocated);
  }
  [[nodiscard]] const NodeCPUAllocations& all() const {
    return merged_ ? *merged_ : (held_ != nullptr ? *held_ : empty_);
  }
  [[nodiscard]] int freeWholeCoresIn(const CpuMask* within) const;

  const NodeTopology& topology_;
  const NodeCPUAllocations* held_;
  // Copies the held data into merged_ on the first change.
  NodeCPUAllocations& mutableAll();

  std::unique_ptr<NodeCPUAllocations> merged_;  // held + in flight; null when nothing is in flight
  std::vector<std::string> lent_;               // reservations lent so far
  NodeCPUAllocations empty_;
};

}  // namespace koord::extender::plugins::node_numa_resource
