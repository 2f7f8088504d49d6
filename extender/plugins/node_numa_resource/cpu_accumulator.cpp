// Port of Koordinator's cpu_accumulator.go take steps (takeCPUs, steps A/B/C); the accumulator
// state and the free-CPU listings the steps pick from are in cpu_accumulator_listings.cpp. The
// function and step names follow the Go code.
#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "extender/plugins/node_numa_resource/cpu_accumulator_listings.hpp"

namespace koord::extender::plugins::node_numa_resource {
namespace {

using api::extension::CPUBindPolicy;
using api::extension::CPUExclusivePolicy;
using cpu_accumulator::Accumulator;

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
