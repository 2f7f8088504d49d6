// CollectStats: what one collection cycle did, returned by MetricsAdvisor::collect() for the
// daemon's log and metrics (and for tests).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "agent/metriccache/metric_cache.hpp"
#include "koord/common/status.hpp"

namespace koord::agent::metricsadvisor {

struct CollectStats {
  uint64_t samples = 0;             // samples appended to the cache
  uint64_t pods = 0;                // pods listed by the provider
  uint64_t containers = 0;          // containers listed by the provider
  uint64_t missing_pods = 0;        // listed pods whose cgroup was gone (deleted meanwhile)
  uint64_t missing_containers = 0;  // listed containers whose cgroup was gone
  // Failed reads (other than a missing cgroup), parses and appends, per metric kind.
  std::array<uint64_t, metriccache::kMetricKindCount> errors{};
  Status last_error;  // the last error counted in `errors`; ok when there was none

  void addError(metriccache::MetricKind kind, Status error) {
    ++errors[static_cast<size_t>(kind)];
    last_error = std::move(error);
  }
  [[nodiscard]] uint64_t errorsOf(metriccache::MetricKind kind) const {
    return errors[static_cast<size_t>(kind)];
  }
  [[nodiscard]] uint64_t errorCount() const {
    uint64_t total = 0;
    for (const uint64_t n : errors) {
      total += n;
    }
    return total;
  }
};

}  // namespace koord::agent::metricsadvisor
