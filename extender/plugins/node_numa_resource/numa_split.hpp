// Splitting a pod's requests over the NUMA nodes of a hint, and scoring a hint (Koordinator's
// pkg/scheduler/plugins/nodenumaresource resource_manager.go tryBestToDistributeEvenly /
// splitQuantity / allocateCPUSet's per-NUMA check, and scoring.go with least_allocated.go /
// most_allocated.go for numaScoringStrategy).
//
// Contract (types and units as in numa_hints.hpp):
// * splitByHint: each requested resource that any NUMA node reports (allocatable or available)
//   is spread over the hint's k NUMA nodes: visiting them in "ascending available" order, the i-th
//   (0-based) gets min(available, remaining / (k - i)). CPU of a cpuset pod is split in whole
//   CPUs, and in whole cores of cpus_per_core CPUs with full_pcpus; other CPU in milli; memory and
//   the rest in their units. A NUMA node that gets nothing of any resource is left out; the result
//   is sorted by node id. Requested resources no NUMA node reports are ignored. Anything left over
//   is kResourceExhausted "Insufficient NUMA <name>" (several joined by ", ", sorted by name).
//   For a cpuset pod with free_cpus known (>= 0 on every node), the per-node whole-CPU shares,
//   capped at free_cpus, must add up to the CPU request, else kResourceExhausted "not enough cpus
//   available to satisfy request" (allocateCPUSet).
//   Quirk kept from Go (reference 3(a) "Multi-NUMA split"): the sort compares the availability of
//   the NUMA nodes whose *ids equal the positions* being compared, not of the nodes stored there;
//   the order is right only when ids and positions agree (e.g. hint {0,1}).
//   Output quantities: "cpu" from milli ("4" for 4000m), "memory" and "hugepages-*" BinarySI from
//   bytes, the rest DecimalSI.
// * scoreHint: k8s-style score in [0,100] over the hint's NUMA nodes: allocatable = sum of their
//   allocatable, requested = max(0, allocatable - available) + the pod's request; per weighted
//   resource (cpu, memory, ephemeral-storage; an extended resource only when the pod requests it;
//   skipped when its allocatable is 0) least: (alloc - req) * 100 / alloc (0 when req > alloc),
//   most: min(req, alloc) * 100 / alloc; the weighted integer average (0 without resources).
// Pure functions; no state.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "extender/plugins/node_numa_resource/numa_hints.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_numa_resource {

inline constexpr std::string_view kErrNotEnoughCPUsForNUMA =
    "not enough cpus available to satisfy request";

[[nodiscard]] Result<std::vector<api::extension::NUMANodeResource>> splitByHint(
    const NUMAHint& hint, const NUMARequest& request, const std::vector<NUMANodeResources>& nodes);

[[nodiscard]] int64_t scoreHint(bool most_allocated, const std::map<std::string, int64_t>& weights,
                                const NUMAHint& hint, const NUMARequest& request,
                                const std::vector<NUMANodeResources>& nodes);

// The amount of `resource` usable on `node`: available (at least 0), and for "cpu"
// at most free_cpus*1000 when free_cpus >= 0.
[[nodiscard]] int64_t usableAvailable(const NUMANodeResources& node, const std::string& resource);

}  // namespace koord::extender::plugins::node_numa_resource
