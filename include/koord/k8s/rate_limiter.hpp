// Client-side token bucket: `qps` tokens per second refill a bucket of `burst` tokens; each request
// takes one. Like client-go's flowcontrol limiter, a request that finds the bucket empty reserves
// a future token and waits until it is due, so waiting callers are served in arrival order.
//
// Thread safety: all methods are thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

namespace koord::k8s {

class RateLimiter {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // qps <= 0 disables limiting (every reserve() returns 0). burst < 1 counts as 1. `clock`
  // defaults to std::chrono::steady_clock::now; tests inject a fake one.
  RateLimiter(double qps, int burst, Clock clock = {});

  // Takes a token and returns how long the caller must wait before using it (0 when one was
  // available).
  std::chrono::nanoseconds reserve();
  // Like reserve(), but only when the wait would be at most `max_wait`: otherwise takes nothing
  // and returns nullopt (a caller with a deadline gives up rather than send after it).
  std::optional<std::chrono::nanoseconds> reserveWithin(std::chrono::nanoseconds max_wait);
  // Takes a token only when one is available now.
  bool tryAccept();

 private:
  void refillLocked(std::chrono::steady_clock::time_point now);

  double qps_;
  double burst_;
  Clock clock_;
  std::mutex mu_;
  double tokens_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace koord::k8s
