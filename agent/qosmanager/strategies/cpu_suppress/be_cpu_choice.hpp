// Which CPUs BE keeps under the cpuset policy: koordlet's calculateBESuppressCPUSetPolicy.
//
// The candidates are bucketed per (NUMA node, socket) with the topology's CPU facts; each bucket
// is ordered by (core, CPU id), and the buckets by size (largest first), then by their first CPU
// id. CPUs are then taken round-robin across the buckets, starting at the first:
//   1. whole HT pairs: from each bucket in turn, the first two free CPUs of one core, while two
//      or more CPUs are still needed and a full round still finds a pair;
//   2. single CPUs: from each bucket in turn (continuing where step 1 stopped), its first free
//      CPU, until enough are taken or a full round finds none.
// So BE's CPUs spread over NUMA nodes and sockets, sharing physical cores with each other rather
// than with LS. A candidate the topology does not know is a core of its own in bucket (0, 0).
//
// Deterministic; pure; thread-safe.
#pragma once

#include <cstdint>

#include "agent/system/cpu_topology.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

// `count` CPUs of `candidates` (all of them when there are fewer; none when count <= 0).
[[nodiscard]] cpuset::CpuSet chooseBeCpus(int64_t count, const cpuset::CpuSet& candidates,
                                          const system::CpuTopology& topology);

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
