// calculateBatch: kubernetes.io/batch-cpu and kubernetes.io/batch-memory of one node, as
// Koordinator's slo-controller computes them (koordinator-reference §3(c), batchresource plugin),
// with every term of the formula kept for explanation (explain.hpp). Pure: no Kubernetes I/O;
// thread-safe; deterministic for the same arguments.
//
// Per resource (CPU in milli-cores, memory in bytes):
//   safetyMargin  = capacity * (100 - reclaimThresholdPercent) / 100
//   nodeReserved  = max(kubeletReserved, annoReserved)
//   systemUsed    = NodeMetric systemUsage + usage of host applications that are not batch/free
//   usage           : capacity - safetyMargin - max(systemUsed, nodeReserved) - hpUsed
//   request         : capacity - safetyMargin - nodeReserved - hpRequest
//   maxUsageRequest : capacity - safetyMargin - max(systemUsed, nodeReserved) - hpMaxUsedReq
//   then max(., 0); min(., capacity * batchThresholdPercent / 100) when that percent is set;
//   batch-cpu times the node's cpu-normalization-ratio when it is > 1 (Koordinator's rounding:
//   milli precision, then up to an integer); minus the node's third-party koord-batch allocations
//   (node.koordinator.sh/thirdPartyAllocations), not below 0.
// High-priority (HP) pods are the pods in phase Running or Pending whose priority class (with
// default) is not koord-batch or koord-free. A pod with a metric in NodeMetric status.podsMetric
// (matched by namespace/name) counts that usage; without one, its request. An LSE pod counts its
// CPU request instead of its CPU usage. hpMaxUsedReq sums max(request, usage) pod by pod (the
// request for a pod without a metric). Pod metrics that match no Running or Pending pod
// ("dangling": deleted or finished pods) count as HP usage in hpUsed and hpMaxUsedReq unless
// their own priority is koord-batch or koord-free.
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

// Every term of one batch resource. Amounts in milli-cores (CPU) or bytes (memory).
struct BatchTerms {
  Resource resource = Resource::kCPU;
  int64_t capacity = 0;
  int64_t reclaimThresholdPercent = 0;
  int64_t safetyMargin = 0;
  int64_t kubeletReserved = 0;
  int64_t annoReserved = 0;
  int64_t nodeReserved = 0;
  int64_t systemUsage = 0;           // NodeMetric systemUsage
  int64_t hostAppUsed = 0;           // host applications that are not batch/free
  int64_t systemUsed = 0;            // systemUsage + hostAppUsed
  int64_t systemUsedOrReserved = 0;  // max(systemUsed, nodeReserved)
  int64_t hpUsed = 0;                // includes hpDanglingUsed
  int64_t hpRequest = 0;
  int64_t hpMaxUsedReq = 0;  // includes hpDanglingUsed
  int64_t hpDanglingUsed = 0;
  CalculatePolicy policy = CalculatePolicy::kUsage;  // the policy applied (CPU "request" -> usage)
  int64_t byPolicy = 0;                              // the policy's formula, before max(., 0)
  int64_t clamped = 0;                               // max(byPolicy, 0)
  std::optional<int64_t> thresholdPercent;           // batch{CPU,Memory}ThresholdPercent
  int64_t thresholdCap = 0;                          // capacity * thresholdPercent / 100
  int64_t capped = 0;  // min(clamped, thresholdCap) when thresholdPercent is set, else clamped
  double normalizationRatio = 1.0;  // CPU: the ratio applied (1 when none or <= 1)
  int64_t normalized = 0;           // capped, times the ratio
  int64_t thirdPartyAllocated = 0;  // third-party koord-batch allocations subtracted
  int64_t value = 0;                // the result (0 when degraded)
};

struct BatchResult {
  // Set when batch resources must be removed from the node: "NodeMetric missing",
  // "NodeMetric stale: updated 20m ago, degradeTimeMinutes 15", "colocation disabled", ...
  std::optional<std::string> degradeReason;
  BatchTerms cpu;
  BatchTerms memory;
  int hpPods = 0;               // HP pods counted
  int hpPodsWithoutMetric = 0;  // of which charged their request
  int danglingMetrics = 0;      // HP pod metrics with no Running/Pending pod
  // Inputs that could not be read and were treated as absent (annotations, pod requests).
  std::vector<std::string> notes;

  // {kubernetes.io/batch-cpu: cpu.value (milli-cores as an integer), kubernetes.io/batch-memory:
  // memory.value (bytes, BinarySI)}; empty when degraded (Koordinator removes both).
  [[nodiscard]] resource::ResourceList resources() const;
};

// `metric` may be null (no NodeMetric for the node). The node's capacity and allocatable, its
// annotations node.koordinator.sh/reservation, cpu-normalization-ratio and thirdPartyAllocations,
// and every pod in `pods` are read; pods are expected to be the node's pods (not filtered here by
// spec.nodeName). When degraded, the terms are left at zero.
[[nodiscard]] BatchResult calculateBatch(const api::core::Node& node,
                                         const std::vector<api::core::Pod>& pods,
                                         const api::slo::NodeMetric* metric,
                                         const ColocationStrategy& strategy, TimePoint now);
// The same over pods held elsewhere (an informer cache).
[[nodiscard]] BatchResult calculateBatch(const api::core::Node& node, const PodRefs& pods,
                                         const api::slo::NodeMetric* metric,
                                         const ColocationStrategy& strategy, TimePoint now);

// The CPU normalization ratio batch-cpu is multiplied by (when > 1) in place of the node's
// cpu-normalization-ratio annotation: nullopt applies none.
struct CPURatioOverride {
  std::optional<double> ratio;
};
[[nodiscard]] BatchResult calculateBatch(const api::core::Node& node, const PodRefs& pods,
                                         const api::slo::NodeMetric* metric,
                                         const ColocationStrategy& strategy, TimePoint now,
                                         CPURatioOverride cpu_ratio);

// The node's cpu-normalization-ratio annotation as a number; nullopt when absent. A value that is
// not a finite number adds a note and reads as absent.
[[nodiscard]] std::optional<double> cpuNormalizationRatio(const api::core::Node& node,
                                                          std::vector<std::string>& notes);

// Koordinator's batch-cpu amplification: ceil(trunc(milli * 1000 * ratio) / 1000) for ratio > 1;
// `milli` unchanged otherwise.
[[nodiscard]] int64_t normalizeBatchCPU(int64_t milli, double ratio);

}  // namespace koord::manager::noderesource
