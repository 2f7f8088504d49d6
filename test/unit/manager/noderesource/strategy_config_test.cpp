#include "manager/noderesource/strategy_config.hpp"

#include <gtest/gtest.h>

#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {
namespace {

TEST(StrategyConfig, KoordinatorDefaultsConvertToTheCalculationDefaults) {
  auto strategy = toCalculationStrategy(sloconfig::defaultColocationStrategy());
  ASSERT_TRUE(strategy.ok()) << strategy.status().message();
  EXPECT_EQ(*strategy, ColocationStrategy{});
  auto empty = toCalculationStrategy(sloconfig::ColocationStrategy{});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, ColocationStrategy{});
}

TEST(StrategyConfig, EveryFieldIsTaken) {
  sloconfig::ColocationStrategy in;
  in.enable = true;
  in.cpuReclaimThresholdPercent = 70;
  in.memoryReclaimThresholdPercent = 80;
  in.cpuCalculatePolicy = "maxUsageRequest";
  in.memoryCalculatePolicy = "request";
  in.degradeTimeMinutes = 5;
  in.updateTimeThresholdSeconds = 60;
  in.resourceDiffThreshold = 0.2;
  in.midCPUThresholdPercent = 50;
  in.midMemoryThresholdPercent = 40;
  in.midUnallocatedPercent = 30;
  in.midStaticCPUReservedPercent = 20;
  in.midStaticMemoryReservedPercent = 10;
  in.midReclaimMode = "static";
  in.batchCPUThresholdPercent = 90;
  in.batchMemoryThresholdPercent = 95;
  auto out = toCalculationStrategy(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ColocationStrategy want;
  want.enable = true;
  want.cpuReclaimThresholdPercent = 70;
  want.memoryReclaimThresholdPercent = 80;
  want.cpuCalculatePolicy = CalculatePolicy::kMaxUsageRequest;
  want.memoryCalculatePolicy = CalculatePolicy::kRequest;
  want.degradeTimeMinutes = 5;
  want.updateTimeThresholdSeconds = 60;
  want.resourceDiffThreshold = 0.2;
  want.midCPUThresholdPercent = 50;
  want.midMemoryThresholdPercent = 40;
  want.midUnallocatedPercent = 30;
  want.midStaticCPUReservedPercent = 20;
  want.midStaticMemoryReservedPercent = 10;
  want.midReclaimMode = MidReclaimMode::kStatic;
  want.batchCPUThresholdPercent = 90;
  want.batchMemoryThresholdPercent = 95;
  EXPECT_EQ(*out, want);
}

TEST(StrategyConfig, UnusableValuesAreNamedAtOnce) {
  struct Case {
    const char* name;
    sloconfig::ColocationStrategy in;
    std::string want;
  };
  sloconfig::ColocationStrategy all;
  all.cpuCalculatePolicy = "fast";
  all.midReclaimMode = "sometimes";
  all.degradeTimeMinutes = 0;
  sloconfig::ColocationStrategy cpu_request;
  cpu_request.cpuCalculatePolicy = "request";
  sloconfig::ColocationStrategy memory;
  memory.memoryCalculatePolicy = "guess";
  const Case cases[] = {
      {"three at once", all,
       "invalid colocation strategy: cpuCalculatePolicy \"fast\" is not one of usage, "
       "maxUsageRequest; midReclaimMode \"sometimes\" is not one of dynamic, static; "
       "degradeTimeMinutes 0 must be > 0"},
      {"cpu request", cpu_request,
       "invalid colocation strategy: cpuCalculatePolicy \"request\" is not one of usage, "
       "maxUsageRequest"},
      {"memory policy", memory,
       "invalid colocation strategy: memoryCalculatePolicy \"guess\" is not one of usage, "
       "request, maxUsageRequest"},
  };
  for (const auto& c : cases) {
    auto out = toCalculationStrategy(c.in);
    ASSERT_FALSE(out.ok()) << c.name;
    EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_EQ(out.status().message(), c.want) << c.name;
  }
}

TEST(StrategyConfig, ANodeCannotEnableColocationWhileTheClusterHasItOff) {
  sloconfig::ColocationConfig config;
  sloconfig::ColocationNodeConfig entry;
  entry.name = "pool-a";
  entry.nodeSelector = api::core::LabelSelector{};
  entry.nodeSelector->matchLabels["pool"] = "a";
  entry.strategy.enable = true;
  entry.strategy.cpuReclaimThresholdPercent = 80;
  config.nodeConfigs.push_back(entry);
  api::core::Node node;
  node.metadata.name = "n";
  node.metadata.labels["pool"] = "a";

  config.cluster.enable = false;
  auto off = strategyForNode(config, node);
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->enable);
  EXPECT_EQ(off->cpuReclaimThresholdPercent, 80);

  config.cluster.enable = true;
  auto on = strategyForNode(config, node);
  ASSERT_TRUE(on.ok());
  EXPECT_TRUE(on->enable);

  node.metadata.annotations[std::string(api::kAnnotationNodeColocationStrategy)] =
      R"({"enable":false})";
  auto node_off = strategyForNode(config, node);
  ASSERT_TRUE(node_off.ok());
  EXPECT_FALSE(node_off->enable);
}

}  // namespace
}  // namespace koord::manager::noderesource
