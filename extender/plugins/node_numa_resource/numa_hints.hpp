// NUMA hints for a pod on one node and the topology policy's admit decision (Koordinator's
// pkg/scheduler/plugins/nodenumaresource resource_manager.go generateResourceHints and
// pkg/scheduler/frameworkext/topologymanager policy*.go / manager.go), without any cache or
// framework: the caller passes the node's NUMA nodes with what is still available on each.
//
// Contract:
// * NUMA nodes are identified by id (0..63); a hint's mask has bit i set for NUMA node id i.
//   `nodes` may come in any order; ids must be unique.
// * Units: "cpu" in milli, "memory" and other resources in their base units (bytes, counts).
// * A cpuset pod (NUMARequest::cpu_bind) has its CPU request in whole CPUs. When a node's
//   free_cpus >= 0 its usable "cpu" is capped at free_cpus*1000 (Koordinator trims NUMA CPU to the
//   CPUs the required bind policy may use; pass -1 to skip that), and a hint is only possible
//   when each NUMA node's whole-CPU share fits its free_cpus.
// * NUMARequest::full_pcpus means a *required* FullPCPUs bind policy: shares are whole cores of
//   cpus_per_core CPUs. It has no effect without cpu_bind.
// * Hints: every non-empty subset of the NUMA nodes (by size, then lexicographically) on which
//   the request can be split (numa_split.hpp) is a hint for each requested resource that the
//   NUMA nodes report, unless one of its NUMA nodes has none of that resource available. A hint is
//   preferred when it has the fewest NUMA nodes among that resource's hints, or always under
//   Restricted. Hints are scored with `scoring` (Koordinator's numaScoringStrategy, by default
//   LeastAllocated with cpu and memory weighted 1); among equally narrow hints the higher score
//   wins, then the lower mask.
// * Merge and admit as the topology manager: the narrowest preferred combination of the
//   resources' hints. A combination is preferred only if all its hints are preferred and equal,
//   and, with NumaTopologyExclusive::kRequired, when it does not put a multi-NUMA hint on a
//   NUMA node in status kSingle nor a single-NUMA hint on a node in status kShared.
//   - kNone: no hint is computed; returns {mask 0, preferred true} (no NUMA affinity).
//   - kBestEffort: always admitted (falls back to all NUMA nodes, not preferred).
//   - kRestricted: admitted only with a preferred hint.
//   - kSingleNUMANode: only single-NUMA hints count; admitted only with a preferred one. When
//     the best hint is every NUMA node of the node (a one-NUMA machine) the mask is 0, as
//     Koordinator turns it into "no affinity".
//   The admitted hint must then be splittable (numa_split.hpp), else its failure is returned.
// * Refusals carry Koordinator's texts (several reasons joined by ", "):
//   - no NUMA nodes: kFailedPrecondition "node(s) missing NUMA resources" (unresolvable).
//   - a requested resource with no possible hint: kResourceExhausted "Unsatisfied NUMA <name>".
//   - no preferred hint: kResourceExhausted "Unaligned NUMA Hint cause <summary>", where the
//     summary lists per resource (sorted) "<name> prefer [<masks>] among [<masks>]", masks
//     printed as Go's bitmask ("01", "10", "0101"), joined by "," (SingleNUMANode) or " & "
//     (Restricted).
//   - split failures: kResourceExhausted "Insufficient NUMA <name>" or "not enough cpus available
//     to satisfy request".
// Pure functions; no state.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_numa_resource {

// Reference 3(a) exclusivity: idle, used by multi-NUMA pods (shared) or by single-NUMA pods.
enum class NUMANodeStatus { kIdle, kShared, kSingle };

struct NUMANodeResources {
  int node = 0;
  std::map<std::string, int64_t> allocatable;
  std::map<std::string, int64_t> available;
  NUMANodeStatus status = NUMANodeStatus::kIdle;
  // Whole CPUs usable for a cpuset pod on this NUMA node (-1 = not a cpuset pod).
  int free_cpus = -1;
};

struct NUMAHint {
  uint64_t mask = 0;  // bit i = NUMA node id i; 0 = no NUMA affinity
  bool preferred = false;

  bool operator==(const NUMAHint&) const = default;
};

struct NUMARequest {
  // "cpu" in milli, "memory" in bytes, others in their units.
  std::map<std::string, int64_t> requests;
  bool cpu_bind = false;    // the pod gets a cpuset (whole CPUs)
  bool full_pcpus = false;  // required FullPCPUs: split CPUs in whole cores
  int cpus_per_core = 1;
};

// Koordinator's numaScoringStrategy (args default: LeastAllocated, cpu 1, memory 1).
struct NUMAScoring {
  bool most_allocated = false;
  std::map<std::string, int64_t> weights = {{"cpu", 1}, {"memory", 1}};
};

// One hint for one resource, as generateResourceHints produces it.
struct ResourceHint {
  uint64_t mask = 0;
  bool preferred = false;
  int64_t score = 0;

  bool operator==(const ResourceHint&) const = default;
};

inline constexpr std::string_view kErrMissingNUMAResources = "node(s) missing NUMA resources";

// Hints per requested resource that the NUMA nodes report (see the contract). An empty vector
// means no NUMA placement is possible for that resource; a resource missing from the map has no
// NUMA preference.
[[nodiscard]] std::map<std::string, std::vector<ResourceHint>> generateResourceHints(
    api::extension::NUMATopologyPolicy policy, const NUMARequest& request,
    const std::vector<NUMANodeResources>& nodes, const NUMAScoring& scoring = {});

// Generates the hints, merges them across resources and applies the policy (see the contract).
[[nodiscard]] Result<NUMAHint> admitByNUMA(api::extension::NUMATopologyPolicy policy,
                                           api::extension::NumaTopologyExclusive exclusive,
                                           const NUMARequest& request,
                                           const std::vector<NUMANodeResources>& nodes,
                                           const NUMAScoring& scoring = {});

// Go's bitmask String(): binary, zero-padded to an even width of at least 2 ("01", "0101").
[[nodiscard]] std::string formatNUMAMask(uint64_t mask);

}  // namespace koord::extender::plugins::node_numa_resource
