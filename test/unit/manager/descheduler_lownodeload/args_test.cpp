// LowNodeLoad's args: strict decoding, Koordinator's defaults and validation, the default pool.
#include "manager/descheduler/plugins/lownodeload/args.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace koord::manager::descheduler::lownodeload {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

std::string errorOf(const Json& args) {
  auto decoded = decodeLowNodeLoadSettings(args);
  EXPECT_FALSE(decoded.ok());
  if (decoded.ok()) {
    return "";
  }
  EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
  return decoded.status().message();
}

TEST(LowNodeLoadArgsTest, DefaultsAndTheDefaultPoolFirst) {
  auto decoded = decodeLowNodeLoadSettings(
      {{"apiVersion", "descheduler/v1alpha2"},
       {"kind", "LowNodeLoadArgs"},
       {"lowThresholds", {{"cpu", 45}, {"memory", 55}}},
       {"highThresholds", {{"cpu", 75}, {"memory", 80}}},
       {"nodePools", {{{"name", "gpu"}, {"highThresholds", {{"cpu", 60}}}}}}});
  ASSERT_TRUE(decoded.ok()) << decoded.status().toString();
  const LowNodeLoadSettings& s = *decoded;
  EXPECT_TRUE(s.args.node_fit);
  EXPECT_EQ(s.args.node_metric_expiration_seconds, 180);
  EXPECT_EQ(s.args.detector_cache_timeout, std::chrono::minutes(5));
  ASSERT_EQ(s.pools.size(), 2U);
  EXPECT_EQ(s.pools[0].name, "__default_node_pool__");
  EXPECT_EQ(s.pools[0].high_thresholds.at("cpu"), 75);
  ASSERT_TRUE(s.pools[0].anomaly_condition.has_value());
  EXPECT_EQ(s.pools[0].anomaly_condition->consecutive_abnormalities, 5U);
  EXPECT_EQ(s.pools[0].anomaly_condition->consecutive_normalities, 3U);
  EXPECT_EQ(s.pools[0].resource_weights.at("cpu"), 1);
  EXPECT_EQ(s.pools[1].name, "gpu");
  EXPECT_FALSE(s.pools[1].anomaly_condition.has_value());
}

TEST(LowNodeLoadArgsTest, UnknownFieldIsAnError) {
  EXPECT_EQ(errorOf({{"highThresholds", {{"cpu", 75}}}, {"foo", 1}}),
            "LowNodeLoadArgs.foo: unknown field");
}

TEST(LowNodeLoadArgsTest, ThresholdOutOfRange) {
  EXPECT_THAT(errorOf({{"highThresholds", {{"cpu", 175}}}}),
              HasSubstr("LowNodeLoadArgs.highThresholds.cpu: must be between 0 and 100"));
}

TEST(LowNodeLoadArgsTest, WrongType) {
  EXPECT_THAT(errorOf({{"highThresholds", {{"cpu", 75}}}, {"dryRun", "yes"}}),
              HasSubstr("LowNodeLoadArgs.dryRun"));
}

TEST(LowNodeLoadArgsTest, NegativeNumberOfNodes) {
  EXPECT_EQ(errorOf({{"highThresholds", {{"cpu", 75}}}, {"numberOfNodes", -1}}),
            "LowNodeLoadArgs.numberOfNodes: must be greater than or equal to 0");
}

TEST(LowNodeLoadArgsTest, PoolProdHighAboveHigh) {
  EXPECT_THAT(
      errorOf({{"nodePools",
                {{{"name", "a"},
                  {"highThresholds", {{"cpu", 60}}},
                  {"prodHighThresholds", {{"cpu", 70}}}}}}}),
      HasSubstr("LowNodeLoadArgs.nodePools[0].prodHighThresholds.cpu: Invalid value: 70: node "
                "percentage must be greater than or equal to prodHighThresholds"));
}

TEST(LowNodeLoadArgsTest, PoolProdLowAboveProdHigh) {
  EXPECT_THAT(errorOf({{"nodePools",
                        {{{"name", "a"},
                          {"prodLowThresholds", {{"cpu", 50}}},
                          {"prodHighThresholds", {{"cpu", 40}}}}}}}),
              HasSubstr("LowNodeLoadArgs.nodePools[0].prodLowThresholds.cpu"));
}

TEST(LowNodeLoadArgsTest, InvalidPodSelector) {
  Json selector = {{"matchExpressions", {{{"key", "app"}, {"operator", "Bogus"}}}}};
  EXPECT_THAT(errorOf({{"highThresholds", {{"cpu", 75}}},
                       {"podSelectors", {{{"name", "s"}, {"selector", selector}}}}}),
              HasSubstr("LowNodeLoadArgs.podSelectors[0]: "));
}

TEST(LowNodeLoadArgsTest, NoThresholdsAtAll) {
  EXPECT_THAT(errorOf(nullptr), HasSubstr("LowNodeLoadArgs: LowNodeLoad needs highThresholds"));
}

}  // namespace
}  // namespace koord::manager::descheduler::lownodeload
