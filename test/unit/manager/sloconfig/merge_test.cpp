#include "manager/sloconfig/merge.hpp"

#include <gtest/gtest.h>

#include "koord/api/slo/node_slo.hpp"
#include "koord/api/slo/resource_qos.hpp"

namespace koord::manager::sloconfig {
namespace {

using api::Json;

TEST(MergeJsonTest, NestedObjectsMergeFieldByField) {
  Json base = Json::parse(R"({"a": {"x": 1, "y": 2}, "b": 3})");
  mergeJson(base, Json::parse(R"({"a": {"y": 20, "z": 30}})"));
  EXPECT_EQ(base, Json::parse(R"({"a": {"x": 1, "y": 20, "z": 30}, "b": 3})"));
}

TEST(MergeJsonTest, ListsAndScalarsAreReplacedAndNullNeverOverrides) {
  Json base = Json::parse(R"({"list": [1, 2, 3], "n": 1, "keep": "k"})");
  mergeJson(base, Json::parse(R"({"list": [9], "n": 2, "keep": null})"));
  EXPECT_EQ(base, Json::parse(R"({"list": [9], "n": 2, "keep": "k"})"));
}

TEST(MergeModelTest, OnlyTheFieldsTheOverrideSetsChange) {
  api::slo::ResourceQOSStrategy base;
  api::slo::ResourceQOS be;
  api::slo::CPUQOSCfg cpu;
  cpu.enable = false;
  cpu.groupIdentity = -1;
  be.cpuQOS = cpu;
  base.beClass = be;

  api::slo::ResourceQOSStrategy over;
  api::slo::ResourceQOS overBe;
  api::slo::CPUQOSCfg overCpu;
  overCpu.enable = true;
  overBe.cpuQOS = overCpu;
  over.beClass = overBe;

  const api::slo::ResourceQOSStrategy merged = mergeModel(base, over);
  ASSERT_TRUE(merged.beClass.has_value());
  ASSERT_TRUE(merged.beClass->cpuQOS.has_value());
  EXPECT_EQ(merged.beClass->cpuQOS->enable, true);
  EXPECT_EQ(merged.beClass->cpuQOS->groupIdentity, -1);
}

TEST(MergeModelTest, MapsMergeByKey) {
  api::slo::SystemStrategy base;
  base.schedFeatures = {{"A", true}, {"B", true}};
  api::slo::SystemStrategy over;
  over.schedFeatures = {{"B", false}};
  const api::slo::SystemStrategy merged = mergeModel(base, over);
  EXPECT_EQ(merged.schedFeatures, (std::map<std::string, bool>{{"A", true}, {"B", false}}));
}

}  // namespace
}  // namespace koord::manager::sloconfig
