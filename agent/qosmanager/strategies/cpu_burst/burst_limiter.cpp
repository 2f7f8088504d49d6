#include "agent/qosmanager/strategies/cpu_burst/burst_limiter.hpp"

#include <algorithm>
#include <chrono>

namespace koord::agent::qosmanager::strategies::cpu_burst {

double BurstLimiter::capacityOf(int64_t period_seconds, int64_t max_scale_percent) {
  return std::max<double>(
      0, static_cast<double>(period_seconds) * static_cast<double>(max_scale_percent - 100));
}

BurstLimiter::BurstLimiter(int64_t period_seconds, int64_t max_scale_percent, Clock::TimePoint now)
    : capacity_(capacityOf(period_seconds, max_scale_percent)),
      tokens_(capacity_ / 2),
      last_(now) {}

bool BurstLimiter::allow(Clock::TimePoint now, double usage_percent) {
  const double seconds = std::max(0.0, std::chrono::duration<double>(now - last_).count());
  if (usage_percent >= kLimiterSpendAbovePercent) {
    tokens_ -= (usage_percent - 100) * seconds;
  } else if (usage_percent < kLimiterSaveBelowPercent) {
    tokens_ += (100 - usage_percent) * seconds;
  }
  tokens_ = std::clamp(tokens_, -capacity_, capacity_);
  last_ = std::max(last_, now);
  return tokens_ > 0;
}

void BurstLimiter::updateIfChanged(int64_t period_seconds, int64_t max_scale_percent,
                                   Clock::TimePoint now) {
  if (capacityOf(period_seconds, max_scale_percent) != capacity_) {
    *this = BurstLimiter(period_seconds, max_scale_percent, now);
  }
}

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
