#include "agent/app/backoff.hpp"

#include <gtest/gtest.h>

namespace koord::agent::app {
namespace {

using std::chrono::seconds;

TEST(ReportBackoffTest, DoublesFromOneSecondToFiveMinutesAndResetsOnSuccess) {
  ReportBackoff backoff;
  const Clock::TimePoint t0 = FakeClock().now();
  EXPECT_TRUE(backoff.ready(t0));
  backoff.failed(t0);
  EXPECT_FALSE(backoff.ready(t0 + std::chrono::milliseconds(999)));
  EXPECT_TRUE(backoff.ready(t0 + seconds(1)));
  Clock::TimePoint now = t0;
  for (int i = 0; i < 20; ++i) {
    backoff.failed(now);
  }
  EXPECT_FALSE(backoff.ready(now + seconds(299)));
  EXPECT_TRUE(backoff.ready(now + seconds(300)));
  backoff.succeeded();
  now += seconds(300);
  backoff.failed(now);
  EXPECT_TRUE(backoff.ready(now + seconds(1)));
}

}  // namespace
}  // namespace koord::agent::app
