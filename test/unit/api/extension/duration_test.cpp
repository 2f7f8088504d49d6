#include "koord/api/extension/duration.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace koord::api::extension {
namespace {

using std::chrono::nanoseconds;

TEST(DurationTest, ParsesGoSyntax) {
  struct Case {
    std::string text;
    int64_t nanos;
  };
  const std::vector<Case> cases = {
      {"0", 0},
      {"0s", 0},
      {"24h", 24LL * 3600 * 1000000000},
      {"1m30s", 90LL * 1000000000},
      {"1.5h", 5400LL * 1000000000},
      {"300ms", 300LL * 1000000},
      {"10us", 10000},
      {"10\xC2\xB5s", 10000},
      {"10\xCE\xBCs", 10000},
      {"7ns", 7},
      {"-2m", -120LL * 1000000000},
      {"+5s", 5LL * 1000000000},
      {".5s", 500000000},
      {"1h2m3.5s", (3723LL * 1000000000) + 500000000},
      {"2562047h47m16.854775807s", INT64_MAX},
  };
  for (const auto& tc : cases) {
    auto d = parseDuration(tc.text);
    ASSERT_TRUE(d.ok()) << tc.text << ": " << d.status();
    EXPECT_EQ(d->count(), tc.nanos) << tc.text;
  }
}

TEST(DurationTest, RejectsWhatGoRejects) {
  struct Case {
    std::string text;
    std::string why;
  };
  const std::vector<Case> cases = {
      {"", "empty"},
      {"-", "empty"},
      {"30", "missing unit"},
      {"5d", "unknown unit \"d\""},
      {"1h x", "unknown unit \"h x\""},
      {".s", "expected a number"},
      {"h", "expected a number"},
      {"2562047h47m16.854775808s", "overflow"},
      {"9999999999999999999h", "overflow"},
  };
  for (const auto& tc : cases) {
    auto d = parseDuration(tc.text);
    ASSERT_FALSE(d.ok()) << tc.text;
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(d.status().message(), "invalid duration \"" + tc.text + "\": " + tc.why);
  }
}

TEST(DurationTest, FormatsLikeGo) {
  struct Case {
    int64_t nanos;
    std::string text;
  };
  const std::vector<Case> cases = {
      {0, "0s"},
      {1, "1ns"},
      {1100, "1.1\xC2\xB5s"},
      {2200000, "2.2ms"},
      {3300000000, "3.3s"},
      {24LL * 3600 * 1000000000, "24h0m0s"},
      {90LL * 1000000000, "1m30s"},
      {-90LL * 1000000000, "-1m30s"},
      {INT64_MAX, "2562047h47m16.854775807s"},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(formatDuration(nanoseconds(tc.nanos)), tc.text);
    auto back = parseDuration(tc.text);
    ASSERT_TRUE(back.ok()) << tc.text;
    EXPECT_EQ(back->count(), tc.nanos) << tc.text;
  }
}

}  // namespace
}  // namespace koord::api::extension
