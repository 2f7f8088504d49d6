#include "agent/qosmanager/strategies/memory_evict/memory_evict_config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord::agent::qosmanager::strategies::memory_evict {
namespace {

using ::testing::HasSubstr;

api::slo::ResourceThresholdStrategy section(std::optional<int64_t> threshold,
                                            std::optional<int64_t> lower = std::nullopt) {
  api::slo::ResourceThresholdStrategy out;
  out.enable = true;
  out.memoryEvictThresholdPercent = threshold;
  out.memoryEvictLowerPercent = lower;
  return out;
}

TEST(MemoryEvictConfig, DefaultsLowerToThresholdMinusTwo) {
  struct Case {
    api::slo::ResourceThresholdStrategy section;
    int64_t threshold;
    int64_t lower;
  };
  const std::vector<Case> cases = {
      {section(70), 70, 68},   {section(70, 50), 70, 50},
      {section(100), 100, 98}, {section(1), 1, 0},  // floored at 0
      {section(70, 0), 70, 0},
  };
  for (const Case& c : cases) {
    Result<MemoryEvictConfig> config = memoryEvictConfig(c.section);
    ASSERT_TRUE(config.ok()) << config.status().toString();
    ASSERT_TRUE(config->usage.has_value());
    EXPECT_EQ(config->usage->threshold_percent, c.threshold);
    EXPECT_EQ(config->usage->lower_percent, c.lower);
    EXPECT_FALSE(config->allocatable.has_value());
  }
}

TEST(MemoryEvictConfig, AllocatableVariantDefaultsAndOverCommit) {
  api::slo::ResourceThresholdStrategy s;
  s.enable = true;
  s.memoryAllocatableEvictThresholdPercent = 110;  // batch memory may be over-committed
  s.allocatableEvictPriorityThreshold = 5999;
  s.evictEnabledPriorityThreshold = 5500;
  Result<MemoryEvictConfig> config = memoryEvictConfig(s);
  ASSERT_TRUE(config.ok()) << config.status().toString();
  EXPECT_FALSE(config->usage.has_value());
  ASSERT_TRUE(config->allocatable.has_value());
  EXPECT_EQ(config->allocatable->threshold_percent, 110);
  EXPECT_EQ(config->allocatable->lower_percent, 108);
  EXPECT_EQ(config->allocatable->priority_threshold, 5999);
  EXPECT_EQ(config->evict_priority_threshold, 5500);
}

TEST(MemoryEvictConfig, RejectsOutOfRangeValuesNamingTheField) {
  struct Case {
    std::string name;
    api::slo::ResourceThresholdStrategy section;
    std::string field;
  };
  auto allocatable = [](int64_t threshold, std::optional<int64_t> lower,
                        std::optional<int32_t> priority) {
    api::slo::ResourceThresholdStrategy out;
    out.enable = true;
    out.memoryAllocatableEvictThresholdPercent = threshold;
    out.memoryAllocatableEvictLowerPercent = lower;
    out.allocatableEvictPriorityThreshold = priority;
    return out;
  };
  const std::vector<Case> cases = {
      {"threshold 0", section(0), "memoryEvictThresholdPercent (0)"},
      {"threshold negative", section(-1), "memoryEvictThresholdPercent (-1)"},
      {"threshold over 100", section(101), "memoryEvictThresholdPercent (101)"},
      {"lower equal to threshold", section(70, 70), "memoryEvictLowerPercent (70)"},
      {"lower above threshold", section(70, 80), "memoryEvictLowerPercent (80)"},
      {"lower negative", section(70, -1), "memoryEvictLowerPercent (-1)"},
      {"no threshold at all", section(std::nullopt), "neither"},
      {"allocatable threshold 0", allocatable(0, {}, {}),
       "memoryAllocatableEvictThresholdPercent (0)"},
      {"allocatable lower above", allocatable(100, 100, {}),
       "memoryAllocatableEvictLowerPercent (100)"},
      {"allocatable priority over koord-mid", allocatable(100, 90, 9000),
       "allocatableEvictPriorityThreshold (9000)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Result<MemoryEvictConfig> config = memoryEvictConfig(c.section);
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(config.status().message(), HasSubstr("resourceUsedThresholdWithBE."));
    EXPECT_THAT(config.status().message(), HasSubstr(c.field));
  }
}

TEST(MemoryEvictConfig, EnabledOnlyWithEnableTrueAndAThreshold) {
  struct Case {
    std::string name;
    std::optional<api::slo::ResourceThresholdStrategy> section;
    bool want;
  };
  api::slo::ResourceThresholdStrategy off = section(70);
  off.enable = false;
  api::slo::ResourceThresholdStrategy unset = section(70);
  unset.enable.reset();
  api::slo::ResourceThresholdStrategy only_allocatable = section(std::nullopt);
  only_allocatable.memoryAllocatableEvictThresholdPercent = 100;
  const std::vector<Case> cases = {
      {"no section", std::nullopt, false},
      {"enable false", off, false},
      {"enable unset", unset, false},
      {"no threshold", section(std::nullopt), false},
      {"usage threshold", section(70), true},
      {"bad threshold is still enabled (the run reports it)", section(0), true},
      {"allocatable threshold only", only_allocatable, true},
  };
  EXPECT_FALSE(memoryEvictEnabled(nullptr));
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    api::slo::NodeSLO slo;
    slo.spec.resourceUsedThresholdWithBE = c.section;
    EXPECT_EQ(memoryEvictEnabled(&slo), c.want);
  }
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_evict
