#include "manager/noderesource/node_plan.hpp"

#include <gtest/gtest.h>

#include "fixture.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::at;

class NodePlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_.colocation.cluster.enable = true;
    pods_ = fixture::basePods();
    refs_ = podRefs(pods_);
    metric_ = fixture::baseMetric();
    nrt_.metadata.name = "node-1";
    nrt_.metadata.annotations[std::string(api::kAnnotationNodeCPUBasicInfo)] =
        R"({"cpuModel":"Xeon","hyperThreadEnabled":true})";
    for (const char* name : {"node-0", "node-1"}) {
      api::topology::Zone zone;
      zone.name = name;
      zone.resources = {{"cpu", fixture::q("16"), fixture::q("16"), fixture::q("16"), {}},
                        {"memory", fixture::q("50Gi"), fixture::q("48Gi"), fixture::q("48Gi"), {}}};
      nrt_.zones.push_back(zone);
    }
  }
  NodePlan plan(const api::core::Node& node) {
    return planNode({node, refs_, &metric_, &nrt_, config_, at(fixture::kNowText)});
  }

  sloconfig::SloControllerConfig config_;
  std::vector<api::core::Pod> pods_;
  PodRefs refs_;
  api::slo::NodeMetric metric_;
  api::topology::NodeResourceTopology nrt_;
};

TEST_F(NodePlanTest, ExplanationStartsWithTheTimeAndPolicies) {
  NodePlan p = plan(fixture::baseNode());
  ASSERT_TRUE(p.strategyError.isOk());
  EXPECT_EQ(p.batch.cpu.value, 7400);
  auto lines = explainPlan(p, at(fixture::kNowText));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0],
            "calculated 2026-01-01T12:00:00Z: cpuCalculatePolicy usage, memoryCalculatePolicy "
            "usage, midReclaimMode dynamic");
  EXPECT_EQ(lines[1], explainBatch(p.batch)[0]);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "cpu-normalization-ratio 1.00 (disabled)"), 1);
  ASSERT_TRUE(p.zones.has_value());
  EXPECT_EQ(lines.back().substr(0, 12), "zone node-1:");
}

TEST_F(NodePlanTest, CPUNormalizationScalesBatchCPUAndFeedsAmplification) {
  config_.cpuNormalization.cluster.enable = true;
  config_.cpuNormalization.cluster.ratioModel["Xeon"].hyperThreadEnabledRatio = 1.25;
  NodePlan p = plan(fixture::baseNode());
  ASSERT_TRUE(p.cpuNormalization.has_value());
  EXPECT_EQ(p.cpuNormalization->annotation, "1.25");
  EXPECT_EQ(p.batch.cpu.value, 9250);  // 7400 x 1.25
  EXPECT_EQ(p.amplificationRatio, std::optional<std::string>(R"({"cpu":1.25})"));
  auto lines = explainPlan(p, at(fixture::kNowText));
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "cpu-normalization-ratio 1.25 (Xeon (hyperThread on, turbo off))"),
            lines.end());
}

TEST_F(NodePlanTest, AFailedNormalizationDoesNotScaleBatchCPU) {
  config_.cpuNormalization.cluster.enable = true;  // no ratio for Xeon
  api::core::Node node = fixture::baseNode();
  node.metadata.annotations[std::string(api::kAnnotationCPUNormalizationRatio)] = "1.50";
  NodePlan p = plan(node);
  EXPECT_FALSE(p.cpuNormalization.has_value());
  EXPECT_EQ(p.cpuNormalizationError.message(), "no CPU normalization ratio for CPU model \"Xeon\"");
  EXPECT_EQ(p.batch.cpu.value, 7400);
  // The annotation stays 1.50, and amplification follows it.
  EXPECT_EQ(p.amplificationRatio, std::optional<std::string>(R"({"cpu":1.5})"));
}

TEST_F(NodePlanTest, DegradedHasNoResourcesNoZonesAndSaysWhy) {
  metric_.status.updateTime = "2026-01-01T11:00:00Z";
  NodePlan p = plan(fixture::baseNode());
  EXPECT_TRUE(p.resources().empty());
  EXPECT_FALSE(p.zones.has_value());
  EXPECT_EQ(explainPlan(p, at(fixture::kNowText))[0],
            "calculated 2026-01-01T12:00:00Z: degraded: NodeMetric stale: updated 1h ago, "
            "degradeTimeMinutes 15");
}

}  // namespace
}  // namespace koord::manager::noderesource
