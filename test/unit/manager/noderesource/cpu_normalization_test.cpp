#include "manager/noderesource/cpu_normalization.hpp"

#include <gtest/gtest.h>

#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {
namespace {

api::topology::NodeResourceTopology nrtWith(const std::string& basic_info) {
  api::topology::NodeResourceTopology nrt;
  nrt.metadata.name = "node-1";
  nrt.metadata.annotations[std::string(api::kAnnotationNodeCPUBasicInfo)] = basic_info;
  return nrt;
}

sloconfig::CPUNormalizationStrategy enabledFor(const std::string& model) {
  sloconfig::CPUNormalizationStrategy strategy;
  strategy.enable = true;
  strategy.ratioModel[model] = {1.1, 1.2, 1.3, 1.5};  // base, HT, turbo, HT+turbo
  return strategy;
}

TEST(CPUNormalization, RatioByModelAndState) {
  struct Case {
    const char* info;
    std::string want;
  };
  const Case cases[] = {
      {R"({"cpuModel":"Xeon 8369B"})", "1.10"},
      {R"({"cpuModel":"Xeon 8369B","hyperThreadEnabled":true})", "1.20"},
      {R"({"cpuModel":"Xeon 8369B","turboEnabled":true})", "1.30"},
      {R"({"cpuModel":"Xeon 8369B","hyperThreadEnabled":true,"turboEnabled":true,"vendorID":"x"})",
       "1.50"},
  };
  api::core::Node node;
  for (const auto& c : cases) {
    auto nrt = nrtWith(c.info);
    auto out = cpuNormalizationFor(node, &nrt, enabledFor("Xeon 8369B"));
    ASSERT_TRUE(out.ok()) << c.info << ": " << out.status().message();
    EXPECT_EQ(out->annotation, c.want) << c.info;
  }
}

TEST(CPUNormalization, DisabledIsOneAndTheNodeLabelWins) {
  api::core::Node node;
  auto nrt = nrtWith(R"({"cpuModel":"Xeon 8369B"})");
  auto strategy = enabledFor("Xeon 8369B");
  node.metadata.labels[std::string(api::kLabelCPUNormalizationEnabled)] = "false";
  auto off = cpuNormalizationFor(node, &nrt, strategy);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->annotation, "1.00");
  EXPECT_EQ(off->source, "disabled");

  strategy.enable = false;
  node.metadata.labels[std::string(api::kLabelCPUNormalizationEnabled)] = "true";
  auto on = cpuNormalizationFor(node, &nrt, strategy);
  ASSERT_TRUE(on.ok());
  EXPECT_EQ(on->annotation, "1.10");

  node.metadata.labels[std::string(api::kLabelCPUNormalizationEnabled)] = "yes";
  EXPECT_FALSE(cpuNormalizationFor(node, &nrt, strategy).ok());
}

TEST(CPUNormalization, WhatIsMissingIsAnError) {
  api::core::Node node;
  auto strategy = enabledFor("Xeon 8369B");
  EXPECT_EQ(cpuNormalizationFor(node, nullptr, strategy).status().message(),
            "no NodeResourceTopology for the node (its CPU model is unknown)");
  api::topology::NodeResourceTopology bare;
  EXPECT_EQ(cpuNormalizationFor(node, &bare, strategy).status().message(),
            "NodeResourceTopology has no annotation node.koordinator.sh/cpu-basic-info");
  auto other = nrtWith(R"({"cpuModel":"EPYC"})");
  EXPECT_EQ(cpuNormalizationFor(node, &other, strategy).status().message(),
            "no CPU normalization ratio for CPU model \"EPYC\"");
  strategy.ratioModel["Xeon 8369B"].baseRatio = 6;
  auto xeon = nrtWith(R"({"cpuModel":"Xeon 8369B"})");
  EXPECT_EQ(cpuNormalizationFor(node, &xeon, strategy).status().message(),
            "baseRatio 6.00 for CPU model \"Xeon 8369B\" is out of range [1, 5]");
  strategy.ratioModel["Xeon 8369B"].baseRatio.reset();
  EXPECT_EQ(cpuNormalizationFor(node, &xeon, strategy).status().message(),
            "missing baseRatio for CPU model \"Xeon 8369B\"");
  auto broken = nrtWith("{not json");
  EXPECT_FALSE(cpuNormalizationFor(node, &broken, strategy).ok());
}

TEST(CPUNormalization, NeedsSyncAsKoordinatorsNeedSyncMeta) {
  EXPECT_FALSE(cpuNormalizationNeedsSync(std::nullopt, std::nullopt));
  EXPECT_TRUE(cpuNormalizationNeedsSync(std::nullopt, "1.20"));
  EXPECT_TRUE(cpuNormalizationNeedsSync("1.20", std::nullopt));
  EXPECT_TRUE(cpuNormalizationNeedsSync("abc", "1.20"));
  EXPECT_FALSE(cpuNormalizationNeedsSync("1.20", "1.205"));
  EXPECT_TRUE(cpuNormalizationNeedsSync("1.20", "1.22"));
}

}  // namespace
}  // namespace koord::manager::noderesource
