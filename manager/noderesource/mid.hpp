// calculateMid: kubernetes.io/mid-cpu and kubernetes.io/mid-memory of one node
// (koordinator-reference §3(c), midresource plugin), with every term kept for explanation. Pure;
// thread-safe.
//
// Per resource (CPU in milli-cores, memory in bytes), threshold = capacity * mid{CPU,Memory}
// ThresholdPercent / 100:
//   static  (midReclaimMode "static"):
//     mid = min(capacity * midStatic{CPU,Memory}ReservedPercent / 100, threshold)
//   dynamic (midReclaimMode unset or "dynamic"):
//     prodReclaimable = NodeMetric status.prodReclaimableMetric.resource (0 when not reported)
//     nodeUnused      = capacity - nodeUsage (0 when status.nodeMetric.nodeUsage lacks it)
//     unallocated     = max(capacity - max(systemUsed, nodeReserved) - prodRequest, 0)
//     mid = min(min(prodReclaimable, nodeUnused) + unallocated * midUnallocatedPercent / 100,
//               threshold)
//   then max(mid, 0).
// systemUsed is the NodeMetric systemUsage plus the host applications that are not mid, batch or
// free; nodeReserved as for batch; prodRequest sums the requests of the Running and Pending pods
// whose priority class (with default) is not koord-mid, koord-batch or koord-free. Both modes
// degrade as batch does (colocation disabled, NodeMetric missing or stale).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/noderesource/node_inputs.hpp"
#include "manager/noderesource/strategy.hpp"

namespace koord::manager::noderesource {

struct MidTerms {
  Resource resource = Resource::kCPU;
  MidReclaimMode mode = MidReclaimMode::kDynamic;
  int64_t capacity = 0;
  int64_t thresholdPercent = 0;
  int64_t thresholdCap = 0;
  // Static mode.
  int64_t staticReservedPercent = 0;
  int64_t staticReserved = 0;
  // Dynamic mode.
  int64_t prodReclaimable = 0;
  bool prodReclaimableReported = false;
  int64_t nodeUsage = 0;
  bool nodeUsageReported = false;
  int64_t nodeUnused = 0;
  int64_t kubeletReserved = 0;
  int64_t annoReserved = 0;
  int64_t nodeReserved = 0;
  int64_t systemUsage = 0;
  int64_t hostAppUsed = 0;
  int64_t systemUsed = 0;
  int64_t systemUsedOrReserved = 0;
  int64_t prodRequest = 0;
  int64_t unallocated = 0;
  int64_t unallocatedPercent = 0;
  int64_t unallocatedShare = 0;  // unallocated * unallocatedPercent / 100
  int64_t reclaimable = 0;       // min(prodReclaimable, nodeUnused) + unallocatedShare
  int64_t value = 0;             // the result (0 when degraded)
};

struct MidResult {
  std::optional<std::string> degradeReason;  // as BatchResult::degradeReason
  MidTerms cpu;
  MidTerms memory;
  std::vector<std::string> notes;

  // {kubernetes.io/mid-cpu: milli-cores as an integer, kubernetes.io/mid-memory: bytes}; empty
  // when degraded.
  [[nodiscard]] resource::ResourceList resources() const;
};

// As calculateBatch: `metric` may be null; pods are the node's pods.
[[nodiscard]] MidResult calculateMid(const api::core::Node& node,
                                     const std::vector<api::core::Pod>& pods,
                                     const api::slo::NodeMetric* metric,
                                     const ColocationStrategy& strategy, TimePoint now);
[[nodiscard]] MidResult calculateMid(const api::core::Node& node, const PodRefs& pods,
                                     const api::slo::NodeMetric* metric,
                                     const ColocationStrategy& strategy, TimePoint now);

}  // namespace koord::manager::noderesource
