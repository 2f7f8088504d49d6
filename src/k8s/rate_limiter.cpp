#include "koord/k8s/rate_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace koord::k8s {

RateLimiter::RateLimiter(double qps, int burst, Clock clock)
    : qps_(qps),
      burst_(static_cast<double>(std::max(burst, 1))),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })),
      tokens_(burst_),
      last_(clock_()) {}

void RateLimiter::refillLocked(std::chrono::steady_clock::time_point now) {
  if (now > last_) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
    last_ = now;
  }
}

std::chrono::nanoseconds RateLimiter::reserve() {
  // No wait is longer than the largest duration, so a token is always taken.
  return reserveWithin(std::chrono::nanoseconds::max()).value_or(std::chrono::nanoseconds(0));
}

std::optional<std::chrono::nanoseconds> RateLimiter::reserveWithin(
    std::chrono::nanoseconds max_wait) {
  if (qps_ <= 0) {
    return std::chrono::nanoseconds(0);
  }
  std::lock_guard<std::mutex> lock(mu_);
  refillLocked(clock_());
  const double after = tokens_ - 1.0;
  const auto wait =
      after >= 0 ? std::chrono::nanoseconds(0)
                 : std::chrono::nanoseconds(static_cast<int64_t>(std::ceil(-after / qps_ * 1e9)));
  if (wait > max_wait) {
    return std::nullopt;
  }
  tokens_ = after;
  return wait;
}

bool RateLimiter::tryAccept() {
  if (qps_ <= 0) {
    return true;
  }
  std::lock_guard<std::mutex> lock(mu_);
  refillLocked(clock_());
  if (tokens_ < 1.0) {
    return false;
  }
  tokens_ -= 1.0;
  return true;
}

}  // namespace koord::k8s
