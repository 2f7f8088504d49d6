// The state of one takeCPUs call and its free-CPU listings (Koordinator's cpuAccumulator in
// pkg/scheduler/plugins/nodenumaresource/cpu_accumulator.go, minus the take steps). Internal to
// cpu_accumulator.cpp, which holds the steps that pick from these listings.
//
// Contract:
// * An Accumulator borrows `topology`, which must outlive it; it copies everything else.
// * It starts with the CPUs of `available` that are in the topology as allocatable (ref counts
//   from `allocated`, only when maxRefCount > 1), and with the cores / NUMA nodes that `allocated`
//   marks PCPU- / NUMANode-level exclusive.
// * take() moves CPUs from allocatable to the result, lowers needed() by their count, and, for an
//   exclusive request, marks their cores (PCPULevel) or NUMA nodes (NUMANodeLevel) exclusive.
// * The listings only read: every call returns allocatable CPUs in Koordinator's take order for
//   the NUMA strategy (MostAllocated packs, LeastAllocated spreads). With filterExclusive they
//   leave out CPUs in cores / NUMA nodes marked exclusive for the request's policy, as each Go
//   function does (freeCoresInNode: NUMA nodes only; freeCPUsInSocket: cores only).
// * Deterministic: ties end on the lowest id; nothing global is touched.
#pragma once

#include <map>
#include <set>
#include <span>
#include <vector>

#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"
#include "extender/plugins/node_numa_resource/cpu_topology_details.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_numa_resource::cpu_accumulator {

class Accumulator {
 public:
  Accumulator(const CPUTopologyDetails& topology, int maxRefCount, const cpuset::CpuSet& available,
              const AllocatedCPUs& allocated, int numCPUsNeeded,
              api::extension::CPUExclusivePolicy exclusivePolicy, NUMAAllocateStrategy strategy);

  [[nodiscard]] const std::set<int>& result() const { return result_; }
  [[nodiscard]] int needed() const { return needed_; }
  [[nodiscard]] bool needs(int n) const { return needed_ >= n; }
  [[nodiscard]] bool isSatisfied() const { return needed_ < 1; }
  [[nodiscard]] bool isFailed() const { return needed_ > static_cast<int>(allocatable_.size()); }

  void take(std::span<const int> cpus);

  // freeCoresInNode: CPUs of (fully free when filterFullFreeCore) cores per NUMA node.
  [[nodiscard]] std::vector<std::vector<int>> freeCoresInNode(bool filterFullFreeCore,
                                                              bool filterExclusive) const;
  // freeCoresInSocket: CPUs of (fully free when filterFullFreeCore) cores per socket.
  [[nodiscard]] std::vector<std::vector<int>> freeCoresInSocket(bool filterFullFreeCore) const;
  // freeCPUsInNode: free CPUs per NUMA node (one per core when filterExclusive).
  [[nodiscard]] std::vector<std::vector<int>> freeCPUsInNode(bool filterExclusive) const;
  // freeCPUsInSocket: free CPUs per socket (one per core when filterExclusive); only PCPU-level
  // exclusivity is filtered, as in Go.
  [[nodiscard]] std::vector<std::vector<int>> freeCPUsInSocket(bool filterExclusive) const;
  // freeCPUs: every free CPU, cores ordered by socket affinity with the result, socket and node
  // free counts (strategy), free CPUs in the core, socket id, ref count, core id.
  [[nodiscard]] std::vector<int> freeCPUs(bool filterExclusive) const;
  // spreadCPUs: repeated passes over the list, each emitting the first unseen CPU of every core.
  [[nodiscard]] std::vector<int> spreadCPUs(const std::vector<int>& cpus) const;

 private:
  struct FreeCPU {
    int core = 0;
    int node = 0;
    int socket = 0;
    int refCount = 0;
  };

  // CPUs of one NUMA node or socket, in take order.
  struct Group {
    int id = 0;
    int socket = 0;
    std::vector<int> cpus;
  };

  // MostAllocated orders ascending by free count, LeastAllocated descending.
  [[nodiscard]] bool byStrategy(int a, int b) const { return mostAllocated_ ? a < b : a > b; }
  [[nodiscard]] bool isExclusivePCPULevel(const FreeCPU& info) const;
  [[nodiscard]] bool isExclusiveNUMANodeLevel(const FreeCPU& info) const;
  // getCoreRefCount over all allocatable CPUs, for every core.
  [[nodiscard]] std::map<int, int> coreRefCounts() const;
  void sortCPUsByRefCount(std::vector<int>& cpus) const;
  // extractCPU: keeps the first CPU of each core.
  [[nodiscard]] std::vector<int> extractCPU(const std::vector<int>& cpus) const;
  // sortCores: free CPUs in the core desc, ref count asc (maxRefCount > 1), core id asc.
  void sortCores(std::vector<int>& cores, const std::map<int, std::vector<int>>& cpusInCores,
                 const std::map<int, int>& coreRefs) const;
  // Groups cores by groupOf(first CPU of the core) and lays out each group's CPUs core by core.
  // Defined (and only instantiated) in cpu_accumulator_listings.cpp.
  template <typename GroupOf>
  [[nodiscard]] std::vector<Group> coreGroups(const std::map<int, std::vector<int>>& cpusInCores,
                                              bool filterFullFreeCore, GroupOf groupOf) const;
  // Orders each group's CPUs (ascending, then by ref count) and extracts one per core.
  [[nodiscard]] std::vector<Group> finishCPUGroups(std::map<int, Group>& groups,
                                                   bool filterExclusive) const;
  [[nodiscard]] static std::vector<std::vector<int>> cpusOf(std::vector<Group>& groups);

  const CPUTopologyDetails& topology_;
  int maxRefCount_;
  int needed_;
  api::extension::CPUExclusivePolicy exclusivePolicy_;
  bool exclusive_;
  bool mostAllocated_;
  std::map<int, FreeCPU> allocatable_;
  std::set<int> exclusiveInCores_;
  std::set<int> exclusiveInNodes_;
  std::set<int> result_;
};

}  // namespace koord::extender::plugins::node_numa_resource::cpu_accumulator
