// The accumulator state and free-CPU listings of Koordinator's cpu_accumulator.go; the function
// names follow the Go code.
#include "extender/plugins/node_numa_resource/cpu_accumulator_listings.hpp"

#include <algorithm>
#include <utility>

namespace koord::extender::plugins::node_numa_resource::cpu_accumulator {

using api::extension::CPUExclusivePolicy;

Accumulator::Accumulator(const CPUTopologyDetails& topology, int maxRefCount,
                         const cpuset::CpuSet& available, const AllocatedCPUs& allocated,
                         int numCPUsNeeded, CPUExclusivePolicy exclusivePolicy,
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

void Accumulator::take(std::span<const int> cpus) {
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

bool Accumulator::isExclusivePCPULevel(const FreeCPU& info) const {
  return exclusivePolicy_ == CPUExclusivePolicy::kPCPULevel &&
         exclusiveInCores_.count(info.core) != 0;
}

bool Accumulator::isExclusiveNUMANodeLevel(const FreeCPU& info) const {
  return exclusivePolicy_ == CPUExclusivePolicy::kNUMANodeLevel &&
         exclusiveInNodes_.count(info.node) != 0;
}

std::map<int, int> Accumulator::coreRefCounts() const {
  std::map<int, int> refs;
  for (const auto& [cpu, info] : allocatable_) {
    refs[info.core] += info.refCount;
  }
  return refs;
}

void Accumulator::sortCPUsByRefCount(std::vector<int>& cpus) const {
  std::sort(cpus.begin(), cpus.end(), [&](int i, int j) {
    const int iRef = allocatable_.at(i).refCount;
    const int jRef = allocatable_.at(j).refCount;
    return iRef != jRef ? iRef < jRef : i < j;
  });
}

std::vector<int> Accumulator::extractCPU(const std::vector<int>& cpus) const {
  std::vector<int> selected;
  std::set<int> cores;
  for (int cpu : cpus) {
    if (cores.insert(allocatable_.at(cpu).core).second) {
      selected.push_back(cpu);
    }
  }
  return selected;
}

void Accumulator::sortCores(std::vector<int>& cores,
                            const std::map<int, std::vector<int>>& cpusInCores,
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

template <typename GroupOf>
std::vector<Accumulator::Group> Accumulator::coreGroups(
    const std::map<int, std::vector<int>>& cpusInCores, bool filterFullFreeCore,
    GroupOf groupOf) const {
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

std::vector<Accumulator::Group> Accumulator::finishCPUGroups(std::map<int, Group>& groups,
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

std::vector<std::vector<int>> Accumulator::cpusOf(std::vector<Group>& groups) {
  std::vector<std::vector<int>> out;
  out.reserve(groups.size());
  for (Group& group : groups) {
    out.push_back(std::move(group.cpus));
  }
  return out;
}

std::vector<std::vector<int>> Accumulator::freeCoresInNode(bool filterFullFreeCore,
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

std::vector<std::vector<int>> Accumulator::freeCoresInSocket(bool filterFullFreeCore) const {
  std::map<int, std::vector<int>> cpusInCores;
  for (const auto& [cpu, info] : allocatable_) {
    cpusInCores[info.core].push_back(cpu);
  }
  std::vector<Group> groups =
      coreGroups(cpusInCores, filterFullFreeCore, [](const FreeCPU& info) { return info.socket; });
  std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
    if (a.cpus.size() != b.cpus.size()) {
      return byStrategy(static_cast<int>(a.cpus.size()), static_cast<int>(b.cpus.size()));
    }
    return a.id < b.id;
  });
  return cpusOf(groups);
}

std::vector<std::vector<int>> Accumulator::freeCPUsInNode(bool filterExclusive) const {
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

std::vector<std::vector<int>> Accumulator::freeCPUsInSocket(bool filterExclusive) const {
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

std::vector<int> Accumulator::freeCPUs(bool filterExclusive) const {
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

std::vector<int> Accumulator::spreadCPUs(const std::vector<int>& cpus) const {
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

}  // namespace koord::extender::plugins::node_numa_resource::cpu_accumulator
