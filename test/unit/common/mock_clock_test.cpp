// The Clock mock compiles against the interface and can stand in for a clock.
#include "mocks/common/mock_clock.hpp"

#include <gtest/gtest.h>

namespace koord {
namespace {

using ::testing::Return;

TEST(MockClockTest, ScriptsNowAndSleepUntilReturnsWhenTheDeadlineHasPassed) {
  testing::MockClock clock;
  const Clock::TimePoint t0{std::chrono::seconds(100)};
  EXPECT_CALL(clock, now()).WillRepeatedly(Return(t0));
  EXPECT_EQ(clock.now(), t0);
  EXPECT_CALL(clock, waitUntil).WillRepeatedly(Return(true));
  clock.sleepUntil(t0 - std::chrono::seconds(1));  // already past: returns without waiting
}

}  // namespace
}  // namespace koord
