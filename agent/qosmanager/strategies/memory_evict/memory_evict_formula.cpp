#include "agent/qosmanager/strategies/memory_evict/memory_evict_formula.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace koord::agent::qosmanager::strategies::memory_evict {

int64_t usagePercent(int64_t used_bytes, int64_t capacity_bytes) {
  if (capacity_bytes <= 0) {
    return 0;
  }
  return std::max<int64_t>(used_bytes, 0) * 100 / capacity_bytes;
}

int64_t usageRelease(int64_t capacity_bytes, int64_t usage_percent,
                     const UsageThresholds& thresholds) {
  if (usage_percent < thresholds.threshold_percent) {
    return 0;
  }
  return capacity_bytes * (usage_percent - thresholds.lower_percent) / 100;
}

double allocatablePercent(int64_t requested_bytes, int64_t allocatable_bytes) {
  if (requested_bytes <= 0) {
    return 0;
  }
  if (allocatable_bytes <= 0) {
    return std::numeric_limits<double>::infinity();
  }
  return static_cast<double>(requested_bytes) * 100.0 / static_cast<double>(allocatable_bytes);
}

int64_t allocatableRelease(int64_t requested_bytes, int64_t allocatable_bytes,
                           const AllocatableThresholds& thresholds) {
  if (requested_bytes <= 0) {
    return 0;
  }
  const int64_t allocatable = std::max<int64_t>(allocatable_bytes, 0);
  // requested / allocatable > threshold / 100, without dividing.
  if (requested_bytes * 100 <= allocatable * thresholds.threshold_percent) {
    return 0;
  }
  return std::max<int64_t>(0, requested_bytes - allocatable * thresholds.lower_percent / 100);
}

std::string formatBytes(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = std::max(bytes, 0.0);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[64];
  const double tenths = std::round(value * 10) / 10;
  if (unit == 0 || tenths == std::floor(tenths)) {
    std::snprintf(text, sizeof(text), "%.0f %s", tenths, kUnits[unit]);
  } else {
    std::snprintf(text, sizeof(text), "%.1f %s", tenths, kUnits[unit]);
  }
  return text;
}

}  // namespace koord::agent::qosmanager::strategies::memory_evict
