// BurstLimiter: the token bucket that keeps one container from running above its CPU limit for
// too long under quota burst (koordlet's burstLimiter).
//
// Capacity = cfsQuotaBurstPeriodSeconds × (cfsQuotaBurstPercent − 100) "percent-seconds": a
// container at 300% of its limit with percent 300 and period 60 s spends it in 60 s. At each
// allow() the elapsed time since the previous call is charged at the container's usage in percent
// of its limit: at or above 100% it spends (usage − 100) per second, below 60% it saves
// (100 − usage) per second, in between nothing. Tokens stay within [−capacity, capacity]; the
// container may burst while tokens > 0. A new bucket starts half full (koordlet starts it at a
// random level below half, to spread containers out; half keeps runs reproducible).
//
// A period below 0 means unlimited: the strategy makes no bucket then. Thread-compatible.
#pragma once

#include <cstdint>

#include "koord/common/clock.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {

inline constexpr double kLimiterSpendAbovePercent = 100;
inline constexpr double kLimiterSaveBelowPercent = 60;

class BurstLimiter {
 public:
  BurstLimiter(int64_t period_seconds, int64_t max_scale_percent, Clock::TimePoint now);

  // Charges the time since the last call at `usage_percent`; whether bursting is still allowed.
  bool allow(Clock::TimePoint now, double usage_percent);

  // Starts over (half full, at `now`) when the capacity the config gives differs from this one's.
  void updateIfChanged(int64_t period_seconds, int64_t max_scale_percent, Clock::TimePoint now);

  [[nodiscard]] double tokens() const { return tokens_; }
  [[nodiscard]] double capacity() const { return capacity_; }

 private:
  static double capacityOf(int64_t period_seconds, int64_t max_scale_percent);

  double capacity_ = 0;
  double tokens_ = 0;
  Clock::TimePoint last_{};
};

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
