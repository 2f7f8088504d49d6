#include "agent/system/cpu_topology.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "agent/system/sysfs_file.hpp"

namespace koord::agent::system {

namespace {

namespace fs = std::filesystem;

using cpuset::CpuSet;

fs::path cpuRoot(const fs::path& root) {
  return root / "sys" / "devices" / "system" / "cpu";
}

fs::path nodeRoot(const fs::path& root) {
  return root / "sys" / "devices" / "system" / "node";
}

fs::path cpuDir(const fs::path& root, int32_t cpu) {
  return cpuRoot(root) / ("cpu" + std::to_string(cpu));
}

// A sysfs integer that must fit an int32 and be at least `min`.
Result<int32_t> readInt32(const fs::path& path, int64_t min) {
  KOORD_ASSIGN_OR_RETURN(int64_t value, readSysInt(path));
  if (value < min || value > std::numeric_limits<int32_t>::max()) {
    return Status::invalidArgument("failed to parse '" + path.string() +
                                   "': " + std::to_string(value) + " is out of range");
  }
  return static_cast<int32_t>(value);
}

// The NUMA node of every online CPU, and the number of nodes.
struct NodeMap {
  std::map<int32_t, int32_t> node_of_cpu;
  int32_t nodes = 0;
};

Result<NodeMap> readNodeMap(const fs::path& root, const CpuSet& online) {
  const fs::path dir = nodeRoot(root);
  auto listed = listNumbered(dir, "node");
  if (!listed.ok() && listed.status().code() != StatusCode::kNotFound) {
    return listed.status();
  }
  NodeMap map;
  if (!listed.ok() || listed->empty()) {
    for (int cpu : online.cpus()) {
      map.node_of_cpu[cpu] = 0;
    }
    map.nodes = 1;
    return map;
  }
  map.nodes = static_cast<int32_t>(listed->size());
  for (int32_t node : *listed) {
    const fs::path cpulist = dir / ("node" + std::to_string(node)) / "cpulist";
    KOORD_ASSIGN_OR_RETURN(CpuSet cpus, readSysCpuList(cpulist));
    const CpuSet online_cpus = cpus.intersection(online);
    for (int cpu : online_cpus.cpus()) {
      auto [it, inserted] = map.node_of_cpu.emplace(cpu, node);
      if (!inserted) {
        return Status::invalidArgument("failed to parse '" + cpulist.string() + "': cpu " +
                                       std::to_string(cpu) + " is also in node" +
                                       std::to_string(it->second));
      }
    }
  }
  for (int cpu : online.cpus()) {
    if (map.node_of_cpu.count(cpu) == 0) {
      return Status::invalidArgument("failed to find the NUMA node of cpu " + std::to_string(cpu) +
                                     ": no '" + (dir / "node*" / "cpulist").string() +
                                     "' holds it");
    }
  }
  return map;
}

// The caches one CPU reports; none when it has no cache folder.
Status readCaches(const fs::path& cpu_dir, std::vector<CacheInfo>* out) {
  const fs::path cache_dir = cpu_dir / "cache";
  auto indexes = listNumbered(cache_dir, "index");
  if (!indexes.ok()) {
    return indexes.status().code() == StatusCode::kNotFound ? Status::ok() : indexes.status();
  }
  for (int32_t index : *indexes) {
    const fs::path dir = cache_dir / ("index" + std::to_string(index));
    CacheInfo cache;
    KOORD_ASSIGN_OR_RETURN(cache.level, readInt32(dir / "level", 0));
    KOORD_ASSIGN_OR_RETURN(cache.type, readSysString(dir / "type"));
    auto size_text = readSysString(dir / "size");
    if (size_text.ok()) {
      KOORD_ASSIGN_OR_RETURN(cache.size_bytes, parseSysSize(*size_text, dir / "size"));
    } else if (size_text.status().code() != StatusCode::kNotFound) {
      return size_text.status();
    }
    KOORD_ASSIGN_OR_RETURN(CpuSet shared, readSysCpuList(dir / "shared_cpu_list"));
    for (int cpu : shared.cpus()) {
      cache.shared_cpus.push_back(cpu);
    }
    out->push_back(std::move(cache));
  }
  return Status::ok();
}

bool cacheLess(const CacheInfo& a, const CacheInfo& b) {
  return std::tie(a.level, a.type, a.shared_cpus, a.size_bytes) <
         std::tie(b.level, b.type, b.shared_cpus, b.size_bytes);
}

}  // namespace

Result<CpuTopology> discoverCpuTopology(const fs::path& root) {
  const fs::path online_path = cpuRoot(root) / "online";
  KOORD_ASSIGN_OR_RETURN(CpuSet online, readSysCpuList(online_path));
  if (online.empty()) {
    return Status::invalidArgument("failed to parse '" + online_path.string() + "': no online CPU");
  }
  KOORD_ASSIGN_OR_RETURN(NodeMap nodes, readNodeMap(root, online));

  CpuTopology topology;
  topology.numa_nodes = nodes.nodes;
  std::map<std::pair<int32_t, int32_t>, int32_t> core_index;  // (socket, core_id) -> core
  std::set<int32_t> sockets;
  std::vector<CacheInfo> caches;
  for (int cpu : online.cpus()) {
    const fs::path dir = cpuDir(root, cpu);
    const fs::path topo = dir / "topology";
    CpuInfo info;
    info.id = cpu;
    info.node = nodes.node_of_cpu.at(cpu);
    KOORD_ASSIGN_OR_RETURN(info.socket, readInt32(topo / "physical_package_id", 0));
    KOORD_ASSIGN_OR_RETURN(int32_t core_id, readInt32(topo / "core_id", 0));
    KOORD_ASSIGN_OR_RETURN(CpuSet siblings, readSysCpuList(topo / "thread_siblings_list"));
    if (!siblings.contains(cpu)) {
      return Status::invalidArgument(
          "failed to parse '" + (topo / "thread_siblings_list").string() + "': '" +
          siblings.toString() + "' does not hold cpu " + std::to_string(cpu));
    }
    const auto next = static_cast<int32_t>(core_index.size());
    info.core = core_index.emplace(std::make_pair(info.socket, core_id), next).first->second;
    sockets.insert(info.socket);
    topology.threads_per_core = std::max(
        topology.threads_per_core, static_cast<int32_t>(siblings.intersection(online).size()));
    KOORD_RETURN_IF_ERROR(readCaches(dir, &caches));
    topology.cpus.push_back(info);
  }
  topology.sockets = static_cast<int32_t>(sockets.size());
  topology.cores = static_cast<int32_t>(core_index.size());

  std::sort(caches.begin(), caches.end(), cacheLess);
  for (CacheInfo& cache : caches) {
    if (!topology.caches.empty()) {
      const CacheInfo& last = topology.caches.back();
      if (last.level == cache.level && last.type == cache.type &&
          last.shared_cpus == cache.shared_cpus) {
        continue;
      }
    }
    topology.caches.push_back(std::move(cache));
  }
  return topology;
}

}  // namespace koord::agent::system
