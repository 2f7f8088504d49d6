#include "agent/metricsadvisor/collect_metrics.hpp"

#include <string>

namespace koord::agent::metricsadvisor {

Result<CollectMetrics> CollectMetrics::create(metrics::MetricsRegistry& registry) {
  CollectMetrics out;
  KOORD_ASSIGN_OR_RETURN(
      metrics::CounterFamily errors,
      registry.counterFamily("koord_agent_collect_errors_total",
                             "Metric reads, parses and appends that failed, by collector.",
                             {"collector"}));
  for (size_t i = 0; i < metriccache::kMetricKindCount; ++i) {
    const auto kind = static_cast<metriccache::MetricKind>(i);
    KOORD_ASSIGN_OR_RETURN(out.errors_[i],
                           errors.withLabels({std::string(metriccache::metricKindName(kind))}));
  }
  KOORD_ASSIGN_OR_RETURN(out.cpu_seconds_,
                         registry.histogram("koord_agent_collect_duration_seconds",
                                            "CPU time of one metric collection cycle.",
                                            {0.0005, 0.001, 0.002, 0.005, 0.01, 0.05}));
  return out;
}

void CollectMetrics::record(const CollectStats& stats, double cpu_seconds) const {
  for (size_t i = 0; i < metriccache::kMetricKindCount; ++i) {
    if (stats.errors[i] != 0) {
      errors_[i].inc(static_cast<double>(stats.errors[i]));
    }
  }
  cpu_seconds_.observe(cpu_seconds);
}

}  // namespace koord::agent::metricsadvisor
