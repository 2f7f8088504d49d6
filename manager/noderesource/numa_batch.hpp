// NUMA-level batch resources (Koordinator's batchresource plugin, calculateOnNUMALevel and
// UpdateNRTZoneListIfNeeded): kubernetes.io/batch-cpu and kubernetes.io/batch-memory per zone of
// the node's NodeResourceTopology (topology.node.k8s.io), so that NUMA-aware placement of batch
// pods sees how much batch each NUMA node offers. Pure; thread-safe.
//
// Koordinator has no NUMA-level metrics, so it approximates, and so does this:
// - a zone's capacity is the allocatable of its "cpu" and "memory" resources in the NRT;
// - the safety margin is the zone's capacity x (100 - reclaimThresholdPercent) / 100;
// - the system usage (NodeMetric systemUsage + host applications that are not batch/free) and
//   the node reservation (max(kubelet reserved, annotation reserved)) are divided evenly over the
//   zones (rounded up);
// - a pod's request and usage go to the NUMA nodes of its scheduling.koordinator.sh/resource-status
//   numaNodeResources, divided evenly among them (rounded up); a pod without (valid) NUMA nodes is
//   divided evenly over all zones; a pod without a metric counts its request as usage;
// - high-priority pods (not koord-batch / koord-free), LSE pods (CPU request instead of usage),
//   dangling metrics (divided evenly) and the calculate policies are as for the node (batch.hpp);
//   per zone: usage: capacity - margin - max(systemUsed, reserved) - hpUsed; request: capacity -
//   margin - reserved - hpRequest; maxUsageRequest: capacity - margin - max(systemUsed, reserved) -
//   hpMaxUsedReq; then max(., 0). Koordinator applies neither the batch threshold percents nor
//   third-party allocations per zone, and neither does this.
// Nothing is computed (nullopt) when the NRT has no zone with a "cpu" or "memory" resource.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "manager/noderesource/node_inputs.hpp"
#include "manager/noderesource/strategy.hpp"

namespace koord::manager::noderesource {

struct ZoneBatch {
  std::string zone;
  int64_t capacityCPU = 0;  // milli-cores
  int64_t capacityMemory = 0;
  int64_t cpu = 0;     // batch-cpu in milli-cores, before CPU normalization
  int64_t memory = 0;  // batch-memory in bytes
};

// `metric` must be a NodeMetric the node-level calculation did not degrade on.
[[nodiscard]] std::optional<std::vector<ZoneBatch>> calculateZoneBatch(
    const api::core::Node& node, const PodRefs& pods, const api::slo::NodeMetric& metric,
    const ColocationStrategy& strategy, const api::topology::NodeResourceTopology& nrt);

// Writes `zones` into `nrt`'s zone resources named kubernetes.io/batch-cpu (times
// `cpu_normalization_ratio` when it is > 1, milli precision) and kubernetes.io/batch-memory,
// capacity = allocatable = available; a zone of `nrt` absent from `zones` has its batch
// resources set to 0 (Koordinator resets them to zero rather than deleting them). Every other
// resource, zone field and zone is left as it is; a new resource entry keeps the zone's resources
// sorted by name. An existing value is replaced only when it moved by more than
// `diff_threshold` of itself (in milli units). Returns true when anything changed.
bool applyZoneBatch(api::topology::NodeResourceTopology& nrt, const std::vector<ZoneBatch>& zones,
                    double cpu_normalization_ratio, double diff_threshold);

}  // namespace koord::manager::noderesource
