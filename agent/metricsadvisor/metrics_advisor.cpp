#include "agent/metricsadvisor/metrics_advisor.hpp"

#include <algorithm>

namespace koord::agent::metricsadvisor {

namespace {

using metriccache::MetricKind;

void recordSystem(metriccache::MetricCache& cache, MetricKind kind, metriccache::TimePoint now,
                  double node, double pods, CollectStats& stats) {
  const Status appended = cache.append(kind, "", now, std::max(0.0, node - pods));
  if (!appended.isOk()) {
    stats.addError(kind, appended);
    return;
  }
  ++stats.samples;
}

}  // namespace

MetricsAdvisor::MetricsAdvisor(const system::SysPaths& paths, std::unique_ptr<CgroupReader> reader,
                               PodProvider pods, std::shared_ptr<metriccache::MetricCache> cache)
    : reader_(std::move(reader)),
      cache_(std::move(cache)),
      node_(paths, *cache_),
      pods_(*reader_, std::move(pods), *cache_) {}

CollectStats MetricsAdvisor::collect(metriccache::TimePoint now) {
  CollectStats stats;
  const NodeUsage node = node_.collect(now, stats);
  const PodsUsage pods = pods_.collect(now, stats);
  if (node.cpu_cores.has_value()) {
    recordSystem(*cache_, MetricKind::kSystemCpu, now, *node.cpu_cores, pods.cpu_cores, stats);
  }
  if (node.memory_bytes.has_value()) {
    recordSystem(*cache_, MetricKind::kSystemMemory, now, *node.memory_bytes, pods.memory_bytes,
                 stats);
  }
  return stats;
}

}  // namespace koord::agent::metricsadvisor
