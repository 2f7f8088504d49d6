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
#include "agent/reporters/problem_events.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"

namespace koord::agent::reporters {

// Bounds on a collect policy that koord-manager (or anyone who can write the NodeMetric) sets.
// koordlet takes the values as written; an int64 near its maximum overflows the conversion to a
// time point there (the report interval turns negative: a write every loop; the window start
// turns into the future: an empty nodeUsage), so the agent holds every value to a range:
// - reportIntervalSeconds in [30 s, 1 day];
// - aggregateDurationSeconds in [60 s, the retention];
// - nodeAggregatePolicy.durations: Go durations > 0, each at most the retention (longer ones are
//   reported under the retention, e.g. "1h0m0s"), duplicates (after that) dropped, the first
//   kMaxAggregateDurations distinct ones kept.
// The retention is what the metric cache's node series hold (3,600 samples at the collect
// interval: 1 h by default); a longer window could never be filled.
inline constexpr std::chrono::seconds kMinReportInterval{30};
inline constexpr std::chrono::seconds kMaxReportInterval{24 * 3600};
inline constexpr std::chrono::seconds kMinAggregateDuration{60};
inline constexpr size_t kMaxAggregateDurations = 8;
// The status the agent writes stays under this many bytes of JSON (etcd refuses requests over
// 1.5 MiB; the spec and metadata travel with the status): see fitNodeMetricStatus.
inline constexpr size_t kMaxNodeMetricStatusBytes = size_t{512} * 1024;

struct CollectPolicyLimits {
  std::chrono::seconds retention{3600};  // at least kMinAggregateDuration is used
};

// The collect policy with koordlet's defaults and the bounds above applied.
struct EffectiveCollectPolicy {
  std::chrono::seconds aggregate_duration{300};  // [60 s, retention]
  std::chrono::seconds report_interval{60};      // [30 s, 1 day]
  std::vector<std::chrono::seconds> aggregate_durations;
  std::vector<std::string> aggregate_duration_texts;  // as written in the spec (or the retention)
  // One line per field that was not used as written: the field, the value and what was used
  // instead ("spec.metricCollectPolicy.reportIntervalSeconds: 9223372036854775807 is above the
  // maximum of 86400; used 86400"); at most about 1 KiB each.
  std::vector<std::string> corrections;
};

// Reads spec.metricCollectPolicy (absent: the defaults). Never fails: a bad value is replaced and
// named in `corrections`.
[[nodiscard]] EffectiveCollectPolicy effectivePolicy(const api::slo::NodeMetricSpec& spec,
                                                     const CollectPolicyLimits& limits = {});

// The policy's corrections as problems on `metric` (reason InvalidMetricCollectPolicy), one each.
[[nodiscard]] std::vector<ObjectProblem> collectPolicyProblems(
    const api::slo::NodeMetric& metric, const EffectiveCollectPolicy& policy);

[[nodiscard]] api::slo::NodeMetricStatus buildNodeMetricStatus(
    const metriccache::MetricCache& cache, const EffectiveCollectPolicy& policy,
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods, metriccache::TimePoint now);

// What fitNodeMetricStatus left out.
struct StatusFit {
  size_t bytes = 0;                 // the JSON size of the status as it is now
  size_t dropped_pods = 0;          // podsMetric entries left out
  bool dropped_aggregates = false;  // aggregatedNodeUsages and aggregatedSystemUsages left out
};

// Keeps `status` under `budget` bytes of JSON: podsMetric entries are left out first, those of
// the lowest priority class first (koord-free, koord-batch, koord-mid, koord-prod; the last listed
// first within a class), then the aggregated usages. kResourceExhausted (nothing should be
// written) when even that does not fit; a status that never fits is not worth retrying.
[[nodiscard]] Result<StatusFit> fitNodeMetricStatus(api::slo::NodeMetricStatus& status,
                                                    size_t budget = kMaxNodeMetricStatusBytes);

}  // namespace koord::agent::reporters
