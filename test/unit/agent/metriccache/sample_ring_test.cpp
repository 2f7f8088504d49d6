#include "agent/metriccache/sample_ring.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <utility>
#include <vector>

namespace koord::agent::metriccache {
namespace {

struct Point {
  int64_t time_ms;
  double value;
  friend bool operator==(const Point&, const Point&) = default;
};

std::vector<Point> contents(const SampleRing& ring) {
  std::vector<Point> out;
  for (size_t i = 0; i < ring.size(); ++i) {
    out.push_back({ring.timeAt(i), ring.valueAt(i)});
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const Point& p) {
  return os << "{" << p.time_ms << ", " << p.value << "}";
}

constexpr int64_t kT0 = int64_t{1700000000} * 1000;
constexpr int64_t kMaxOffset = std::numeric_limits<uint32_t>::max();

TEST(SampleRingTest, AppendKeepsCapacityAndOrder) {
  struct Case {
    const char* name;
    size_t capacity;
    std::vector<Point> appended;
    std::vector<Point> want;
  };
  const std::vector<Case> cases = {
      {"empty", 3, {}, {}},
      {"below capacity", 3, {{kT0, 1}, {kT0 + 1000, 2}}, {{kT0, 1}, {kT0 + 1000, 2}}},
      {"exactly full",
       3,
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + 2000, 3}},
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + 2000, 3}}},
      {"overwrites the oldest",
       3,
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + 2000, 3}, {kT0 + 3000, 4}, {kT0 + 4000, 5}},
       {{kT0 + 2000, 3}, {kT0 + 3000, 4}, {kT0 + 4000, 5}}},
      {"wraps twice",
       2,
       {{kT0, 1}, {kT0 + 1, 2}, {kT0 + 2, 3}, {kT0 + 3, 4}, {kT0 + 4, 5}},
       {{kT0 + 3, 4}, {kT0 + 4, 5}}},
      {"capacity 0 holds one", 0, {{kT0, 1}, {kT0 + 1, 2}}, {{kT0 + 1, 2}}},
      {"equal times kept", 3, {{kT0, 1}, {kT0, 2}}, {{kT0, 1}, {kT0, 2}}},
      {"clock stepped back drops the future",
       4,
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + 2000, 3}, {kT0 + 1500, 4}},
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + 1500, 4}}},
      {"clock stepped before everything",
       3,
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 - 5000, 3}, {kT0 - 4000, 4}},
       {{kT0 - 5000, 3}, {kT0 - 4000, 4}}},
      {"step back in a wrapped ring",
       3,
       {{kT0, 1}, {kT0 + 1, 2}, {kT0 + 2, 3}, {kT0 + 3, 4}, {kT0 + 2, 5}, {kT0 + 9, 6}},
       {{kT0 + 2, 3}, {kT0 + 2, 5}, {kT0 + 9, 6}}},
      {"negative epoch times", 2, {{-5000, 1}, {-4000, 2}}, {{-5000, 1}, {-4000, 2}}},
      {"offset at the 32-bit limit",
       3,
       {{kT0, 1}, {kT0 + kMaxOffset, 2}},
       {{kT0, 1}, {kT0 + kMaxOffset, 2}}},
      {"beyond 49.7 days drops what no longer fits",
       4,
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + kMaxOffset + 500, 3}, {kT0 + kMaxOffset + 1000, 4}},
       {{kT0 + 1000, 2}, {kT0 + kMaxOffset + 500, 3}, {kT0 + kMaxOffset + 1000, 4}}},
      {"and again one millisecond later",
       4,
       {{kT0, 1}, {kT0 + 1000, 2}, {kT0 + kMaxOffset + 500, 3}, {kT0 + kMaxOffset + 1001, 4}},
       {{kT0 + kMaxOffset + 500, 3}, {kT0 + kMaxOffset + 1001, 4}}},
      {"long gap empties the ring",
       2,
       {{kT0, 1}, {kT0 + 10 * kMaxOffset, 2}, {kT0 + 10 * kMaxOffset + 1, 3}},
       {{kT0 + 10 * kMaxOffset, 2}, {kT0 + 10 * kMaxOffset + 1, 3}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    SampleRing ring(c.capacity);
    for (const Point& p : c.appended) {
      ring.append(p.time_ms, p.value);
    }
    EXPECT_EQ(contents(ring), c.want);
    EXPECT_EQ(ring.size(), c.want.size());
    EXPECT_EQ(ring.empty(), c.want.empty());
    EXPECT_EQ(ring.capacity(), std::max<size_t>(c.capacity, 1));
  }
}

TEST(SampleRingTest, RebaseKeepsTimesExactAcrossManyDays) {
  // One sample an hour for 120 days: the ring re-bases twice and every kept time stays exact.
  constexpr int64_t kHour = int64_t{3600} * 1000;
  SampleRing ring(48);
  for (int64_t h = 0; h < int64_t{24} * 120; ++h) {
    ring.append(kT0 + h * kHour, static_cast<double>(h));
  }
  ASSERT_EQ(ring.size(), 48U);
  for (size_t i = 0; i < ring.size(); ++i) {
    const int64_t h = int64_t{24} * 120 - 48 + static_cast<int64_t>(i);
    EXPECT_EQ(ring.timeAt(i), kT0 + h * kHour);
    EXPECT_EQ(ring.valueAt(i), static_cast<double>(h));
  }
}

TEST(SampleRingTest, WindowEdgesAreInclusive) {
  SampleRing ring(8);
  for (int64_t s = 0; s < 5; ++s) {
    ring.append(kT0 + s * 1000, static_cast<double>(s));  // samples at 0s, 1s, ..., 4s
  }
  struct Case {
    const char* name;
    int64_t start;
    int64_t end;
    std::pair<size_t, size_t> want;
  };
  const std::vector<Case> cases = {
      {"all", kT0, kT0 + 4000, {0, 5}},
      {"both edges on samples", kT0 + 1000, kT0 + 3000, {1, 4}},
      {"edges 1 ms inside exclude the edge samples", kT0 + 1001, kT0 + 2999, {2, 3}},
      {"edges 1 ms outside", kT0 + 999, kT0 + 3001, {1, 4}},
      {"single instant", kT0 + 2000, kT0 + 2000, {2, 3}},
      {"between samples", kT0 + 2100, kT0 + 2900, {3, 3}},
      {"before all", kT0 - 5000, kT0 - 1, {0, 0}},
      {"after all", kT0 + 4001, kT0 + 9000, {5, 5}},
      {"inverted", kT0 + 3000, kT0 + 1000, {0, 0}},
      {"unbounded",
       std::numeric_limits<int64_t>::min(),
       std::numeric_limits<int64_t>::max(),
       {0, 5}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto [first, last] = ring.window(c.start, c.end);
    EXPECT_EQ(last - first, c.want.second - c.want.first);
    if (c.want.first < c.want.second) {
      EXPECT_EQ(first, c.want.first);
      EXPECT_EQ(last, c.want.second);
    }
  }
}

TEST(SampleRingTest, MemoryDoesNotGrowWithAppends) {
  SampleRing ring(300);
  const size_t before = ring.memoryBytes();
  EXPECT_GE(before, 300 * (sizeof(uint32_t) + sizeof(double)));
  for (int64_t i = 0; i < 100000; ++i) {
    ring.append(kT0 + i * 1000, 1.0);
  }
  EXPECT_EQ(ring.memoryBytes(), before);
  EXPECT_EQ(ring.size(), 300U);
  EXPECT_EQ(ring.timeAt(0), kT0 + int64_t{100000 - 300} * 1000);
}

}  // namespace
}  // namespace koord::agent::metriccache
