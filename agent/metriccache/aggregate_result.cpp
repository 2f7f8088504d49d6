#include "agent/metriccache/aggregate_result.hpp"

#include <algorithm>

namespace koord::agent::metriccache {

double koordletPercentile(const std::vector<double>& sorted, float fraction) {
  if (sorted.empty()) {
    return 0;
  }
  // Single-precision product, truncated toward zero, as in Go: int(float32(n)*percentile) - 1.
  const float product = static_cast<float>(sorted.size()) * fraction;
  auto index = static_cast<long long>(product) - 1;
  index = std::clamp<long long>(index, 0, static_cast<long long>(sorted.size()) - 1);
  return sorted[static_cast<size_t>(index)];
}

AggregateResult summarize(std::vector<double>& values, TimePoint earliest, TimePoint latest) {
  AggregateResult result;
  result.count = values.size();
  result.earliest = earliest;
  result.latest = latest;
  if (values.empty()) {
    return result;
  }
  double sum = 0;
  for (const double v : values) {
    sum += v;
  }
  result.avg = sum / static_cast<double>(values.size());
  std::sort(values.begin(), values.end());
  result.p50 = koordletPercentile(values, 0.5F);
  result.p90 = koordletPercentile(values, 0.9F);
  result.p95 = koordletPercentile(values, 0.95F);
  result.p99 = koordletPercentile(values, 0.99F);
  return result;
}

}  // namespace koord::agent::metriccache
