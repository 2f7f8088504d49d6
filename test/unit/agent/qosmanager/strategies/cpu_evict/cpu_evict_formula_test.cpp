#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_formula.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace koord::agent::qosmanager::strategies::cpu_evict {
namespace {

using namespace std::chrono_literals;

TEST(CpuEvictFormula, RealLimitPrefersSuppressCpusetThenQuotaThenPool) {
  struct Case {
    std::string name;
    std::string be_cpuset;  // "" none, "-" an empty set
    std::optional<int64_t> quota;
    bool pool;  // a BE pool of 6 CPUs
    std::optional<double> milli;
    std::string source;
  };
  const std::vector<Case> cases = {
      {"cpuset", "0-1", 250000, true, 2000, "suppress cpuset"},
      {"quota per 100 ms", "", 250000, true, 2500, "suppress cfs quota"},
      {"quota under a core", "", 50000, false, 500, "suppress cfs quota"},
      {"pool", "", std::nullopt, true, 6000, "BE pool"},
      {"empty cpuset and no quota: pool", "-", std::nullopt, true, 6000, "BE pool"},
      {"unlimited quota: pool", "", -1, true, 6000, "BE pool"},
      {"nothing known", "", std::nullopt, false, std::nullopt, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    framework::SharedDecisions shared;
    if (c.be_cpuset == "-") {
      shared.be_cpuset = cpuset::CpuSet();
    } else if (!c.be_cpuset.empty()) {
      shared.be_cpuset = cpuset::CpuSet::parse(c.be_cpuset).value();
    }
    shared.be_cfs_quota_us = c.quota;
    framework::NodeCpus cpus;
    if (c.pool) {
      cpus.be_pool = cpuset::CpuSet::range(0, 5);
    }
    std::optional<RealLimit> limit = beRealLimit(shared, cpus);
    ASSERT_EQ(limit.has_value(), c.milli.has_value());
    if (limit) {
      EXPECT_DOUBLE_EQ(limit->milli, *c.milli);
      EXPECT_EQ(limit->source, c.source);
    }
  }
}

TEST(CpuEvictFormula, WindowNeedsAThirdOfItsSamples) {
  struct Case {
    size_t count;
    std::chrono::seconds window;
    bool valid;
  };
  const std::vector<Case> cases = {
      {20, 60s, true}, {19, 60s, false}, {3, 10s, true},
      {2, 10s, false}, {1, 1s, true},    {0, 1s, false},  // no sample is never valid
      {1, 5s, true},                                      // 5 / 3 = 1 (integer, as koordlet)
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.count) + " in " + std::to_string(c.window.count()) + " s");
    EXPECT_EQ(windowValid(c.count, 1s, c.window), c.valid);
  }
  EXPECT_TRUE(windowValid(10, 2s, 60s));  // 10 samples 2 s apart cover 20 s
  EXPECT_FALSE(windowValid(9, 2s, 60s));
}

TEST(CpuEvictFormula, UsageHighEnough) {
  struct Case {
    double usage;
    double limit;
    bool want;
  };
  const std::vector<Case> cases = {
      {1800, 2000, true}, {1799, 2000, false}, {0, 500, true},  // under a core: always
      {5000, 0, false},   {5000, -1, false},                    // no limit: never
      {1000, 1000, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.usage) + " of " + std::to_string(c.limit));
    EXPECT_EQ(usageHighEnough(c.usage, c.limit, 90), c.want);
  }
}

TEST(CpuEvictFormula, ReleaseBySatisfaction) {
  struct Case {
    std::string name;
    double request;
    double limit;
    int64_t want;
  };
  const SatisfactionThresholds thresholds{40, 60, 90, 1s};
  const std::vector<Case> cases = {
      {"0.25: up to 0.60", 8000, 2000, 2800},
      {"0.50 is above lower", 8000, 4000, 0},
      // exactly at lower: (0.6 - 0.4) in doubles is 0.19999..., truncated as koordlet does
      {"0.40 is at lower", 8000, 3200, 1599},
      {"nothing requested", 0, 2000, 0},
      {"no limit at all: release to upper", 10000, 0, 6000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(releaseMilliBySatisfaction(c.request, c.limit, thresholds), c.want);
  }
  // upper == lower and satisfaction exactly there: no gap, nothing.
  EXPECT_EQ(releaseMilliBySatisfaction(1000, 500, {50, 50, 90, 1s}), 0);
  EXPECT_DOUBLE_EQ(satisfaction(2000, 8000), 0.25);
}

TEST(CpuEvictFormula, AllocatableRelease) {
  const AllocatableThresholds thresholds{100, 90, {}};
  EXPECT_EQ(allocatableReleaseMilli(13000, 10000, thresholds), 4000);
  EXPECT_EQ(allocatableReleaseMilli(10000, 10000, thresholds), 0);
  EXPECT_EQ(allocatableReleaseMilli(3000, 0, thresholds), 3000);
  EXPECT_EQ(allocatableReleaseMilli(0, 0, thresholds), 0);
  EXPECT_DOUBLE_EQ(allocatablePercent(13000, 10000), 130);
  EXPECT_TRUE(std::isinf(allocatablePercent(1, 0)));
}

TEST(CpuEvictFormula, FormatsCores) {
  EXPECT_EQ(formatCores(2000), "2 cores");
  EXPECT_EQ(formatCores(1000), "1 core");
  EXPECT_EQ(formatCores(2800), "2.8 cores");
  EXPECT_EQ(formatCores(250), "0.25 cores");
  EXPECT_EQ(formatCores(1599.6), "1.6 cores");
  EXPECT_EQ(formatCores(0), "0 cores");
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_evict
