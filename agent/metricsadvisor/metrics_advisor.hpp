// MetricsAdvisor: runs koord-agent's usage collectors once per collect() call and fills the
// MetricCache: NodeCpu/NodeMemory (NodeCollector), Pod*/Container* (PodCollector), and
// SystemCpu/SystemMemory = node - the sum of the pods measured in the same cycle, floored at 0.
//
// The daemon calls collect() on a timer with the wall-clock time of the cycle; tests call it
// with explicit times. Not thread-safe: one thread calls collect(); the cache it fills is
// thread-safe and is read by reporters concurrently. The constructor does no I/O.
#pragma once

#include <memory>

#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/metricsadvisor/collect_stats.hpp"
#include "agent/metricsadvisor/node_collector.hpp"
#include "agent/metricsadvisor/pod_collector.hpp"
#include "agent/system/sys_paths.hpp"

namespace koord::agent::metricsadvisor {

class MetricsAdvisor {
 public:
  // `reader` is the node's cgroup reader (newCgroupReader for the probed CgroupVersion);
  // `pods` lists the pods to collect; `cache` is shared with the readers of the metrics.
  MetricsAdvisor(const system::SysPaths& paths, std::unique_ptr<CgroupReader> reader,
                 PodProvider pods, std::shared_ptr<metriccache::MetricCache> cache);

  // One collection cycle at `now`. Never fails as a whole: what could not be read is counted in
  // the returned stats (and the cycle's other samples are still stored). The system usage is
  // recorded when the node's value was measured in this cycle; pods without a value in this
  // cycle (for CPU: their first cycle) are not subtracted.
  CollectStats collect(metriccache::TimePoint now);

  [[nodiscard]] const std::shared_ptr<metriccache::MetricCache>& cache() const { return cache_; }

 private:
  std::unique_ptr<CgroupReader> reader_;
  std::shared_ptr<metriccache::MetricCache> cache_;
  NodeCollector node_;
  PodCollector pods_;
};

}  // namespace koord::agent::metricsadvisor
