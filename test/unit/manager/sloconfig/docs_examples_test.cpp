// The examples of docs/slo-controller-config.md, checked.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::sloconfig {
namespace {

TEST(DocsExamplesTest, ExampleConfigMap) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig({
      {"colocation-config", R"({
  "enable": true,
  "cpuReclaimThresholdPercent": 60,
  "memoryReclaimThresholdPercent": 70,
  "nodeConfigs": [
    {"name": "gpu-pool", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
     "cpuReclaimThresholdPercent": 40}
  ]
})"},
      {"resource-threshold-config", R"({
  "clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 65},
  "nodeStrategies": [
    {"name": "gpu-pool", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
     "cpuSuppressThresholdPercent": 50}
  ]
})"},
      {"resource-qos-config", R"({
  "clusterStrategy": {
    "lsClass": {"cpuQOS": {"enable": true}},
    "beClass": {"cpuQOS": {"enable": true}, "resctrlQOS": {"enable": true, "catRangeEndPercent": 30}}
  }
})"},
      {"cpu-burst-config", R"({"clusterStrategy": {"policy": "auto"}})"},
      {"system-config",
       R"({"clusterStrategy": {"minFreeKbytesFactor": 100, "watermarkScaleFactor": 150}})"},
  });
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  api::core::Node gpu;
  gpu.metadata.labels = {{"pool", "gpu"}};
  const api::core::Node other;
  const api::slo::NodeSLOSpec gpuSpec = nodeSLOSpecFor(*parsed, gpu);
  const api::slo::NodeSLOSpec otherSpec = nodeSLOSpecFor(*parsed, other);
  EXPECT_EQ(gpuSpec.resourceUsedThresholdWithBE->cpuSuppressThresholdPercent, 50);
  EXPECT_EQ(otherSpec.resourceUsedThresholdWithBE->cpuSuppressThresholdPercent, 65);
  EXPECT_EQ(gpuSpec.resourceUsedThresholdWithBE->enable, true);
  EXPECT_EQ(otherSpec.resourceUsedThresholdWithBE->enable, true);
  EXPECT_EQ(gpuSpec.resourceUsedThresholdWithBE->memoryEvictThresholdPercent, 70);
  EXPECT_EQ(parsed->colocation.forNode(gpu).cpuReclaimThresholdPercent, 40);
  EXPECT_EQ(parsed->colocation.forNode(other).cpuReclaimThresholdPercent, 60);
  EXPECT_EQ(parsed->colocation.forNode(gpu).enable, true);
}

TEST(DocsExamplesTest, ExampleError) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig({
      {"resource-threshold-config", "{\n  \"clusterStrategy\": {\n    \"enabel\": true\n  }\n}"},
      {"colocation-config", R"({"resourceDiffThreshold": 2})"},
      {"cpu-burst-config", R"({"clusterStrategy": {"policy": "sometimes"}})"},
      {"system-config", R"({"clusterStrategy": )"},
  });
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(
      parsed.status().message(),
      "invalid slo-controller-config: colocation-config: line 1: resourceDiffThreshold: must be "
      "greater than 0 and at most 1; resource-threshold-config: line 3: clusterStrategy: unknown "
      "field \"enabel\" (did you mean \"enable\"?); cpu-burst-config: line 1: "
      "clusterStrategy.policy: unsupported value \"sometimes\": supported values: \"none\", "
      "\"cpuBurstOnly\", \"cfsQuotaBurstOnly\", \"auto\"; system-config: invalid JSON: parse error "
      "at line 1, column 21: syntax error while parsing value - unexpected end of input; expected "
      "'[', '{', or a literal");
}

}  // namespace
}  // namespace koord::manager::sloconfig
