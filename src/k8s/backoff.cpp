#include "koord/k8s/backoff.hpp"

#include <algorithm>
#include <cstdint>

namespace koord::k8s {
namespace {

// splitmix64: a fast, well-mixed 64-bit generator; plenty for jitter.
uint64_t nextRandom(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Backoff::Backoff(BackoffPolicy policy, uint64_t seed)
    : policy_(policy),
      rng_(seed != 0 ? seed
                     : static_cast<uint64_t>(
                           std::chrono::steady_clock::now().time_since_epoch().count()) ^
                           reinterpret_cast<uintptr_t>(this)),
      current_(policy.initial) {
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
  // 53 random bits as a fraction in [0, 1).
  const double unit = static_cast<double>(nextRandom(rng_) >> 11) * 0x1.0p-53;
  const double extra = static_cast<double>(base.count()) * unit * policy_.jitter;
  return base + std::chrono::nanoseconds(static_cast<int64_t>(extra));
}

void Backoff::reset() {
  current_ = policy_.initial;
  attempts_ = 0;
}

}  // namespace koord::k8s
