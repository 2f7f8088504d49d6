#include "extender/plugins/load_aware/load_aware_args.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extender/plugins/load_aware/resource_vector.hpp"

namespace koord::extender::plugins::load_aware {
namespace {

Result<LoadAwareArgs> decode(const std::string& json) {
  return decodeArgs(api::Json::parse(json), "LoadAwareScheduling");
}

TEST(LoadAwareArgsTest, NoArgsGiveKoordinatorsDefaults) {
  auto args = decodeArgs(nullptr, "LoadAwareScheduling");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(args->filter_expired_node_metrics);
  EXPECT_EQ(args->node_metric_expiration_seconds, 180);
  EXPECT_FALSE(args->enable_schedule_when_node_metrics_expired);
  EXPECT_EQ(args->resource_weights, (ResourceAmounts{{"cpu", 1}, {"memory", 1}}));
  EXPECT_EQ(args->usage_thresholds, (ResourceAmounts{{"cpu", 65}, {"memory", 95}}));
  EXPECT_TRUE(args->prod_usage_thresholds.empty());
  EXPECT_FALSE(args->aggregated.has_value());
  EXPECT_EQ(args->estimated_scaling_factors, (ResourceAmounts{{"cpu", 85}, {"memory", 70}}));
  EXPECT_FALSE(args->estimated_seconds_after_pod_scheduled.has_value());
  EXPECT_FALSE(args->estimated_seconds_after_initialized.has_value());
  EXPECT_FALSE(args->allow_customize_estimation);
  EXPECT_FALSE(args->score_according_prod_usage);
  EXPECT_FALSE(args->prod_usage_include_sys);
  EXPECT_EQ(args->dominant_resource_weight, 0);
}

// The args of Koordinator's shipped scheduler-config: the filter is off (thresholds 0), scores
// only.
TEST(LoadAwareArgsTest, KoordinatorsShippedArgsDisableTheFilter) {
  auto args = decode(R"({"filterExpiredNodeMetrics": false, "nodeMetricExpirationSeconds": 300,
                         "usageThresholds": {"cpu": 0, "memory": 0},
                         "estimatedScalingFactors": {"cpu": 85, "memory": 70}})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_FALSE(args->filter_expired_node_metrics);
  EXPECT_EQ(args->node_metric_expiration_seconds, 300);
  EXPECT_EQ(args->usage_thresholds, (ResourceAmounts{{"cpu", 0}, {"memory", 0}}));
}

TEST(LoadAwareArgsTest, EmptyMapsTakeDefaultsAndMissingFactorsAreFilled) {
  auto args = decode(R"({"usageThresholds": {}, "resourceWeights": {},
                         "estimatedScalingFactors": {"cpu": 100}})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->usage_thresholds, (ResourceAmounts{{"cpu", 65}, {"memory", 95}}));
  EXPECT_EQ(args->resource_weights, (ResourceAmounts{{"cpu", 1}, {"memory", 1}}));
  EXPECT_EQ(args->estimated_scaling_factors, (ResourceAmounts{{"cpu", 100}, {"memory", 70}}));
}

TEST(LoadAwareArgsTest, DominantResourceWeightLeavesResourceWeightsUnset) {
  auto args = decode(R"({"dominantResourceWeight": 2})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->dominant_resource_weight, 2);
  EXPECT_TRUE(args->resource_weights.empty());
}

TEST(LoadAwareArgsTest, ReadsEveryField) {
  auto args = decode(R"({
      "filterExpiredNodeMetrics": false, "nodeMetricExpirationSeconds": 60,
      "enableScheduleWhenNodeMetricsExpired": true,
      "resourceWeights": {"cpu": 3, "memory": 2},
      "usageThresholds": {"cpu": 70},
      "prodUsageThresholds": {"cpu": 50, "memory": 80},
      "aggregated": {"usageThresholds": {"cpu": 60}, "usageAggregationType": "p95",
                     "usageAggregatedDuration": "5m", "scoreAggregationType": "p99",
                     "scoreAggregatedDuration": "1h"},
      "estimatedScalingFactors": {"cpu": 90, "nvidia.com/gpu": 100},
      "estimatedSecondsAfterPodScheduled": 120, "estimatedSecondsAfterInitialized": 30,
      "allowCustomizeEstimation": true, "scoreAccordingProdUsage": true,
      "prodUsageIncludeSys": true, "dominantResourceWeight": 1,
      "supportedResources": ["kubernetes.io/batch-cpu"]})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_TRUE(args->enable_schedule_when_node_metrics_expired);
  EXPECT_EQ(args->resource_weights, (ResourceAmounts{{"cpu", 3}, {"memory", 2}}));
  EXPECT_EQ(args->usage_thresholds, (ResourceAmounts{{"cpu", 70}}));
  EXPECT_EQ(args->prod_usage_thresholds, (ResourceAmounts{{"cpu", 50}, {"memory", 80}}));
  ASSERT_TRUE(args->aggregated.has_value());
  EXPECT_EQ(args->aggregated->usage_thresholds, (ResourceAmounts{{"cpu", 60}}));
  EXPECT_EQ(args->aggregated->usage_aggregation_type, "p95");
  EXPECT_EQ(args->aggregated->usage_aggregated_duration, std::chrono::minutes(5));
  EXPECT_EQ(args->aggregated->score_aggregation_type, "p99");
  EXPECT_EQ(args->aggregated->score_aggregated_duration, std::chrono::hours(1));
  EXPECT_EQ(args->estimated_scaling_factors,
            (ResourceAmounts{{"cpu", 90}, {"memory", 70}, {"nvidia.com/gpu", 100}}));
  EXPECT_EQ(args->estimated_seconds_after_pod_scheduled, 120);
  EXPECT_EQ(args->estimated_seconds_after_initialized, 30);
  EXPECT_TRUE(args->allow_customize_estimation);
  EXPECT_TRUE(args->score_according_prod_usage);
  EXPECT_TRUE(args->prod_usage_include_sys);
  EXPECT_EQ(args->supported_resources, std::vector<std::string>{"kubernetes.io/batch-cpu"});
  // Every resource named anywhere is accounted, sorted.
  EXPECT_EQ(ResourceNames::fromArgs(*args).size(), 4u);
  EXPECT_EQ(ResourceNames::fromArgs(*args).name(0), "cpu");
  EXPECT_EQ(ResourceNames::fromArgs(*args).name(1), "kubernetes.io/batch-cpu");
}

TEST(LoadAwareArgsTest, ReportsEveryProblemAtOnce) {
  auto args = decode(R"({
      "nodeMetricExpirationSeconds": 0, "filterExpiredNodeMetrics": "yes",
      "resourceWeights": {"cpu": 0, "nvidia.com/gpu": 1},
      "usageThresholds": {"cpu": 101, "memory": 1.5},
      "prodUsageThresholds": [], "estimatedScalingFactors": {"cpu": 0},
      "aggregated": {"usageAggregationType": "p42", "usageAggregatedDuration": "5 minutes",
                     "scoreAggregatedDuration": "-1m", "extra": 1},
      "estimatedSecondsAfterPodScheduled": -1, "dominantResourceWeight": 101,
      "supportedResources": [""], "noSuchField": true})");
  ASSERT_FALSE(args.ok());
  const std::string& message = args.status().message();
  const std::vector<std::string> wants = {
      std::string("failed to decode args of plugin 'LoadAwareScheduling': ") +
          "args.nodeMetricExpirationSeconds: must be an integer >= 1, got 0",
      "args.filterExpiredNodeMetrics: expected boolean, got string",
      "args.resourceWeights.cpu: must be an integer from 1 to 100, got 0",
      std::string("args.resourceWeights.nvidia.com/gpu: the resource has a weight but no ") +
          "estimatedScalingFactors entry",
      "args.usageThresholds.cpu: must be an integer from 0 to 100, got 101",
      "args.usageThresholds.memory: must be an integer from 0 to 100, got 1.5",
      "args.prodUsageThresholds: expected object, got array",
      "args.estimatedScalingFactors.cpu: must be an integer from 1 to 100, got 0",
      "args.aggregated.usageAggregationType: unsupported value \"p42\"",
      "args.aggregated.usageAggregatedDuration: invalid duration",
      "args.aggregated.scoreAggregatedDuration: must not be negative",
      "args.aggregated.extra: unknown field",
      "args.estimatedSecondsAfterPodScheduled: must be an integer >= 0, got -1",
      "args.dominantResourceWeight: must be an integer from 0 to 100, got 101",
      "args.supportedResources[0]: must not be empty",
      "args.noSuchField: unknown field",
  };
  for (const std::string& want : wants) {
    EXPECT_NE(message.find(want), std::string::npos) << want << "\nin:\n" << message;
  }
}

TEST(LoadAwareArgsTest, ArgsThatAreNotAnObjectAreRefused) {
  auto args = decode(R"([1])");
  ASSERT_FALSE(args.ok());
  EXPECT_NE(args.status().message().find("args: expected object, got array"), std::string::npos)
      << args.status();
}

}  // namespace
}  // namespace koord::extender::plugins::load_aware
