#include "koord/api/core/time.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

namespace koord::api::core {
namespace {

using ::testing::HasSubstr;

TEST(ParseTimeTest, ReadsRfc3339WithFractionsAndOffsets) {
  auto t = parseTime("2026-01-01T12:00:00Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*t), 1767268800);
  auto offset = parseTime("2026-01-01T13:30:00.5+01:30");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(*offset - *t, std::chrono::milliseconds(500));
}

TEST(ParseTimeTest, TimesTheClockCannotHoldAreRefusedNotOverflowed) {
  // system_clock holds nanoseconds in 64 bits: about 1678 to 2262 (a fuzz target found these).
  for (const char* text :
       {"4052-01-01T12:00:00Z", "1013-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}) {
    auto t = parseTime(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_THAT(t.status().message(), HasSubstr("outside the years 1678 to 2262")) << text;
  }
  EXPECT_TRUE(parseTime("2262-01-01T00:00:00Z").ok());
  EXPECT_TRUE(parseTime("1970-01-01T00:00:00Z").ok());
}

TEST(ParseTimeTest, MalformedTextIsRefusedWithTheExpectedForm) {
  for (const char* text : {"", "2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00",
                           "2026-01-01T00:00:00.Z", "yesterday"}) {
    auto t = parseTime(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_THAT(t.status().message(), HasSubstr("want RFC 3339")) << text;
  }
}

}  // namespace
}  // namespace koord::api::core
