#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_formula.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace koord::agent::qosmanager::strategies::cpu_evict {

std::optional<RealLimit> beRealLimit(const framework::SharedDecisions& shared,
                                     const framework::NodeCpus& cpus) {
  if (shared.be_cpuset && !shared.be_cpuset->empty()) {
    return RealLimit{static_cast<double>(shared.be_cpuset->size()) * 1000, "suppress cpuset"};
  }
  if (shared.be_cfs_quota_us && *shared.be_cfs_quota_us > 0) {
    return RealLimit{static_cast<double>(*shared.be_cfs_quota_us) / 100, "suppress cfs quota"};
  }
  if (!cpus.be_pool.empty()) {
    return RealLimit{static_cast<double>(cpus.be_pool.size()) * 1000, "BE pool"};
  }
  return std::nullopt;
}

double satisfaction(double real_limit_milli, double request_milli) {
  return real_limit_milli / request_milli;
}

bool windowValid(size_t count, std::chrono::seconds collect_interval, std::chrono::seconds window) {
  return count > 0 && static_cast<int64_t>(count) * collect_interval.count() >= window.count() / 3;
}

bool usageHighEnough(double usage_milli, double real_limit_milli, int64_t threshold_percent) {
  if (real_limit_milli <= 0) {
    return false;
  }
  if (real_limit_milli < 1000) {
    return true;
  }
  return usage_milli / real_limit_milli >= static_cast<double>(threshold_percent) / 100;
}

int64_t releaseMilliBySatisfaction(double request_milli, double real_limit_milli,
                                   const SatisfactionThresholds& thresholds) {
  if (request_milli <= 0) {
    return 0;
  }
  const double rate = satisfaction(real_limit_milli, request_milli);
  if (rate > static_cast<double>(thresholds.lower_percent) / 100) {
    return 0;
  }
  const double gap = static_cast<double>(thresholds.upper_percent) / 100 - rate;
  if (gap <= 0) {
    return 0;
  }
  return static_cast<int64_t>(request_milli * gap);
}

double allocatablePercent(int64_t requested_milli, int64_t allocatable_milli) {
  if (requested_milli <= 0) {
    return 0;
  }
  if (allocatable_milli <= 0) {
    return std::numeric_limits<double>::infinity();
  }
  return static_cast<double>(requested_milli) * 100.0 / static_cast<double>(allocatable_milli);
}

int64_t allocatableReleaseMilli(int64_t requested_milli, int64_t allocatable_milli,
                                const AllocatableThresholds& thresholds) {
  if (requested_milli <= 0) {
    return 0;
  }
  const int64_t allocatable = std::max<int64_t>(allocatable_milli, 0);
  if (requested_milli * 100 <= allocatable * thresholds.threshold_percent) {
    return 0;
  }
  return std::max<int64_t>(0, requested_milli - allocatable * thresholds.lower_percent / 100);
}

std::string formatCores(double milli) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.3f", std::round(milli) / 1000);
  std::string out = text;
  while (!out.empty() && out.back() == '0') {
    out.pop_back();
  }
  if (!out.empty() && out.back() == '.') {
    out.pop_back();
  }
  return out + (out == "1" ? " core" : " cores");
}

}  // namespace koord::agent::qosmanager::strategies::cpu_evict
