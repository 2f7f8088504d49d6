// The CPU burst arithmetic, as tables: burst values, quota base and ceiling, share pool state,
// the node's override of a container's action, the scaling clamp, and the burst limiter.
#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_formula.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "agent/qosmanager/strategies/cpu_burst/burst_limiter.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {
namespace {

TEST(CpuBurstFormulaTest, BurstUsIsLimitCoresTimesPercentTimesPeriod) {
  struct Case {
    int64_t limit_milli, percent, want;
  };
  for (const Case& c : {
           Case{1000, 1000, 1000000},  // 1 core × 10 × 100000
           Case{200, 1000, 200000},    // 0.2 core: 2 cores of burst
           Case{2500, 100, 250000},    // 2.5 cores × 1
           Case{500, 50, 25000},       // half a core × 0.5
           Case{0, 1000, 0},           // no limit: no burst
           Case{-5, 1000, 0},          // nonsense limit
           Case{1000, 0, 0},           // no percent
       }) {
    EXPECT_EQ(burstUs(c.limit_milli, c.percent), c.want) << c.limit_milli << " " << c.percent;
  }
}

TEST(CpuBurstFormulaTest, BurstIsCappedAtAPositiveQuota) {
  EXPECT_EQ(cappedBurstUs(200000, 20000), 20000);  // the kernel refuses burst > quota
  EXPECT_EQ(cappedBurstUs(10000, 20000), 10000);
  EXPECT_EQ(cappedBurstUs(200000, -1), 200000);  // unlimited quota caps nothing
  EXPECT_EQ(cappedBurstUs(200000, 0), 200000);
}

TEST(CpuBurstFormulaTest, QuotaBaseAndCeiling) {
  EXPECT_EQ(baseQuotaUs(200), 20000);
  EXPECT_EQ(baseQuotaUs(1500), 150000);
  EXPECT_EQ(baseQuotaUs(0), 0);
  struct Case {
    int64_t base, percent, want;
  };
  for (const Case& c : {
           Case{20000, 300, 60000},
           Case{100000, 150, 150000},
           Case{20000, 101, 20200},
           Case{20000, 100, 20000},  // not above 100: no room
           Case{20000, 50, 20000},
       }) {
    EXPECT_EQ(ceilQuotaUs(c.base, c.percent), c.want) << c.base << " " << c.percent;
  }
}

TEST(CpuBurstFormulaTest, SharePoolRatioAndState) {
  // 8 cores, 2 requested by LSR pods; node uses 4, of which 1 is LSR/BE: 3 / 6 = 0.5.
  EXPECT_DOUBLE_EQ(sharePoolUsageRatio(4, 1, 8, 2), 0.5);
  EXPECT_DOUBLE_EQ(sharePoolUsageRatio(4, 0, 4, 4), 1.0);  // no pool left: full
  EXPECT_DOUBLE_EQ(sharePoolUsageRatio(1, 0, 4, 0), 0.25);
  struct Case {
    std::optional<double> ratio;
    int64_t threshold;
    SharePoolState want;
  };
  for (const Case& c : {
           Case{0.50, 50, SharePoolState::kOverload},  // at the threshold
           Case{0.90, 50, SharePoolState::kOverload},
           Case{0.45, 50, SharePoolState::kCooling},  // 0.9 × threshold
           Case{0.49, 50, SharePoolState::kCooling},
           Case{0.449, 50, SharePoolState::kIdle},
           Case{0.0, 50, SharePoolState::kIdle},
           Case{0.95, 100, SharePoolState::kCooling},
           Case{std::nullopt, 50, SharePoolState::kUnknown},
       }) {
    EXPECT_EQ(sharePoolState(c.ratio, c.threshold), c.want)
        << (c.ratio ? *c.ratio : -1) << " " << c.threshold;
  }
}

TEST(CpuBurstFormulaTest, ContainerActionAndTheNodesOverride) {
  EXPECT_EQ(containerAction(true, true), ScaleAction::kUp);
  EXPECT_EQ(containerAction(false, true), ScaleAction::kRemain);
  EXPECT_EQ(containerAction(true, false), ScaleAction::kDown);  // budget spent wins
  EXPECT_EQ(containerAction(false, false), ScaleAction::kDown);

  using S = SharePoolState;
  using A = ScaleAction;
  struct Case {
    A in;
    S state;
    A want;
  };
  for (const Case& c : {
           Case{A::kUp, S::kIdle, A::kUp},
           Case{A::kRemain, S::kIdle, A::kRemain},
           Case{A::kDown, S::kIdle, A::kDown},
           Case{A::kUp, S::kCooling, A::kRemain},
           Case{A::kRemain, S::kCooling, A::kRemain},
           Case{A::kDown, S::kCooling, A::kDown},
           Case{A::kUp, S::kOverload, A::kDown},
           Case{A::kRemain, S::kOverload, A::kDown},
           Case{A::kDown, S::kOverload, A::kDown},
           Case{A::kUp, S::kUnknown, A::kRemain},
           Case{A::kReset, S::kOverload, A::kReset},
       }) {
    EXPECT_EQ(adjustForNode(c.in, c.state), c.want)
        << toString(c.in) << " under " << toString(c.state);
  }
}

TEST(CpuBurstFormulaTest, NextQuotaScalesAndClamps) {
  using A = ScaleAction;
  struct Case {
    int64_t current;
    A action;
    int64_t want;
  };
  // base 20000, ceil 60000.
  for (const Case& c : {
           Case{20000, A::kUp, 24000},
           Case{24000, A::kUp, 28800},
           Case{49766, A::kUp, 59719},
           Case{59719, A::kUp, 60000},  // clamped at the ceiling
           Case{60000, A::kUp, 60000},
           Case{60000, A::kDown, 48000},
           Case{24000, A::kDown, 20000},  // 19200 clamped at the base
           Case{20000, A::kDown, 20000},
           Case{33333, A::kRemain, 33333},
           Case{90000, A::kRemain, 60000},  // a lowered ceiling clamps a remain too
           Case{10000, A::kRemain, 20000},  // a raised limit lifts it to the base
           Case{55555, A::kReset, 20000},
       }) {
    EXPECT_EQ(nextQuotaUs(c.current, c.action, 20000, 60000), c.want)
        << c.current << " " << toString(c.action);
  }
  // A ceiling below the base (percent <= 100) pins the quota at the base.
  EXPECT_EQ(nextQuotaUs(20000, A::kUp, 20000, 20000), 20000);
}

TEST(BurstLimiterTest, ExhaustsAboveTheLimitAndRefillsWhenIdle) {
  const Clock::TimePoint t0{};
  // 10 s at 300%: capacity 10 × 200 = 2000, starts at 1000.
  BurstLimiter limiter(10, 300, t0);
  EXPECT_DOUBLE_EQ(limiter.capacity(), 2000);
  EXPECT_DOUBLE_EQ(limiter.tokens(), 1000);
  struct Step {
    int seconds;
    double usage_percent;
    double tokens;
    bool allowed;
  };
  int elapsed = 0;
  for (const Step& s : {
           Step{0, 300, 1000, true}, Step{2, 300, 600, true},        // 200/s spent
           Step{2, 300, 200, true}, Step{1, 300, 0, false},          // exhausted
           Step{5, 300, -1000, false}, Step{10, 300, -2000, false},  // floored at -capacity
           Step{5, 80, -2000, false},   // 60..100%: neither spends nor saves
           Step{10, 20, -1200, false},  // 80/s saved
           Step{20, 20, 400, true},     // refilled
           Step{100, 0, 2000, true},    // capped at capacity
           Step{1, 150, 1950, true},    // 50/s spent
       }) {
    elapsed += s.seconds;
    const bool allowed = limiter.allow(t0 + std::chrono::seconds(elapsed), s.usage_percent);
    EXPECT_EQ(allowed, s.allowed) << "at " << elapsed << " s";
    EXPECT_DOUBLE_EQ(limiter.tokens(), s.tokens) << "at " << elapsed << " s";
  }
}

TEST(BurstLimiterTest, StartsOverWhenTheConfigChangesItsCapacity) {
  const Clock::TimePoint t0{};
  BurstLimiter limiter(10, 300, t0);
  ASSERT_FALSE(limiter.allow(t0 + std::chrono::seconds(10), 300));  // 1000 - 2000 → -1000
  limiter.updateIfChanged(10, 300, t0 + std::chrono::seconds(10));  // same capacity: kept
  EXPECT_DOUBLE_EQ(limiter.tokens(), -1000);
  limiter.updateIfChanged(20, 300, t0 + std::chrono::seconds(10));
  EXPECT_DOUBLE_EQ(limiter.capacity(), 4000);
  EXPECT_DOUBLE_EQ(limiter.tokens(), 2000);
  // A zero period leaves no budget at all.
  BurstLimiter none(0, 300, t0);
  EXPECT_FALSE(none.allow(t0 + std::chrono::seconds(1), 0));
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_burst
