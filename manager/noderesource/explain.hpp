// Human-readable explanations of a batch or mid calculation: the formula with every term's
// value, one resource per first line, indented detail lines below it, and the value written to
// the Node last. For `kubectl describe node` annotations and the offline `calculate` command.
// Pure; thread-safe. CPU amounts print as milli-cores ("9200m"), memory as Kubernetes quantities
// of bytes ("35Gi").
//
// Batch, per resource (example: 32 cores, policy usage):
//   batch-cpu = capacity 32000m - safety margin 12800m - system used 2000m - high-priority used
//     8000m = 9200m (policy usage)
//     system used 2000m = NodeMetric systemUsage 2000m + host applications 0m; node reserved
//       1000m = max(kubelet reserved 1000m, annotation reserved 0m)
//     high-priority pods 3 (1 without metric: request counted), dangling metrics 0 (0m):
//       used 8000m, requested 9000m, max(used, requested) 10000m
//     => kubernetes.io/batch-cpu: 9200
// (each line is one string; the wrapping above is only for this comment). The third term of the
// first line is "system used" or "node reserved", whichever max(systemUsed, nodeReserved) took
// (always "node reserved" for the request policy); the fourth is "high-priority used",
// "high-priority requested" or "high-priority max(used, requested)". Lines for a negative result
// ("  below zero: 0m"), the threshold cap, the normalization ratio and third-party allocations
// come before "=>" when they apply. Degraded: one line per resource,
// "batch-cpu: removed (NodeMetric missing)". Notes follow as "note: ...".
#pragma once

#include <string>
#include <vector>

#include "manager/noderesource/batch.hpp"
#include "manager/noderesource/mid.hpp"

namespace koord::manager::noderesource {

[[nodiscard]] std::vector<std::string> explainBatch(const BatchResult& result);
[[nodiscard]] std::vector<std::string> explainBatchTerms(const BatchTerms& terms, int hp_pods,
                                                         int hp_pods_without_metric,
                                                         int dangling_metrics);

// Mid, per resource:
//   static:  "mid-cpu = min(static reserved 20% of capacity 32000m = 6400m, threshold 100% of
//            capacity = 32000m) = 6400m (mode static)"
//   dynamic: "mid-cpu = min(min(prod reclaimable 4000m, node unused 10000m) + 50% of unallocated
//            10000m = 5000m, threshold 100% of capacity = 32000m) = 9000m (mode dynamic)",
//            then "  node unused 10000m = capacity 32000m - node usage 22000m" and
//            "  unallocated 10000m = max(capacity 32000m - max(system used, node reserved) 2000m
//            - prod requests 20000m, 0)"
//   then "  => kubernetes.io/mid-cpu: 9000". "(not reported)" follows an input NodeMetric lacks.
[[nodiscard]] std::vector<std::string> explainMid(const MidResult& result);
[[nodiscard]] std::vector<std::string> explainMidTerms(const MidTerms& terms);

}  // namespace koord::manager::noderesource
