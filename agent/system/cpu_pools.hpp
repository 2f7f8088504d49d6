// CpuPools: the node's CPUs as its pods share them, computed once per NodeResourceTopology pass
// (reporters/cpu_allocation.hpp takes the claims of the node and its LSE/LSR pods out of the
// node's CPUs) and read by everyone who needs a pool: the reporter formats the
// node.koordinator.sh/cpu-shared-pools and be-cpu-shared-pools annotations from it, and the QoS
// strategies (the runtime reconciler's cpusets among them) get it through their
// StrategyContext. No one parses the annotations back.
//
// Pure data and a pure function; thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "agent/system/cpu_topology.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::system {

// The part of a pool on one (socket, NUMA node).
struct ZonePool {
  int32_t socket = 0;
  int32_t node = 0;
  cpuset::CpuSet cpus;  // never empty

  friend bool operator==(const ZonePool&, const ZonePool&) = default;
};

// An empty set means not known yet (before the first NodeResourceTopology pass), and a reader
// then leaves the cpusets it would have written alone.
struct CpuPools {
  cpuset::CpuSet online;       // the node's online CPUs
  cpuset::CpuSet shared_pool;  // the CPUs LS pods share
  cpuset::CpuSet be_pool;      // the CPUs BE pods share (a superset of shared_pool)
  // shared_pool and be_pool per (socket, NUMA node) that keeps at least one CPU, in (socket,
  // node) order: what the annotations list.
  std::vector<ZonePool> shared_zones;
  std::vector<ZonePool> be_zones;

  friend bool operator==(const CpuPools&, const CpuPools&) = default;
};

// The ids of `topology`'s online CPUs.
[[nodiscard]] cpuset::CpuSet onlineCpus(const CpuTopology& topology);

// The pools of `topology` once `ls_taken` is taken out of the LS pool and `be_taken` out of the
// BE pool (CPUs the node does not have are ignored).
[[nodiscard]] CpuPools makeCpuPools(const CpuTopology& topology, const cpuset::CpuSet& ls_taken,
                                    const cpuset::CpuSet& be_taken);

}  // namespace koord::agent::system
