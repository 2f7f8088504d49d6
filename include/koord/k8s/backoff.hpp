// Exponential backoff with jitter for retrying API requests.
//
// Thread safety: a Backoff is one retry sequence, used by one thread; BackoffPolicy is a value.
#pragma once

#include <chrono>
#include <cstdint>

namespace koord::k8s {

struct BackoffPolicy {
  // Delay before the first retry.
  std::chrono::milliseconds initial{100};
  // Each further delay is the previous one times this factor (>= 1).
  double factor = 2.0;
  // Delays never exceed this (before jitter is added).
  std::chrono::milliseconds cap{10000};
  // Each delay is stretched by a uniformly random fraction in [0, jitter] of itself (0 = none).
  double jitter = 0.2;
  // Retries after the first attempt; 0 disables retrying.
  int max_retries = 5;
};

// One retry sequence: next() returns the delay to wait before the next attempt.
class Backoff {
 public:
  // `seed` makes the jitter reproducible in tests. The default is cheap (the clock mixed with the
  // object's address): a Backoff is made for every API request, and jitter only has to differ
  // between clients, not be unpredictable.
  explicit Backoff(BackoffPolicy policy, uint64_t seed = 0);

  // True while fewer than policy.max_retries delays were handed out.
  [[nodiscard]] bool canRetry() const { return attempts_ < policy_.max_retries; }
  // The delay before the next retry: initial * factor^n (capped at `cap`) plus jitter. Counts one
  // retry.
  std::chrono::nanoseconds next();
  // Retries handed out so far.
  [[nodiscard]] int attempts() const { return attempts_; }
  // Starts the sequence over.
  void reset();

 private:
  BackoffPolicy policy_;
  uint64_t rng_;  // splitmix64 state
  std::chrono::nanoseconds current_;
  int attempts_ = 0;
};

}  // namespace koord::k8s
