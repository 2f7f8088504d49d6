// CPU topology discovery: logical CPUs with their core, socket and NUMA node, and the CPU caches,
// read from sysfs under an injected root (production: "/", tests: a temporary tree).
//
// What this reports is what koordlet reports in the node.koordinator.sh/cpu-topology annotation
// of the NodeResourceTopology ({"detail":[{"id","core","socket","node"}]}) and in cpu-basic-info.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::agent::system {

// One online logical CPU.
struct CpuInfo {
  int32_t id = 0;    // the logical CPU number (cpuN)
  int32_t core = 0;  // physical core, numbered 0.. across the whole node (see discoverCpuTopology)
  int32_t socket = 0;  // topology/physical_package_id
  int32_t node = 0;    // the NUMA node whose cpulist holds the CPU

  friend bool operator==(const CpuInfo&, const CpuInfo&) = default;
};

// One CPU cache, as cpuN/cache/indexK describes it.
struct CacheInfo {
  int32_t level = 0;                 // 1, 2, 3...
  std::string type;                  // "Data", "Instruction" or "Unified"
  int64_t size_bytes = 0;            // 0 when the kernel does not report a size
  std::vector<int32_t> shared_cpus;  // shared_cpu_list, ascending

  friend bool operator==(const CacheInfo&, const CacheInfo&) = default;
};

struct CpuTopology {
  std::vector<CpuInfo> cpus;      // online CPUs, sorted by id
  int32_t sockets = 0;            // distinct physical_package_id of online CPUs
  int32_t numa_nodes = 0;         // nodeN folders (CPU-less memory nodes included); 1 without any
  int32_t cores = 0;              // distinct physical cores of online CPUs
  int32_t threads_per_core = 0;   // the most online CPUs in one thread_siblings_list
  std::vector<CacheInfo> caches;  // distinct caches, sorted by (level, type, shared_cpus)
};

// Reads <root>/sys/devices/system/cpu: the online list, then for every online CPU N
// cpuN/topology/{physical_package_id,core_id,thread_siblings_list} and, where the folder exists,
// cpuN/cache/indexK/{level,type,size,shared_cpu_list} (size may be missing: 0); and
// <root>/sys/devices/system/node/nodeN/cpulist. Offline CPUs are skipped (their folders are not
// read). Without a node folder, or with no nodeN in it, there is one NUMA node 0 holding every CPU.
//
// Core numbering follows lscpu's Core column, which koordlet reports: physical cores are
// (physical_package_id, core_id) pairs, numbered 0, 1, ... in the order of their first CPU, so
// core ids are unique across sockets even where core_id repeats in every package.
// Caches are deduplicated by (level, type, shared_cpu_list).
//
// Errors name the file: kNotFound for a missing required file (online, a topology file, a
// nodeN/cpulist, a cache's level/type/shared_cpu_list), kInvalidArgument for content that does not
// parse (a non-numeric core_id, a malformed CPU list, an empty online list), and for an online CPU
// that no nodeN/cpulist holds or that two of them hold. Stateless; thread-safe.
[[nodiscard]] Result<CpuTopology> discoverCpuTopology(const std::filesystem::path& root);

}  // namespace koord::agent::system
