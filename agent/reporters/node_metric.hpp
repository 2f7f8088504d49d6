// The NodeMetric status koord-agent reports, read from the metric cache (a pure function of the
// cache's content and the time: no I/O).
//
// As koordlet's states_nodemetric.go does:
// - nodeMetric.nodeUsage / systemUsage: the average over the last aggregateDurationSeconds
//   (default 300 s, at least 60 s) of the node's and the system's cpu (cores, as a milli-quantity)
//   and memory (bytes);
// - aggregatedNodeUsages / aggregatedSystemUsages: for each duration of
//   spec.metricCollectPolicy.nodeAggregatePolicy, avg/p50/p90/p95/p99 over [now - duration, now],
//   left out while the cache holds less than half of that duration;
// - podsMetric: each pod on the node with samples in the window, its average usage, its
//   priority class (koord-prod, ...) and QoS class (LS, BE, ...);
// - updateTime: now.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "agent/metriccache/metric_cache.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"

namespace koord::agent::reporters {

// The collect policy with koordlet's defaults and minimums applied.
struct EffectiveCollectPolicy {
  std::chrono::seconds aggregate_duration{300};  // at least 60 s
  std::chrono::seconds report_interval{60};      // at least 30 s
  std::vector<std::chrono::seconds> aggregate_durations;
  std::vector<std::string> aggregate_duration_texts;  // as written in the spec
};

// Reads spec.metricCollectPolicy (absent: the defaults); unparsable durations are skipped.
[[nodiscard]] EffectiveCollectPolicy effectivePolicy(const api::slo::NodeMetricSpec& spec);

[[nodiscard]] api::slo::NodeMetricStatus buildNodeMetricStatus(
    const metriccache::MetricCache& cache, const EffectiveCollectPolicy& policy,
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods, metriccache::TimePoint now);

}  // namespace koord::agent::reporters
