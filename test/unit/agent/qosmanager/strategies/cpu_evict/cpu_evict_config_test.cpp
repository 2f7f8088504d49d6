#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord::agent::qosmanager::strategies::cpu_evict {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

api::slo::ResourceThresholdStrategy satisfactionSection(std::optional<int64_t> lower,
                                                        std::optional<int64_t> upper) {
  api::slo::ResourceThresholdStrategy out;
  out.enable = true;
  out.cpuEvictBESatisfactionLowerPercent = lower;
  out.cpuEvictBESatisfactionUpperPercent = upper;
  return out;
}

api::slo::ResourceThresholdStrategy allocatableSection(std::optional<int64_t> threshold,
                                                       std::optional<int64_t> lower = {},
                                                       std::optional<int32_t> priority = {}) {
  api::slo::ResourceThresholdStrategy out;
  out.enable = true;
  out.cpuEvictPolicy = api::slo::CPUEvictPolicy::kEvictByAllocatable;
  out.cpuAllocatableEvictThresholdPercent = threshold;
  out.cpuAllocatableEvictLowerPercent = lower;
  out.allocatableEvictPriorityThreshold = priority;
  return out;
}

TEST(CpuEvictConfig, SatisfactionDefaults) {
  Result<CpuEvictConfig> config = cpuEvictConfig(satisfactionSection(40, 60), 1s);
  ASSERT_TRUE(config.ok()) << config.status().toString();
  EXPECT_EQ(config->policy, api::slo::CPUEvictPolicy::kEvictByRealLimit);
  ASSERT_TRUE(config->satisfaction.has_value());
  EXPECT_EQ(config->satisfaction->usage_threshold_percent, 90);
  EXPECT_EQ(config->satisfaction->window, 1s);  // koordlet: the collect interval
  EXPECT_FALSE(config->allocatable.has_value());

  api::slo::ResourceThresholdStrategy section = satisfactionSection(60, 60);
  section.cpuEvictTimeWindowSeconds = 60;
  section.cpuEvictBEUsageThresholdPercent = 80;
  config = cpuEvictConfig(section, 1s);
  ASSERT_TRUE(config.ok()) << config.status().toString();
  EXPECT_EQ(config->satisfaction->window, 60s);
  EXPECT_EQ(config->satisfaction->usage_threshold_percent, 80);

  section.cpuEvictTimeWindowSeconds = 1;
  config = cpuEvictConfig(section, 2s);  // never shorter than the collect interval
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->satisfaction->window, 2s);
}

TEST(CpuEvictConfig, AllocatableDefaults) {
  Result<CpuEvictConfig> config = cpuEvictConfig(allocatableSection(110, {}, 5999), 1s);
  ASSERT_TRUE(config.ok()) << config.status().toString();
  ASSERT_TRUE(config->allocatable.has_value());
  EXPECT_FALSE(config->satisfaction.has_value());
  EXPECT_EQ(config->allocatable->threshold_percent, 110);
  EXPECT_EQ(config->allocatable->lower_percent, 108);
  EXPECT_EQ(config->allocatable->priority_threshold, 5999);
}

TEST(CpuEvictConfig, RejectsBadValuesNamingTheField) {
  struct Case {
    std::string name;
    api::slo::ResourceThresholdStrategy section;
    std::string field;
  };
  auto with = [](api::slo::ResourceThresholdStrategy s, auto edit) {
    edit(s);
    return s;
  };
  const std::vector<Case> cases = {
      {"lower missing", satisfactionSection({}, 60),
       "cpuEvictBESatisfactionLowerPercent is required"},
      {"upper missing", satisfactionSection(40, {}),
       "cpuEvictBESatisfactionUpperPercent is required"},
      {"lower 0", satisfactionSection(0, 60), "cpuEvictBESatisfactionLowerPercent (0)"},
      {"lower over 60", satisfactionSection(61, 80), "cpuEvictBESatisfactionLowerPercent (61)"},
      {"upper 0", satisfactionSection(40, 0), "cpuEvictBESatisfactionUpperPercent (0)"},
      {"upper 100", satisfactionSection(40, 100), "cpuEvictBESatisfactionUpperPercent (100)"},
      {"upper below lower", satisfactionSection(50, 40),
       "cpuEvictBESatisfactionUpperPercent (40) must be >= "},
      {"usage threshold 0",
       with(satisfactionSection(40, 60), [](auto& s) { s.cpuEvictBEUsageThresholdPercent = 0; }),
       "cpuEvictBEUsageThresholdPercent (0)"},
      {"usage threshold over 100",
       with(satisfactionSection(40, 60), [](auto& s) { s.cpuEvictBEUsageThresholdPercent = 101; }),
       "cpuEvictBEUsageThresholdPercent (101)"},
      {"window 0",
       with(satisfactionSection(40, 60), [](auto& s) { s.cpuEvictTimeWindowSeconds = 0; }),
       "cpuEvictTimeWindowSeconds (0)"},
      {"allocatable threshold missing", allocatableSection({}),
       "cpuAllocatableEvictThresholdPercent is required"},
      {"allocatable threshold 0", allocatableSection(0), "cpuAllocatableEvictThresholdPercent (0)"},
      {"allocatable lower at threshold", allocatableSection(100, 100),
       "cpuAllocatableEvictLowerPercent (100)"},
      {"allocatable priority over koord-mid", allocatableSection(100, 90, 9000),
       "allocatableEvictPriorityThreshold (9000)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Result<CpuEvictConfig> config = cpuEvictConfig(c.section, 1s);
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(config.status().message(), HasSubstr("resourceUsedThresholdWithBE."));
    EXPECT_THAT(config.status().message(), HasSubstr(c.field));
  }
}

TEST(CpuEvictConfig, EnabledByThePolicysOwnFields) {
  struct Case {
    std::string name;
    std::optional<api::slo::ResourceThresholdStrategy> section;
    bool want;
  };
  api::slo::ResourceThresholdStrategy manager_default;  // what koord-manager renders by default
  manager_default.enable = true;
  manager_default.cpuSuppressThresholdPercent = 65;
  manager_default.memoryEvictThresholdPercent = 70;
  manager_default.cpuEvictPolicy = api::slo::CPUEvictPolicy::kEvictByRealLimit;
  api::slo::ResourceThresholdStrategy off = satisfactionSection(40, 60);
  off.enable = false;
  api::slo::ResourceThresholdStrategy allocatable_without_threshold = satisfactionSection(40, 60);
  allocatable_without_threshold.cpuEvictPolicy = api::slo::CPUEvictPolicy::kEvictByAllocatable;
  const std::vector<Case> cases = {
      {"no section", std::nullopt, false},
      {"enable false", off, false},
      {"manager default", manager_default, false},
      {"satisfaction set", satisfactionSection(40, 60), true},
      {"only lower set (the run reports upper missing)", satisfactionSection(40, {}), true},
      {"allocatable set", allocatableSection(100), true},
      {"allocatable policy without its threshold", allocatable_without_threshold, false},
  };
  EXPECT_FALSE(cpuEvictEnabled(nullptr));
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    api::slo::NodeSLO slo;
    slo.spec.resourceUsedThresholdWithBE = c.section;
    EXPECT_EQ(cpuEvictEnabled(&slo), c.want);
  }
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_evict
