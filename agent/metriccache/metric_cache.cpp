#include "agent/metriccache/metric_cache.hpp"

#include <algorithm>
#include <cmath>

namespace koord::agent::metriccache {

namespace {

int64_t toMillis(TimePoint t) {
  return std::chrono::floor<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

TimePoint fromMillis(int64_t ms) {
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(std::chrono::milliseconds(ms)));
}

size_t index(MetricKind kind) {
  return static_cast<size_t>(kind);
}

}  // namespace

std::string_view metricKindName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kNodeCpu:
      return "node_cpu";
    case MetricKind::kNodeMemory:
      return "node_memory";
    case MetricKind::kSystemCpu:
      return "system_cpu";
    case MetricKind::kSystemMemory:
      return "system_memory";
    case MetricKind::kPodCpu:
      return "pod_cpu";
    case MetricKind::kPodMemory:
      return "pod_memory";
    case MetricKind::kContainerCpu:
      return "container_cpu";
    case MetricKind::kContainerMemory:
      return "container_memory";
  }
  return "unknown";
}

bool isNodeLevel(MetricKind kind) {
  switch (kind) {
    case MetricKind::kNodeCpu:
    case MetricKind::kNodeMemory:
    case MetricKind::kSystemCpu:
    case MetricKind::kSystemMemory:
      return true;
    default:
      return false;
  }
}

MetricCache::MetricCache(MetricCacheConfig config)
    : config_{std::max<size_t>(config.node_capacity, 1), std::max<size_t>(config.pod_capacity, 1)} {
}

Status MetricCache::append(MetricKind kind, std::string_view id, TimePoint time, double value) {
  if (!std::isfinite(value)) {
    return Status::invalidArgument("failed to append '" + std::string(metricKindName(kind)) + "/" +
                                   std::string(id) + "': value is not finite");
  }
  const bool node_level = isNodeLevel(kind);
  if (node_level != id.empty()) {
    return Status::invalidArgument("failed to append '" + std::string(metricKindName(kind)) + "/" +
                                   std::string(id) + "': " +
                                   (node_level ? "node and system series take the id \"\""
                                               : "pod and container series need a non-empty id"));
  }
  const int64_t ms = toMillis(time);
  const std::lock_guard<std::mutex> lock(mu_);
  SeriesMap& map = series_[index(kind)];
  auto it = map.find(id);
  if (it == map.end()) {
    it = map.emplace(std::string(id),
                     SampleRing(node_level ? config_.node_capacity : config_.pod_capacity))
             .first;
  }
  it->second.append(ms, value);
  return Status::ok();
}

const SampleRing* MetricCache::findLocked(MetricKind kind, std::string_view id) const {
  const SeriesMap& map = series_[index(kind)];
  const auto it = map.find(id);
  return it == map.end() ? nullptr : &it->second;
}

std::optional<MetricSample> MetricCache::latest(MetricKind kind, std::string_view id) const {
  const std::lock_guard<std::mutex> lock(mu_);
  const SampleRing* ring = findLocked(kind, id);
  if (ring == nullptr || ring->empty()) {
    return std::nullopt;
  }
  const size_t last = ring->size() - 1;
  return MetricSample{fromMillis(ring->timeAt(last)), ring->valueAt(last)};
}

std::optional<AggregateResult> MetricCache::aggregate(MetricKind kind, std::string_view id,
                                                      TimePoint window_start,
                                                      TimePoint window_end) const {
  std::vector<double> values;
  int64_t earliest_ms = 0;
  int64_t latest_ms = 0;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    const SampleRing* ring = findLocked(kind, id);
    if (ring == nullptr) {
      return std::nullopt;
    }
    const auto [first, last] = ring->window(toMillis(window_start), toMillis(window_end));
    if (first >= last) {
      return std::nullopt;
    }
    values.reserve(last - first);
    for (size_t i = first; i < last; ++i) {
      values.push_back(ring->valueAt(i));
    }
    earliest_ms = ring->timeAt(first);
    latest_ms = ring->timeAt(last - 1);
  }
  return summarize(values, fromMillis(earliest_ms), fromMillis(latest_ms));
}

size_t MetricCache::retainIf(MetricKind kind,
                             const std::function<bool(std::string_view id)>& keep) {
  const std::lock_guard<std::mutex> lock(mu_);
  return std::erase_if(series_[index(kind)], [&](const auto& entry) { return !keep(entry.first); });
}

size_t MetricCache::retain(MetricKind kind, const std::unordered_set<std::string>& live_ids) {
  const std::lock_guard<std::mutex> lock(mu_);
  return std::erase_if(series_[index(kind)],
                       [&](const auto& entry) { return live_ids.count(entry.first) == 0; });
}

std::vector<std::string> MetricCache::ids(MetricKind kind) const {
  const std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  out.reserve(series_[index(kind)].size());
  for (const auto& entry : series_[index(kind)]) {
    out.push_back(entry.first);
  }
  return out;
}

size_t MetricCache::seriesCount() const {
  const std::lock_guard<std::mutex> lock(mu_);
  size_t count = 0;
  for (const SeriesMap& map : series_) {
    count += map.size();
  }
  return count;
}

size_t MetricCache::seriesCount(MetricKind kind) const {
  const std::lock_guard<std::mutex> lock(mu_);
  return series_[index(kind)].size();
}

size_t MetricCache::memoryBytes() const {
  // A hash-table node holds the next pointer, the cached hash and the pair.
  constexpr size_t kNodeOverhead = 2 * sizeof(void*);
  const std::lock_guard<std::mutex> lock(mu_);
  size_t bytes = sizeof(MetricCache);
  for (const SeriesMap& map : series_) {
    bytes += map.bucket_count() * sizeof(void*);
    for (const auto& [id, ring] : map) {
      bytes += kNodeOverhead + sizeof(std::string) + ring.memoryBytes();
      if (id.capacity() > 15) {  // beyond the small-string buffer
        bytes += id.capacity() + 1;
      }
    }
  }
  return bytes;
}

}  // namespace koord::agent::metriccache
