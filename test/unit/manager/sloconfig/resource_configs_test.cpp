#include "manager/sloconfig/resource_configs.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::sloconfig {
namespace {

using Data = std::map<std::string, std::string>;

TEST(ResourceConfigsTest, DefaultsAreDisabled) {
  const SloControllerConfig config;
  EXPECT_EQ(config.cpuNormalization.cluster.enable, false);
  EXPECT_TRUE(config.cpuNormalization.cluster.ratioModel.empty());
  EXPECT_EQ(config.resourceAmplification.cluster.enable, false);
  EXPECT_TRUE(config.resourceAmplification.cluster.resourceAmplificationRatio.empty());
}

TEST(ResourceConfigsTest, CPUNormalizationClusterAndFirstMatchingNodeConfig) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig({{"cpu-normalization-config", R"({
  "enable": true,
  "defaultRatio": 1.1,
  "ratioModel": {
    "Intel Xeon 8269CY": {"baseRatio": 1.5, "hyperThreadEnabledRatio": 1.0,
                          "turboEnabledRatio": 1.8, "hyperThreadTurboEnabledRatio": 1.2}
  },
  "nodeConfigs": [
    {"name": "old", "nodeSelector": {"matchLabels": {"gen": "old"}}, "defaultRatio": 0.9,
     "ratioModel": {"AMD EPYC": {"baseRatio": 1.3}}},
    {"name": "off", "nodeSelector": {}, "enable": false}
  ]
})"}});
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  const CPUNormalizationConfig& config = parsed->cpuNormalization;
  EXPECT_EQ(config.cluster.enable, true);
  EXPECT_EQ(config.cluster.defaultRatio, 1.1);
  ASSERT_EQ(config.cluster.ratioModel.count("Intel Xeon 8269CY"), 1U);
  EXPECT_EQ(config.cluster.ratioModel.at("Intel Xeon 8269CY").turboEnabledRatio, 1.8);

  const CPUNormalizationStrategy old = config.forNode({{"gen", "old"}});
  EXPECT_EQ(old.enable, true);
  EXPECT_EQ(old.defaultRatio, 0.9);
  EXPECT_EQ(old.ratioModel.size(), 2U);
  EXPECT_EQ(old.ratioModel.at("AMD EPYC").baseRatio, 1.3);

  const CPUNormalizationStrategy other = config.forNode({{"gen", "new"}});
  EXPECT_EQ(other.enable, false);
  EXPECT_EQ(other.defaultRatio, 1.1);
}

TEST(ResourceConfigsTest, ResourceAmplificationMergesRatiosByResource) {
  Result<SloControllerConfig> parsed =
      parseSloControllerConfig({{"resource-amplification-config", R"({
  "enable": true,
  "resourceAmplificationRatio": {"cpu": 1.5, "memory": 1.2},
  "nodeConfigs": [{"name": "a", "nodeSelector": {"matchLabels": {"amp": "high"}},
                   "resourceAmplificationRatio": {"cpu": 2}}]
})"}});
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  const ResourceAmplificationStrategy high =
      parsed->resourceAmplification.forNode({{"amp", "high"}});
  EXPECT_EQ(high.enable, true);
  EXPECT_EQ(high.resourceAmplificationRatio,
            (std::map<std::string, double>{{"cpu", 2.0}, {"memory", 1.2}}));
  EXPECT_EQ(parsed->resourceAmplification.forNode({}).resourceAmplificationRatio.at("cpu"), 1.5);
}

TEST(ResourceConfigsTest, UnknownFieldsAndBadTypesAreErrors) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig({
      {"cpu-normalization-config", R"({
  "enable": true,
  "ratioModel": {
    "m": {"baseRatoi": 1.5}
  },
  "nodeConfigs": [{"name": "a", "defaultRatio": "high"}]
})"},
      {"resource-amplification-config",
       R"({"enabled": true, "resourceAmplificationRatio": {"cpu": "x"}})"},
  });
  ASSERT_FALSE(parsed.ok());
  const std::string message = parsed.status().message();
  EXPECT_NE(message.find("cpu-normalization-config: line 4: ratioModel.m: unknown field "
                         "\"baseRatoi\" (did you mean \"baseRatio\"?)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("cpu-normalization-config: line 6: nodeConfigs[0].defaultRatio"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("resource-amplification-config: line 1: unknown field \"enabled\" (did "
                         "you mean \"enable\"?)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("resource-amplification-config: line 1: resourceAmplificationRatio"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace koord::manager::sloconfig
