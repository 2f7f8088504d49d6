// MetricView: one NodeMetric as LoadAwareScheduling reads it, decoded once per NodeMetric object
// (the part of Koordinator's podAssignCache.AddOrUpdateNodeMetric that reads the metric):
//   - updateTime (nullopt when absent or unreadable: the metric counts as expired);
//   - reportInterval: spec.metricCollectPolicy.reportIntervalSeconds, default 60 s;
//   - status.nodeMetric: nodeUsage, systemUsage and the aggregated node usages by (type,
//     duration); the longest duration reported for a type is also filed under duration 0;
//   - status.podsMetric: each pod's usage by "namespace/name" (entries without usage skipped) and
//     which pods koordlet reports as koord-prod.
// Immutable once built; thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "extender/plugins/load_aware/resource_vector.hpp"
#include "koord/api/slo/node_metric.hpp"

namespace koord::extender::plugins::load_aware {

using WallTime = std::chrono::system_clock::time_point;

// Second counts from the API are clamped to about 31 years either way, so that adding them to a
// time cannot overflow.
inline constexpr int64_t kMaxSeconds = 1'000'000'000;
[[nodiscard]] std::chrono::seconds clampSeconds(int64_t seconds);
// t + d, saturated at the ends of the clock's range.
[[nodiscard]] WallTime shifted(WallTime t, std::chrono::nanoseconds d);

struct MetricView {
  std::optional<WallTime> update_time;
  std::chrono::seconds report_interval{60};
  bool has_node_metric = false;  // status.nodeMetric is set
  ResourceVector node_usage;     // zeros without status.nodeMetric
  ResourceVector system_usage;
  // (aggregation type, duration in nanoseconds) -> usage.
  std::map<std::pair<std::string, int64_t>, ResourceVector> aggregated;
  std::unordered_map<std::string, ResourceVector> pod_usages;
  std::unordered_set<std::string> prod_pods;

  [[nodiscard]] static std::shared_ptr<const MetricView> build(const api::slo::NodeMetric& metric,
                                                               const ResourceNames& names);

  // Koordinator's getTargetAggregatedUsage: the usage aggregated as `type` over `duration`; with
  // duration 0 the longest one reported, else nodeUsage. nullptr when there is none.
  [[nodiscard]] const ResourceVector* aggregatedUsage(const std::string& type,
                                                      std::chrono::nanoseconds duration) const;

  // Koordinator's isNodeMetricExpired: no updateTime, or `now - updateTime >= expiration`.
  [[nodiscard]] bool expired(WallTime now, std::chrono::seconds expiration) const;
};

}  // namespace koord::extender::plugins::load_aware
