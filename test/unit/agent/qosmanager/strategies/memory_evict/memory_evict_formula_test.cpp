#include "agent/qosmanager/strategies/memory_evict/memory_evict_formula.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "agent/qosmanager/strategies/memory_evict/memory_evict_config.hpp"
#include "test/unit/agent/qosmanager/strategies/memory_evict/evict_test_support.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {
namespace {

using qosmanager::testing::kGiB;

TEST(MemoryEvictFormula, UsagePercentIsFlooredLikeKoordlet) {
  struct Case {
    int64_t used;
    int64_t capacity;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {92 * kGiB, 100 * kGiB, 92},
      {(92 * kGiB) - 1, 100 * kGiB, 91},  // just under 92% floors to 91
      {0, 16 * kGiB, 0},
      {-5, 16 * kGiB, 0},
      {17 * kGiB, 16 * kGiB, 106},
      {kGiB, 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.used) + " of " + std::to_string(c.capacity));
    EXPECT_EQ(usagePercent(c.used, c.capacity), c.want);
  }
}

TEST(MemoryEvictFormula, UsageReleaseIsCapacityTimesTheGapToLower) {
  struct Case {
    int64_t capacity;
    int64_t usage_percent;
    UsageThresholds thresholds;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {100 * kGiB, 92, {70, 68}, 24 * kGiB},
      {100 * kGiB, 70, {70, 68}, 2 * kGiB},  // at the threshold: release to lower
      {100 * kGiB, 69, {70, 68}, 0},         // below: nothing
      {100 * kGiB, 80, {70, 50}, 30 * kGiB},
      {1000, 99, {90, 88}, 110},  // integer arithmetic: 1000 * 11 / 100
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.usage_percent) + "%");
    EXPECT_EQ(usageRelease(c.capacity, c.usage_percent, c.thresholds), c.want);
  }
}

TEST(MemoryEvictFormula, AllocatableReleaseIsTheRequestAboveLower) {
  struct Case {
    std::string name;
    int64_t requested;
    int64_t allocatable;
    AllocatableThresholds thresholds;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"130% > 100%: release to 90%", 13 * kGiB, 10 * kGiB, {100, 90, {}}, 4 * kGiB},
      {"exactly at the threshold: nothing", 10 * kGiB, 10 * kGiB, {100, 90, {}}, 0},
      {"over-commit allowed up to 110%", 11 * kGiB, 10 * kGiB, {110, 100, {}}, 0},
      {"over 110%", 12 * kGiB, 10 * kGiB, {110, 100, {}}, 2 * kGiB},
      {"allocatable taken away: all of it", 3 * kGiB, 0, {100, 90, {}}, 3 * kGiB},
      {"nothing requested", 0, 0, {100, 90, {}}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(allocatableRelease(c.requested, c.allocatable, c.thresholds), c.want);
  }
  EXPECT_DOUBLE_EQ(allocatablePercent(13 * kGiB, 10 * kGiB), 130);
  EXPECT_TRUE(std::isinf(allocatablePercent(1, 0)));
  EXPECT_DOUBLE_EQ(allocatablePercent(0, 0), 0);
}

TEST(MemoryEvictFormula, FormatsBytesForHumans) {
  EXPECT_EQ(formatBytes(12), "12 B");
  EXPECT_EQ(formatBytes(800 * 1024), "800 KiB");
  EXPECT_EQ(formatBytes(512.0 * 1024 * 1024), "512 MiB");
  EXPECT_EQ(formatBytes(1.2 * kGiB), "1.2 GiB");
  EXPECT_EQ(formatBytes(16.0 * kGiB), "16 GiB");
  EXPECT_EQ(formatBytes(-3), "0 B");
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_evict
