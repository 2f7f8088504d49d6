#include "koord/k8s/backoff.hpp"

#include <algorithm>

namespace koord::k8s {

Backoff::Backoff(BackoffPolicy policy, uint64_t seed)
    : policy_(policy), rng_(seed), current_(policy.initial) {
  policy_.factor = std::max(policy_.factor, 1.0);
  policy_.jitter = std::max(policy_.jitter, 0.0);
}

std::chrono::nanoseconds Backoff::next() {
  std::chrono::nanoseconds base =
      std::min<std::chrono::nanoseconds>(current_, std::chrono::nanoseconds(policy_.cap));
  ++attempts_;
  const double grown = static_cast<double>(current_.count()) * policy_.factor;
  const double cap = static_cast<double>(std::chrono::nanoseconds(policy_.cap).count());
  current_ = std::chrono::nanoseconds(static_cast<int64_t>(std::min(grown, cap)));
  if (policy_.jitter <= 0.0 || base.count() <= 0) {
    return base;
  }
  std::uniform_real_distribution<double> dist(0.0, policy_.jitter);
  const double extra = static_cast<double>(base.count()) * dist(rng_);
  return base + std::chrono::nanoseconds(static_cast<int64_t>(extra));
}

void Backoff::reset() {
  current_ = policy_.initial;
  attempts_ = 0;
}

}  // namespace koord::k8s
