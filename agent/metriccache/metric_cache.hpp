// MetricCache: koord-agent's in-memory time series of resource usage, written by the metric
// collectors (metricsadvisor) and read by the NodeMetric reporter and the QoS strategies.
//
// One series per (kind, id): id is "" for node and system kinds, the pod UID for pod kinds, the
// container id for container kinds. CPU kinds hold cores, memory kinds hold bytes. Each series is
// a SampleRing of fixed capacity, chosen per kind class at construction (node/system series long,
// pod/container series short), so the cache's memory is bounded by
// (4 * node_capacity + pod/container series * pod_capacity) * 12 bytes and never grows with
// time; series of ended pods and containers are removed with retain().
//
// Time is always an argument (the collector's collection time), never read here. Times are kept
// at millisecond resolution (floored) and compared at that resolution.
//
// Thread safety: every method is safe to call concurrently. One mutex guards all series; a
// writer (the collectors, one append per sample) and readers (reporters, a few queries a minute)
// contend little, and aggregate() copies the window's values under the lock and sorts them after
// releasing it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "agent/metriccache/aggregate_result.hpp"
#include "agent/metriccache/sample_ring.hpp"
#include "koord/common/status.hpp"

namespace koord::agent::metriccache {

enum class MetricKind : uint8_t {
  kNodeCpu,          // cores used by the whole node
  kNodeMemory,       // bytes used by the whole node (MemTotal - MemAvailable)
  kSystemCpu,        // node - the sum of pods, floored at 0
  kSystemMemory,     // node - the sum of pods, floored at 0
  kPodCpu,           // cores, per pod UID
  kPodMemory,        // working-set bytes, per pod UID
  kContainerCpu,     // cores, per container id
  kContainerMemory,  // working-set bytes, per container id
};
inline constexpr size_t kMetricKindCount = 8;

// "node_cpu", "pod_memory", ...: for logs and metric labels.
[[nodiscard]] std::string_view metricKindName(MetricKind kind);

// True for the node and system kinds (one series, id ""), false for pod and container kinds.
[[nodiscard]] bool isNodeLevel(MetricKind kind);

struct MetricSample {
  TimePoint time{};
  double value = 0;
};

struct MetricCacheConfig {
  // Samples per node or system series: an hour at one sample per second covers the longest
  // default NodeMetric aggregation duration (30m) with room to spare.
  size_t node_capacity = 3600;
  // Samples per pod or container series: 300 s at one per second (aggregateDurationSeconds).
  size_t pod_capacity = 300;
};

class MetricCache {
 public:
  // Capacities of 0 are taken as 1. No allocation until the first append.
  explicit MetricCache(MetricCacheConfig config = {});

  // Appends one sample to the series (kind, id), creating it at first use; a full series drops
  // its oldest sample. Errors (nothing is stored): kInvalidArgument when the value is not finite,
  // when a node/system kind is given a non-empty id, or a pod/container kind an empty one.
  [[nodiscard]] Status append(MetricKind kind, std::string_view id, TimePoint time, double value);

  // The newest sample of the series; nullopt when the series does not exist (or is empty).
  [[nodiscard]] std::optional<MetricSample> latest(MetricKind kind, std::string_view id) const;

  // Count, average and percentiles of the samples with window_start <= time <= window_end;
  // nullopt when the series does not exist or has no sample in the window (or the window is
  // inverted). The reporter asks for [now - duration, now].
  [[nodiscard]] std::optional<AggregateResult> aggregate(MetricKind kind, std::string_view id,
                                                         TimePoint window_start,
                                                         TimePoint window_end) const;

  // Removes the series of `kind` whose id `keep` rejects (pods and containers that have ended);
  // returns how many were removed. `keep` runs under the cache's lock: it must not call back
  // into the cache.
  size_t retainIf(MetricKind kind, const std::function<bool(std::string_view id)>& keep);
  // Removes the series of `kind` whose id is not in `live_ids`; returns how many were removed.
  size_t retain(MetricKind kind, const std::unordered_set<std::string>& live_ids);

  // The ids that have a series of `kind`, in no particular order.
  [[nodiscard]] std::vector<std::string> ids(MetricKind kind) const;

  [[nodiscard]] size_t seriesCount() const;
  [[nodiscard]] size_t seriesCount(MetricKind kind) const;
  // Bytes held by the series: ring arrays, ring objects, ids and hash-table nodes and buckets
  // (an estimate of the allocator's view: node sizes are computed, not measured).
  [[nodiscard]] size_t memoryBytes() const;

  [[nodiscard]] const MetricCacheConfig& config() const { return config_; }

 private:
  struct IdHash {
    using is_transparent = void;
    size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };
  using SeriesMap = std::unordered_map<std::string, SampleRing, IdHash, std::equal_to<>>;

  [[nodiscard]] const SampleRing* findLocked(MetricKind kind, std::string_view id) const;

  const MetricCacheConfig config_;
  mutable std::mutex mu_;
  SeriesMap series_[kMetricKindCount];  // guarded by mu_; indexed by MetricKind
};

}  // namespace koord::agent::metriccache
