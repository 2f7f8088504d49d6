// Port of Koordinator's cpu_accumulator.go; the function and step names follow the Go code.
#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"

#include <algorithm>
#include <set>
#include <span>

namespace koord::extender::plugins::node_numa_resource {
namespace {

using api::extension::CPUBindPolicy;
using api::extension::CPUExclusivePolicy;

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

class Accumulator {
 public:
  Accumulator(const CPUTopologyDetails& topology, int maxRefCount, const cpuset::CpuSet& available,
              const AllocatedCPUs& allocated, int numCPUsNeeded, CPUExclusivePolicy exclusivePolicy,
              NUMAAllocateStrategy strategy)
      : topology_(topology),
        maxRefCount_(maxRefCount),
        needed_(numCPUsNeeded),
        exclusivePolicy_(exclusivePolicy),
        exclusive_(exclusivePolicy == CPUExclusivePolicy::kPCPULevel ||
                   exclusivePolicy == CPUExclusivePolicy::kNUMANodeLevel),
        mostAllocated_(strategy == NUMAAllocateStrategy::kMostAllocated) {
    for (const auto& [cpu, state] : allocated) {
      const CPUInfo* info = topology.find(cpu);
      if (info == nullptr) {
        continue;
      }
      if (state.exclusivePolicy == CPUExclusivePolicy::kPCPULevel) {
        exclusiveInCores_.insert(info->core);
      } else if (state.exclusivePolicy == CPUExclusivePolicy::kNUMANodeLevel) {
        exclusiveInNodes_.insert(info->node);
      }
    }
    for (int cpu : available.cpus()) {
      const CPUInfo* info = topology.find(cpu);
      if (info == nullptr) {
        continue;
      }
      int refCount = 0;
      if (maxRefCount > 1) {
        auto it = allocated.find(cpu);
        refCount = it == allocated.end() ? 0 : it->second.refCount;
      }
      allocatable_[cpu] = FreeCPU{info->core, info->node, info->socket, refCount};
    }
  }

  [[nodiscard]] const std::set<int>& result() const { return result_; }
  [[nodiscard]] int needed() const { return needed_; }
  [[nodiscard]] bool needs(int n) const { return needed_ >= n; }
  [[nodiscard]] bool isSatisfied() const { return needed_ < 1; }
  [[nodiscard]] bool isFailed() const { return needed_ > static_cast<int>(allocatable_.size()); }

  void take(std::span<const int> cpus) {
    for (int cpu : cpus) {
      result_.insert(cpu);
      allocatable_.erase(cpu);
      if (!exclusive_) {
        continue;
      }
      const CPUInfo* info = topology_.find(cpu);
      if (info == nullptr) {
        continue;
      }
      if (exclusivePolicy_ == CPUExclusivePolicy::kPCPULevel) {
        exclusiveInCores_.insert(info->core);
      } else if (exclusivePolicy_ == CPUExclusivePolicy::kNUMANodeLevel) {
        exclusiveInNodes_.insert(info->node);
      }
    }
    needed_ -= static_cast<int>(cpus.size());
  }

  // freeCoresInNode: CPUs of (fully free when filterFullFreeCore) cores per NUMA node.
  [[nodiscard]] std::vector<std::vector<int>> freeCoresInNode(bool filterFullFreeCore,
                                                              bool filterExclusive) const {
    std::map<int, int> socketFree;
    std::map<int, std::vector<int>> cpusInCores;
    for (const auto& [cpu, info] : allocatable_) {
      if (filterExclusive && isExclusiveNUMANodeLevel(info)) {
        continue;
      }
      cpusInCores[info.core].push_back(cpu);
      socketFree[info.socket]++;
    }
    std::vector<Group> groups =
        coreGroups(cpusInCores, filterFullFreeCore, [](const FreeCPU& info) { return info.node; });
    std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
      if (a.cpus.size() != b.cpus.size()) {
        return byStrategy(static_cast<int>(a.cpus.size()), static_cast<int>(b.cpus.size()));
      }
      if (socketFree[a.socket] != socketFree[b.socket]) {
        return byStrategy(socketFree[a.socket], socketFree[b.socket]);
      }
      return a.id < b.id;
    });
    return cpusOf(groups);
  }

  // freeCoresInSocket: CPUs of (fully free when filterFullFreeCore) cores per socket.
  [[nodiscard]] std::vector<std::vector<int>> freeCoresInSocket(bool filterFullFreeCore) const {
    std::map<int, std::vector<int>> cpusInCores;
    for (const auto& [cpu, info] : allocatable_) {
      cpusInCores[info.core].push_back(cpu);
    }
    std::vector<Group> groups = coreGroups(cpusInCores, filterFullFreeCore,
                                           [](const FreeCPU& info) { return info.socket; });
    std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
      if (a.cpus.size() != b.cpus.size()) {
        return byStrategy(static_cast<int>(a.cpus.size()), static_cast<int>(b.cpus.size()));
      }
      return a.id < b.id;
    });
    return cpusOf(groups);
  }

  // freeCPUsInNode: free CPUs per NUMA node (one per core when filterExclusive).
  [[nodiscard]] std::vector<std::vector<int>> freeCPUsInNode(bool filterExclusive) const {
    std::map<int, Group> byNode;
    std::map<int, int> nodeFree;
    std::map<int, int> socketFree;
    for (const auto& [cpu, info] : allocatable_) {
      if (filterExclusive && (isExclusivePCPULevel(info) || isExclusiveNUMANodeLevel(info))) {
        continue;
      }
      Group& group = byNode[info.node];
      group.id = info.node;
      group.socket = info.socket;
      group.cpus.push_back(cpu);
      nodeFree[info.node]++;
      socketFree[info.socket]++;
    }
    std::vector<Group> groups = finishCPUGroups(byNode, filterExclusive);
    std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
      if (nodeFree[a.id] != nodeFree[b.id]) {
        return byStrategy(nodeFree[a.id], nodeFree[b.id]);
      }
      if (socketFree[a.socket] != socketFree[b.socket]) {
        return byStrategy(socketFree[a.socket], socketFree[b.socket]);
      }
      return a.id < b.id;
    });
    return cpusOf(groups);
  }

  // freeCPUsInSocket: free CPUs per socket (one per core when filterExclusive); only PCPU-level
  // exclusivity is filtered, as in Go.
  [[nodiscard]] std::vector<std::vector<int>> freeCPUsInSocket(bool filterExclusive) const {
    std::map<int, Group> bySocket;
    for (const auto& [cpu, info] : allocatable_) {
      if (filterExclusive && isExclusivePCPULevel(info)) {
        continue;
      }
      Group& group = bySocket[info.socket];
      group.id = info.socket;
      group.socket = info.socket;
      group.cpus.push_back(cpu);
    }
    std::vector<Group> groups = finishCPUGroups(bySocket, filterExclusive);
    std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
      if (a.cpus.size() != b.cpus.size()) {
        return byStrategy(static_cast<int>(a.cpus.size()), static_cast<int>(b.cpus.size()));
      }
      return a.id < b.id;
    });
    return cpusOf(groups);
  }

  // freeCPUs: every free CPU, cores ordered by socket affinity with the result, socket and node
  // free counts (strategy), free CPUs in the core, socket id, ref count, core id.
  [[nodiscard]] std::vector<int> freeCPUs(bool filterExclusive) const {
    std::map<int, std::vector<int>> cpusInCores;
    std::map<int, int> coreSocket;
    std::map<int, int> coreNode;
    std::map<int, int> nodeFree;
    std::map<int, int> socketFree;
    for (const auto& [cpu, info] : allocatable_) {
      if (filterExclusive && (isExclusivePCPULevel(info) || isExclusiveNUMANodeLevel(info))) {
        continue;
      }
      cpusInCores[info.core].push_back(cpu);
      coreSocket[info.core] = info.socket;
      coreNode[info.core] = info.node;
      nodeFree[info.node]++;
      socketFree[info.socket]++;
    }
    std::map<int, int> socketColo;
    for (const auto& [socket, count] : socketFree) {
      int colo = 0;
      for (int cpu : result_) {
        const CPUInfo* info = topology_.find(cpu);
        if (info != nullptr && info->socket == socket) {
          ++colo;
        }
      }
      socketColo[socket] = colo;
    }
    const std::map<int, int> coreRefs = coreRefCounts();
    std::vector<int> cores;
    cores.reserve(cpusInCores.size());
    for (const auto& [core, cpus] : cpusInCores) {
      cores.push_back(core);
    }
    std::sort(cores.begin(), cores.end(), [&](int i, int j) {
      const int iSocket = coreSocket[i];
      const int jSocket = coreSocket[j];
      if (socketColo[iSocket] != socketColo[jSocket]) {
        return socketColo[iSocket] > socketColo[jSocket];
      }
      if (socketFree[iSocket] != socketFree[jSocket]) {
        return byStrategy(socketFree[iSocket], socketFree[jSocket]);
      }
      const int iNodeFree = nodeFree[coreNode[i]];
      const int jNodeFree = nodeFree[coreNode[j]];
      if (iNodeFree != jNodeFree) {
        return byStrategy(iNodeFree, jNodeFree);
      }
      if (cpusInCores[i].size() != cpusInCores[j].size()) {
        return cpusInCores[i].size() < cpusInCores[j].size();
      }
      if (iSocket != jSocket) {
        return iSocket < jSocket;
      }
      if (maxRefCount_ > 1 && coreRefs.at(i) != coreRefs.at(j)) {
        return coreRefs.at(i) < coreRefs.at(j);
      }
      return i < j;
    });
    std::vector<int> out;
    for (int core : cores) {
      std::vector<int> cpus = cpusInCores[core];
      if (maxRefCount_ > 1) {
        sortCPUsByRefCount(cpus);
      }
      out.insert(out.end(), cpus.begin(), cpus.end());
    }
    return out;
  }

  // spreadCPUs: repeated passes over the list, each emitting the first unseen CPU of every core.
  [[nodiscard]] std::vector<int> spreadCPUs(const std::vector<int>& cpus) const {
    if (static_cast<int>(cpus.size()) <= topology_.cpusPerCore()) {
      return cpus;
    }
    std::vector<int> out;
    out.reserve(cpus.size());
    std::vector<int> prepared = cpus;
    while (!prepared.empty()) {
      std::vector<int> reserved;
      std::set<int> seenCores;
      for (int cpu : prepared) {
        const CPUInfo* info = topology_.find(cpu);
        const int core = info == nullptr ? 0 : info->core;
        if (!seenCores.insert(core).second) {
          reserved.push_back(cpu);
          continue;
        }
        out.push_back(cpu);
      }
      prepared = std::move(reserved);
    }
    return out;
  }

 private:
  // MostAllocated orders ascending by free count, LeastAllocated descending.
  [[nodiscard]] bool byStrategy(int a, int b) const { return mostAllocated_ ? a < b : a > b; }

  [[nodiscard]] bool isExclusivePCPULevel(const FreeCPU& info) const {
    return exclusivePolicy_ == CPUExclusivePolicy::kPCPULevel &&
           exclusiveInCores_.count(info.core) != 0;
  }
  [[nodiscard]] bool isExclusiveNUMANodeLevel(const FreeCPU& info) const {
    return exclusivePolicy_ == CPUExclusivePolicy::kNUMANodeLevel &&
           exclusiveInNodes_.count(info.node) != 0;
  }

  // getCoreRefCount over all allocatable CPUs, for every core.
  [[nodiscard]] std::map<int, int> coreRefCounts() const {
    std::map<int, int> refs;
    for (const auto& [cpu, info] : allocatable_) {
      refs[info.core] += info.refCount;
    }
    return refs;
  }

  void sortCPUsByRefCount(std::vector<int>& cpus) const {
    std::sort(cpus.begin(), cpus.end(), [&](int i, int j) {
      const int iRef = allocatable_.at(i).refCount;
      const int jRef = allocatable_.at(j).refCount;
      return iRef != jRef ? iRef < jRef : i < j;
    });
  }

  // extractCPU: keeps the first CPU of each core.
  [[nodiscard]] std::vector<int> extractCPU(const std::vector<int>& cpus) const {
    std::vector<int> selected;
    std::set<int> cores;
    for (int cpu : cpus) {
      if (cores.insert(allocatable_.at(cpu).core).second) {
        selected.push_back(cpu);
      }
    }
    return selected;
  }

  // sortCores: free CPUs in the core desc, ref count asc (maxRefCount > 1), core id asc.
  void sortCores(std::vector<int>& cores, const std::map<int, std::vector<int>>& cpusInCores,
                 const std::map<int, int>& coreRefs) const {
    std::sort(cores.begin(), cores.end(), [&](int i, int j) {
      const size_t iCount = cpusInCores.at(i).size();
      const size_t jCount = cpusInCores.at(j).size();
      if (iCount != jCount) {
        return iCount > jCount;
      }
      if (maxRefCount_ > 1 && coreRefs.at(i) != coreRefs.at(j)) {
        return coreRefs.at(i) < coreRefs.at(j);
      }
      return i < j;
    });
  }

  // Groups cores by groupOf(first CPU of the core) and lays out each group's CPUs core by core.
  template <typename GroupOf>
  [[nodiscard]] std::vector<Group> coreGroups(const std::map<int, std::vector<int>>& cpusInCores,
                                              bool filterFullFreeCore, GroupOf groupOf) const {
    std::map<int, std::vector<int>> coresInGroups;
    for (const auto& [core, cpus] : cpusInCores) {
      if (filterFullFreeCore && static_cast<int>(cpus.size()) != topology_.cpusPerCore()) {
        continue;
      }
      coresInGroups[groupOf(allocatable_.at(cpus[0]))].push_back(core);
    }
    const std::map<int, int> coreRefs = coreRefCounts();
    std::vector<Group> groups;
    for (auto& [id, cores] : coresInGroups) {
      sortCores(cores, cpusInCores, coreRefs);
      Group group{id, allocatable_.at(cpusInCores.at(cores[0])[0]).socket, {}};
      for (int core : cores) {
        const std::vector<int>& cpus = cpusInCores.at(core);  // ascending: built from a map
        group.cpus.insert(group.cpus.end(), cpus.begin(), cpus.end());
      }
      groups.push_back(std::move(group));
    }
    return groups;
  }

  // Orders each group's CPUs (ascending, then by ref count) and extracts one per core.
  [[nodiscard]] std::vector<Group> finishCPUGroups(std::map<int, Group>& groups,
                                                   bool filterExclusive) const {
    std::vector<Group> out;
    for (auto& [id, group] : groups) {
      if (maxRefCount_ > 1) {
        sortCPUsByRefCount(group.cpus);
      }
      if (filterExclusive) {
        group.cpus = extractCPU(group.cpus);
      }
      out.push_back(std::move(group));
    }
    return out;
  }

  [[nodiscard]] static std::vector<std::vector<int>> cpusOf(std::vector<Group>& groups) {
    std::vector<std::vector<int>> out;
    out.reserve(groups.size());
    for (Group& group : groups) {
      out.push_back(std::move(group.cpus));
    }
    return out;
  }

  const CPUTopologyDetails& topology_;
  int maxRefCount_;
  int needed_;
  CPUExclusivePolicy exclusivePolicy_;
  bool exclusive_;
  bool mostAllocated_;
  std::map<int, FreeCPU> allocatable_;
  std::set<int> exclusiveInCores_;
  std::set<int> exclusiveInNodes_;
  std::set<int> result_;
};

// Takes the first `count` CPUs of the first list holding at least that many; false when none does.
bool takeFromFirstFitting(Accumulator& acc, const std::vector<std::vector<int>>& lists,
                          bool spread) {
  for (const std::vector<int>& cpus : lists) {
    if (static_cast<int>(cpus.size()) < acc.needed()) {
      continue;
    }
    const std::vector<int> ordered = spread ? acc.spreadCPUs(cpus) : cpus;
    acc.take(std::span<const int>(ordered).first(static_cast<size_t>(acc.needed())));
    return true;
  }
  return false;
}

// Step A: whole physical cores (FullPCPUs, or one CPU per core).
bool takeFullPCPUs(Accumulator& acc, const CPUTopologyDetails& topology) {
  if (acc.needed() <= topology.cpusPerNode()) {
    for (bool filterExclusive : {true, false}) {
      if (takeFromFirstFitting(acc, acc.freeCoresInNode(true, filterExclusive), false)) {
        return true;
      }
    }
  }
  if (acc.needed() <= topology.cpusPerSocket() &&
      takeFromFirstFitting(acc, acc.freeCoresInSocket(true), false)) {
    return true;
  }
  // Too big for one socket, or no socket fits: fill the sockets with the most free cores first.
  std::vector<std::vector<int>> freeCPUs = acc.freeCoresInSocket(true);
  std::stable_sort(freeCPUs.begin(), freeCPUs.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::vector<std::vector<int>> unsatisfied;
  for (const std::vector<int>& cpus : freeCPUs) {
    if (!acc.needs(static_cast<int>(cpus.size()))) {
      unsatisfied.push_back(cpus);
      continue;
    }
    acc.take(cpus);
    if (acc.isSatisfied()) {
      return true;
    }
  }
  const int cpusPerCore = topology.cpusPerCore();
  if (cpusPerCore < 1 || !acc.needs(cpusPerCore)) {
    return false;
  }
  // Then whole cores from the sockets with the fewest free cores.
  std::stable_sort(unsatisfied.begin(), unsatisfied.end(),
                   [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (const std::vector<int>& cpus : unsatisfied) {
    // Deviation: Go takes one more core from the next socket even after needs(cpusPerCore) turned
    // false, which over-allocates when the remainder is not a whole core; stop instead.
    if (!acc.needs(cpusPerCore)) {
      break;
    }
    const std::span<const int> all(cpus);
    for (size_t i = 0; i + static_cast<size_t>(cpusPerCore) <= all.size(); i += cpusPerCore) {
      acc.take(all.subspan(i, static_cast<size_t>(cpusPerCore)));
      if (acc.isSatisfied()) {
        return true;
      }
      if (!acc.needs(cpusPerCore)) {
        break;
      }
    }
  }
  return false;
}

// Step B: spread over cores within one NUMA node, else one socket.
bool takeSpreadByPCPUs(Accumulator& acc, const CPUTopologyDetails& topology) {
  if (acc.needed() <= topology.cpusPerNode()) {
    for (bool filterExclusive : {true, false}) {
      if (takeFromFirstFitting(acc, acc.freeCPUsInNode(filterExclusive), true)) {
        return true;
      }
    }
  }
  if (acc.needed() <= topology.cpusPerSocket()) {
    for (bool filterExclusive : {true, false}) {
      if (takeFromFirstFitting(acc, acc.freeCPUsInSocket(filterExclusive), true)) {
        return true;
      }
    }
  }
  return false;
}

cpuset::CpuSet resultOf(const Accumulator& acc) {
  return cpuset::CpuSet(acc.result());
}

}  // namespace

Result<cpuset::CpuSet> takeCPUs(const CPUTopologyDetails& topology, int maxRefCount,
                                const cpuset::CpuSet& available, const AllocatedCPUs& allocated,
                                int numCPUsNeeded, CPUBindPolicy bindPolicy,
                                CPUExclusivePolicy exclusivePolicy,
                                NUMAAllocateStrategy numaStrategy) {
  Accumulator acc(topology, maxRefCount, available, allocated, numCPUsNeeded, exclusivePolicy,
                  numaStrategy);
  if (acc.isSatisfied()) {
    return resultOf(acc);
  }
  if (acc.isFailed()) {
    return Status::resourceExhausted(kNotEnoughCPUs);
  }
  const bool fullPCPUs = bindPolicy == CPUBindPolicy::kFullPCPUs;
  if ((fullPCPUs || topology.cpusPerCore() == 1) && takeFullPCPUs(acc, topology)) {
    return resultOf(acc);
  }
  if (!fullPCPUs && takeSpreadByPCPUs(acc, topology)) {
    return resultOf(acc);
  }
  // Step C: one CPU at a time, cores near the CPUs already taken first.
  for (bool filterExclusive : {true, false}) {
    for (int cpu : acc.spreadCPUs(acc.freeCPUs(filterExclusive))) {
      if (acc.needs(1)) {
        acc.take(std::span<const int>(&cpu, 1));
      }
      if (acc.isSatisfied()) {
        return resultOf(acc);
      }
    }
  }
  return Status::resourceExhausted(kFailedToAllocateCPUs);
}

std::vector<int> spreadFreeCPUs(const CPUTopologyDetails& topology, int maxRefCount,
                                const cpuset::CpuSet& available, const AllocatedCPUs& allocated,
                                CPUExclusivePolicy exclusivePolicy,
                                NUMAAllocateStrategy numaStrategy, bool filterExclusive) {
  Accumulator acc(topology, maxRefCount, available, allocated, 0, exclusivePolicy, numaStrategy);
  return acc.spreadCPUs(acc.freeCPUs(filterExclusive));
}

}  // namespace koord::extender::plugins::node_numa_resource
