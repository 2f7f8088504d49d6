// Koordinator's CPU accumulator (pkg/scheduler/plugins/nodenumaresource/cpu_accumulator.go
// takeCPUs): picks numCPUsNeeded logical CPUs out of `available` on a node's CPU topology.
//
// Contract:
// * Pure and deterministic: the same inputs give the same CpuSet; nothing global is touched.
// * `available` is the set the caller may hand out (topology CPUs minus reserved CPUs minus CPUs
//   whose ref count reached maxRefCount); CPUs not in the topology are ignored.
// * `allocated` describes CPUs already handed out: their ref count (used for ordering only when
//   maxRefCount > 1) and the exclusive policy they were allocated with (PCPULevel marks their core,
//   NUMANodeLevel their NUMA node, for requests with the same exclusive policy to avoid while they
//   have an alternative). Entries for CPUs outside the topology are ignored.
// * numCPUsNeeded <= 0 gives the empty set. More than the available CPUs in the topology gives
//   kResourceExhausted "not enough cpus available to satisfy request"; running out of candidates
//   gives kResourceExhausted "failed to allocate cpus" (Koordinator's texts).
// * bindPolicy FullPCPUs packs whole physical cores (step A); anything else spreads over cores
//   (step B); both fall back to step C. numaStrategy MostAllocated packs NUMA nodes and sockets,
//   LeastAllocated spreads them. Order and tie-breaking follow the Go code; where Go's sort.Slice
//   is unstable (step A's socket sort by size only) this keeps the socket order freeCoresInSocket
//   produced, which is what Go's insertion sort does for up to 12 sockets.
#pragma once

#include <map>
#include <vector>

#include "extender/plugins/node_numa_resource/cpu_topology_details.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_numa_resource {

// Values of node.koordinator.sh/numa-allocate-strategy (DistributeEvenly is only a constant there).
enum class NUMAAllocateStrategy { kMostAllocated, kLeastAllocated };

struct AllocatedCPU {
  int refCount = 0;
  api::extension::CPUExclusivePolicy exclusivePolicy = api::extension::CPUExclusivePolicy::kNone;

  bool operator==(const AllocatedCPU&) const = default;
};
using AllocatedCPUs = std::map<int, AllocatedCPU>;  // by CPU id

inline constexpr const char* kNotEnoughCPUs = "not enough cpus available to satisfy request";
inline constexpr const char* kFailedToAllocateCPUs = "failed to allocate cpus";

[[nodiscard]] Result<cpuset::CpuSet> takeCPUs(const CPUTopologyDetails& topology, int maxRefCount,
                                              const cpuset::CpuSet& available,
                                              const AllocatedCPUs& allocated, int numCPUsNeeded,
                                              api::extension::CPUBindPolicy bindPolicy,
                                              api::extension::CPUExclusivePolicy exclusivePolicy,
                                              NUMAAllocateStrategy numaStrategy);

// The candidate order of step C on a fresh accumulator: spreadCPUs(freeCPUs(filterExclusive)).
// Exposed for Koordinator's TestCPUSpreadByPCPUs.
[[nodiscard]] std::vector<int> spreadFreeCPUs(const CPUTopologyDetails& topology, int maxRefCount,
                                              const cpuset::CpuSet& available,
                                              const AllocatedCPUs& allocated,
                                              api::extension::CPUExclusivePolicy exclusivePolicy,
                                              NUMAAllocateStrategy numaStrategy,
                                              bool filterExclusive);

}  // namespace koord::extender::plugins::node_numa_resource
