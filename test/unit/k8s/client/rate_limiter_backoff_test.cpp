// Token bucket and backoff, with a fake clock.
#include <gtest/gtest.h>

#include <chrono>

#include "koord/k8s/backoff.hpp"
#include "koord/k8s/rate_limiter.hpp"

namespace koord::k8s {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

class FakeClock {
 public:
  RateLimiter::Clock fn() {
    return [this] { return now_; };
  }
  void advance(nanoseconds d) { now_ += d; }

 private:
  std::chrono::steady_clock::time_point now_{};
};

TEST(RateLimiterTest, BurstThenSpacedByQps) {
  FakeClock clock;
  RateLimiter limiter(10, 3, clock.fn());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(limiter.reserve(), nanoseconds(0)) << i;
  }
  // The bucket is empty: each further request waits one more 1/qps.
  EXPECT_EQ(limiter.reserve(), milliseconds(100));
  EXPECT_EQ(limiter.reserve(), milliseconds(200));
  clock.advance(milliseconds(200));
  EXPECT_EQ(limiter.reserve(), milliseconds(100));
}

TEST(RateLimiterTest, RefillsUpToBurstOnly) {
  FakeClock clock;
  RateLimiter limiter(2, 2, clock.fn());
  EXPECT_TRUE(limiter.tryAccept());
  EXPECT_TRUE(limiter.tryAccept());
  EXPECT_FALSE(limiter.tryAccept());
  clock.advance(std::chrono::seconds(100));
  EXPECT_TRUE(limiter.tryAccept());
  EXPECT_TRUE(limiter.tryAccept());
  EXPECT_FALSE(limiter.tryAccept());
  clock.advance(milliseconds(500));
  EXPECT_TRUE(limiter.tryAccept());
}

TEST(RateLimiterTest, ReserveWithinTakesNoTokenItCannotUseInTime) {
  FakeClock clock;
  RateLimiter limiter(10, 1, clock.fn());
  EXPECT_EQ(limiter.reserveWithin(milliseconds(0)), nanoseconds(0));
  // The next token is due in 100 ms: too late for 50 ms, and refusing takes nothing.
  EXPECT_EQ(limiter.reserveWithin(milliseconds(50)), std::nullopt);
  EXPECT_EQ(limiter.reserveWithin(milliseconds(50)), std::nullopt);
  EXPECT_EQ(limiter.reserveWithin(milliseconds(100)), milliseconds(100));
  // That one was taken: the one after it is due 100 ms later still.
  EXPECT_EQ(limiter.reserve(), milliseconds(200));
  clock.advance(milliseconds(200));
  EXPECT_EQ(limiter.reserveWithin(milliseconds(99)), std::nullopt);
  EXPECT_EQ(limiter.reserveWithin(milliseconds(100)), milliseconds(100));
}

TEST(RateLimiterTest, DisabledWhenQpsNotPositive) {
  RateLimiter limiter(0, 1);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(limiter.reserve(), nanoseconds(0));
  }
}

TEST(BackoffTest, ExponentialAndCapped) {
  BackoffPolicy policy;
  policy.initial = milliseconds(100);
  policy.factor = 2;
  policy.cap = milliseconds(500);
  policy.jitter = 0;
  policy.max_retries = 5;
  Backoff b(policy, 1);
  const milliseconds want[] = {milliseconds(100), milliseconds(200), milliseconds(400),
                               milliseconds(500), milliseconds(500)};
  for (auto w : want) {
    ASSERT_TRUE(b.canRetry());
    EXPECT_EQ(b.next(), w);
  }
  EXPECT_FALSE(b.canRetry());
  b.reset();
  EXPECT_TRUE(b.canRetry());
  EXPECT_EQ(b.next(), milliseconds(100));
}

TEST(BackoffTest, JitterStaysWithinBoundsAndVaries) {
  BackoffPolicy policy;
  policy.initial = milliseconds(1000);
  policy.factor = 1;
  policy.jitter = 0.5;
  policy.max_retries = 1000;
  Backoff b(policy, 42);
  nanoseconds lo = nanoseconds::max();
  nanoseconds hi = nanoseconds::min();
  for (int i = 0; i < 200; ++i) {
    const auto d = b.next();
    ASSERT_GE(d, milliseconds(1000));
    ASSERT_LE(d, milliseconds(1500));
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  EXPECT_GT(hi - lo, milliseconds(100));
}

}  // namespace
}  // namespace koord::k8s
