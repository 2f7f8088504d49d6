#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_formula.hpp"

#include <algorithm>

namespace koord::agent::qosmanager::strategies::cpu_burst {

int64_t burstUs(int64_t limit_milli, int64_t cpu_burst_percent) {
  if (limit_milli <= 0 || cpu_burst_percent <= 0) {
    return 0;
  }
  // limit_milli / 1000 × percent / 100 × 100000.
  return limit_milli * cpu_burst_percent;
}

int64_t cappedBurstUs(int64_t burst_us, int64_t quota_us) {
  return quota_us > 0 ? std::min(burst_us, quota_us) : burst_us;
}

int64_t baseQuotaUs(int64_t limit_milli) {
  return limit_milli <= 0 ? 0 : limit_milli * kCfsPeriodUs / 1000;
}

int64_t ceilQuotaUs(int64_t base_us, int64_t cfs_quota_burst_percent) {
  if (cfs_quota_burst_percent <= 100) {
    return base_us;
  }
  return base_us * cfs_quota_burst_percent / 100;
}

std::string_view toString(SharePoolState state) {
  switch (state) {
    case SharePoolState::kIdle:
      return "idle";
    case SharePoolState::kCooling:
      return "cooling";
    case SharePoolState::kOverload:
      return "overload";
    case SharePoolState::kUnknown:
      return "unknown";
  }
  return "unknown";
}

double sharePoolUsageRatio(double node_used_cores, double excluded_used_cores, double node_cores,
                           double excluded_request_cores) {
  const double pool_cores = node_cores - excluded_request_cores;
  if (pool_cores <= 0) {
    return 1.0;
  }
  return (node_used_cores - excluded_used_cores) / pool_cores;
}

SharePoolState sharePoolState(std::optional<double> usage_ratio, int64_t threshold_percent) {
  if (!usage_ratio.has_value()) {
    return SharePoolState::kUnknown;
  }
  const double threshold = static_cast<double>(threshold_percent) / 100;
  if (*usage_ratio >= threshold) {
    return SharePoolState::kOverload;
  }
  if (*usage_ratio >= threshold * kCoolingThresholdRatio) {
    return SharePoolState::kCooling;
  }
  return SharePoolState::kIdle;
}

std::string_view toString(ScaleAction action) {
  switch (action) {
    case ScaleAction::kUp:
      return "up";
    case ScaleAction::kDown:
      return "down";
    case ScaleAction::kRemain:
      return "remain";
    case ScaleAction::kReset:
      return "reset";
  }
  return "remain";
}

ScaleAction containerAction(bool throttled, bool allowed_by_limiter) {
  if (!allowed_by_limiter) {
    return ScaleAction::kDown;
  }
  return throttled ? ScaleAction::kUp : ScaleAction::kRemain;
}

ScaleAction adjustForNode(ScaleAction action, SharePoolState state) {
  if (state == SharePoolState::kOverload &&
      (action == ScaleAction::kUp || action == ScaleAction::kRemain)) {
    return ScaleAction::kDown;
  }
  if ((state == SharePoolState::kCooling || state == SharePoolState::kUnknown) &&
      action == ScaleAction::kUp) {
    return ScaleAction::kRemain;
  }
  return action;
}

int64_t nextQuotaUs(int64_t current_us, ScaleAction action, int64_t base_us, int64_t ceil_us) {
  int64_t next = current_us;
  switch (action) {
    case ScaleAction::kUp:
      next = current_us * 12 / 10;
      break;
    case ScaleAction::kDown:
      next = current_us * 8 / 10;
      break;
    case ScaleAction::kRemain:
      break;
    case ScaleAction::kReset:
      next = base_us;
      break;
  }
  return std::max(base_us, std::min(next, std::max(base_us, ceil_us)));
}

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
