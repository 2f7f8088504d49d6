// CollectMetrics: the Prometheus series of koord-agent's collection cycles, fed from each cycle's
// CollectStats (collect_stats.hpp):
//
//   koord_agent_collect_errors_total{collector}  reads, parses and appends that failed, by metric
//       kind (metricKindName: "node_cpu", "pod_memory", ...); a missing pod or container cgroup
//       (deleted meanwhile) is not an error. Every collector's series exists from the start, at 0.
//   koord_agent_collect_duration_seconds         the CPU time of one cycle.
//
// Thread-safe (the series are); the registry must outlive it.
#pragma once

#include <array>

#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/collect_stats.hpp"
#include "koord/common/result.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::metricsadvisor {

class CollectMetrics {
 public:
  // Registers the series. Errors: the registry's (a family of that name with other labels).
  [[nodiscard]] static Result<CollectMetrics> create(metrics::MetricsRegistry& registry);

  // Adds the cycle's errors to the counters and its CPU time to the histogram.
  void record(const CollectStats& stats, double cpu_seconds) const;

 private:
  CollectMetrics() = default;

  std::array<metrics::Counter, metriccache::kMetricKindCount> errors_{};
  metrics::Histogram cpu_seconds_;
};

}  // namespace koord::agent::metricsadvisor
