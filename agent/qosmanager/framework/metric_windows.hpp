// MetricWindows: a QoS strategy's read-only view of the metric cache at one instant, so that every
// strategy of a pass reads the same windows ("the node's CPU over the last 60 s") without asking
// the wall clock itself.
//
// Thread safety: as MetricCache (every method is safe to call concurrently). The cache must
// outlive the view.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "agent/metriccache/metric_cache.hpp"

namespace koord::agent::qosmanager::framework {

class MetricWindows {
 public:
  // `now` is the wall-clock time of the pass (the metric cache keeps wall-clock sample times).
  MetricWindows(const metriccache::MetricCache& cache, metriccache::TimePoint now)
      : cache_(cache), now_(now) {}

  [[nodiscard]] metriccache::TimePoint now() const { return now_; }

  // Count, average and percentiles of the series over [now - window, now]; nullopt when the series
  // has no sample in it (or `window` is negative).
  [[nodiscard]] std::optional<metriccache::AggregateResult> window(
      metriccache::MetricKind kind, std::string_view id, std::chrono::milliseconds window) const;

  // The newest sample of the series; nullopt when there is none.
  [[nodiscard]] std::optional<metriccache::MetricSample> latest(metriccache::MetricKind kind,
                                                                std::string_view id) const {
    return cache_.latest(kind, id);
  }

  // The newest sample's value when it is at most `max_age` older than now(); nullopt when the
  // series has none or only older ones (the strategies read nothing staler than two collects).
  [[nodiscard]] std::optional<double> fresh(metriccache::MetricKind kind, std::string_view id,
                                            std::chrono::milliseconds max_age) const {
    std::optional<metriccache::MetricSample> sample = cache_.latest(kind, id);
    if (!sample.has_value() || sample->time + max_age < now_) {
      return std::nullopt;
    }
    return sample->value;
  }

  [[nodiscard]] const metriccache::MetricCache& cache() const { return cache_; }

 private:
  const metriccache::MetricCache& cache_;
  metriccache::TimePoint now_;
};

}  // namespace koord::agent::qosmanager::framework
