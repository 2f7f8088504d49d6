// AggregateResult: the summary of the samples of one series over a time window, as the NodeMetric
// reporter publishes it (aggregatedNodeUsages: avg, p50, p90, p95, p99 per duration; podUsage:
// the average over aggregateDurationSeconds).
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace koord::agent::metriccache {

using TimePoint = std::chrono::system_clock::time_point;

struct AggregateResult {
  size_t count = 0;  // samples in the window; never 0 in a returned result
  double avg = 0;
  double p50 = 0;
  double p90 = 0;
  double p95 = 0;
  double p99 = 0;
  TimePoint earliest{};  // time of the oldest sample in the window
  TimePoint latest{};    // time of the newest sample in the window

  // latest - earliest: how much of the asked window the samples actually cover (koordlet's
  // TimeRangeDuration; a reporter may skip a window the cache has not filled yet).
  [[nodiscard]] std::chrono::milliseconds span() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(latest - earliest);
  }
};

// The percentile `fraction` (0.5 for p50, 0.99 for p99) of `sorted` (ascending, non-empty) as
// koordlet computes it (pkg/koordlet/metriccache/util.go, fieldPercentileOfMetricList): the
// element at index int(float32(n) * fraction) - 1, floored at 0, with the product in single
// precision as Go's float32 does it. No interpolation: the result is always one of the samples;
// for n = 10, p90 is the 9th smallest and p99 the 9th smallest too (int(9.9) - 1 = 8).
[[nodiscard]] double koordletPercentile(const std::vector<double>& sorted, float fraction);

// The average and percentiles of `values` (any order, non-empty; sorted in place).
[[nodiscard]] AggregateResult summarize(std::vector<double>& values, TimePoint earliest,
                                        TimePoint latest);

}  // namespace koord::agent::metriccache
