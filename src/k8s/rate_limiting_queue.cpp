#include "koord/k8s/rate_limiting_queue.hpp"

#include <cmath>
#include <utility>

namespace koord::k8s {

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(Clock::Duration base,
                                                                     Clock::Duration max)
    : base_(base), max_(max) {}

Clock::Duration ItemExponentialFailureRateLimiter::when(const std::string& item) {
  int exponent = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    exponent = failures_[item]++;
  }
  // Computed in floating point: base * 2^exponent overflows int64 nanoseconds after ~40 steps.
  const double delay = static_cast<double>(base_.count()) * std::ldexp(1.0, exponent);
  if (delay >= static_cast<double>(max_.count())) {
    return max_;
  }
  return Clock::Duration(static_cast<Clock::Duration::rep>(delay));
}

void ItemExponentialFailureRateLimiter::forget(const std::string& item) {
  std::lock_guard<std::mutex> lock(mu_);
  failures_.erase(item);
}

int ItemExponentialFailureRateLimiter::numRequeues(const std::string& item) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = failures_.find(item);
  return it == failures_.end() ? 0 : it->second;
}

RateLimitingQueue::RateLimitingQueue(const Clock& clock, std::unique_ptr<ItemRateLimiter> limiter)
    : WorkQueue(clock),
      limiter_(limiter != nullptr ? std::move(limiter)
                                  : std::make_unique<ItemExponentialFailureRateLimiter>()) {}

void RateLimitingQueue::addRateLimited(const std::string& item) {
  addAfter(item, limiter_->when(item));
}

void RateLimitingQueue::forget(const std::string& item) {
  limiter_->forget(item);
}

int RateLimitingQueue::numRequeues(const std::string& item) const {
  return limiter_->numRequeues(item);
}

}  // namespace koord::k8s
