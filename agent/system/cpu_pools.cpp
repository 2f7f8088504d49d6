#include "agent/system/cpu_pools.hpp"

#include <map>
#include <set>
#include <utility>

namespace koord::agent::system {

namespace {

std::vector<ZonePool> zonePools(const CpuTopology& topology, const cpuset::CpuSet& taken) {
  std::map<std::pair<int32_t, int32_t>, std::set<int>> by_zone;
  for (const CpuInfo& cpu : topology.cpus) {
    if (!taken.contains(cpu.id)) {
      by_zone[{cpu.socket, cpu.node}].insert(cpu.id);
    }
  }
  std::vector<ZonePool> out;
  out.reserve(by_zone.size());
  for (auto& [key, ids] : by_zone) {
    out.push_back({key.first, key.second, cpuset::CpuSet(std::move(ids))});
  }
  return out;
}

cpuset::CpuSet unionOf(const std::vector<ZonePool>& zones) {
  std::set<int> ids;
  for (const ZonePool& zone : zones) {
    for (int cpu : zone.cpus.cpus()) {
      ids.insert(cpu);
    }
  }
  return cpuset::CpuSet(std::move(ids));
}

}  // namespace

cpuset::CpuSet onlineCpus(const CpuTopology& topology) {
  std::set<int> ids;
  for (const CpuInfo& cpu : topology.cpus) {
    ids.insert(cpu.id);
  }
  return cpuset::CpuSet(std::move(ids));
}

CpuPools makeCpuPools(const CpuTopology& topology, const cpuset::CpuSet& ls_taken,
                      const cpuset::CpuSet& be_taken) {
  CpuPools pools;
  pools.online = onlineCpus(topology);
  pools.shared_zones = zonePools(topology, ls_taken);
  pools.be_zones = zonePools(topology, be_taken);
  pools.shared_pool = unionOf(pools.shared_zones);
  pools.be_pool = unionOf(pools.be_zones);
  return pools;
}

}  // namespace koord::agent::system
