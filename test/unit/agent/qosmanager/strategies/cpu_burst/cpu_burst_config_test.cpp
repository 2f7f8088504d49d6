// The CPU burst configuration: koordlet's defaults, the NodeSLO over them, validation, and the
// pod annotation over the node's.
#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_config.hpp"

#include <gtest/gtest.h>

#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {
namespace {

using api::slo::CPUBurstPolicy;

api::slo::NodeSLO sloWith(const std::string& section_json) {
  auto slo = api::decode<api::slo::NodeSLO>(
      R"({"metadata":{"name":"n"},"spec":{"cpuBurstStrategy":)" + section_json + "}}");
  EXPECT_TRUE(slo.ok()) << slo.status().toString();
  return slo.ok() ? *slo : api::slo::NodeSLO{};
}

TEST(CpuBurstConfigTest, AnEmptySectionGivesKoordletsDefaults) {
  auto config = nodeConfig(sloWith("{}"));
  ASSERT_TRUE(config.ok()) << config.status().toString();
  EXPECT_EQ(config->policy, CPUBurstPolicy::kNone);
  EXPECT_EQ(config->cpu_burst_percent, 1000);
  EXPECT_EQ(config->cfs_quota_burst_percent, 300);
  EXPECT_EQ(config->cfs_quota_burst_period_seconds, -1);
  EXPECT_EQ(config->share_pool_threshold_percent, 50);
}

TEST(CpuBurstConfigTest, TheNodeSLOsFieldsReplaceTheDefaults) {
  auto config = nodeConfig(
      sloWith(R"({"policy":"auto","cfsQuotaBurstPercent":200,"cfsQuotaBurstPeriodSeconds":60})"));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->policy, CPUBurstPolicy::kAuto);
  EXPECT_EQ(config->cpu_burst_percent, 1000);
  EXPECT_EQ(config->cfs_quota_burst_percent, 200);
  EXPECT_EQ(config->cfs_quota_burst_period_seconds, 60);
  EXPECT_EQ(toJson(*config), api::Json::parse(R"({"policy":"auto","cpuBurstPercent":1000,
                "cfsQuotaBurstPercent":200,"cfsQuotaBurstPeriodSeconds":60,
                "sharePoolThresholdPercent":50})"));
}

TEST(CpuBurstConfigTest, OutOfRangeValuesNameTheField) {
  struct Case {
    std::string section, error;
  };
  for (const Case& c : {
           Case{R"({"cpuBurstPercent":0})",
                "spec.cpuBurstStrategy.cpuBurstPercent: must be greater than 0, got 0"},
           Case{R"({"cpuBurstPercent":-100})",
                "spec.cpuBurstStrategy.cpuBurstPercent: must be greater than 0, got -100"},
           Case{R"({"cfsQuotaBurstPercent":0})",
                "spec.cpuBurstStrategy.cfsQuotaBurstPercent: must be greater than 0, got 0"},
           Case{R"({"sharePoolThresholdPercent":0})",
                "spec.cpuBurstStrategy.sharePoolThresholdPercent: must be in (0, 100], got 0"},
           Case{R"({"sharePoolThresholdPercent":101})",
                "spec.cpuBurstStrategy.sharePoolThresholdPercent: must be in (0, 100], got 101"},
       }) {
    auto config = nodeConfig(sloWith(c.section));
    ASSERT_FALSE(config.ok()) << c.section;
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(config.status().message(), c.error);
  }
  // No section at all (a NodeSLO written by hand): koordlet's defaults, policy none.
  api::slo::NodeSLO bare;
  auto missing = nodeConfig(bare);
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_EQ(*missing, BurstConfig{});
  EXPECT_EQ(missing->policy, api::slo::CPUBurstPolicy::kNone);
}

TEST(CpuBurstConfigTest, AnUnknownPolicyIsADecodeErrorOfTheNodeSLO) {
  // The strategy never sees it: the NodeSLO does not decode (the agent keeps no NodeSLO).
  auto slo = api::decode<api::slo::NodeSLO>(
      R"({"metadata":{"name":"n"},"spec":{"cpuBurstStrategy":{"policy":"always"}}})");
  ASSERT_FALSE(slo.ok());
  EXPECT_EQ(slo.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(slo.status().message().find("spec.cpuBurstStrategy.policy: unsupported value"),
            std::string::npos)
      << slo.status().message();
}

TEST(CpuBurstConfigTest, ThePodAnnotationOverridesFieldByField) {
  BurstConfig node;
  node.policy = CPUBurstPolicy::kCPUBurstOnly;
  node.cpu_burst_percent = 500;
  const std::string key(api::kAnnotationCPUBurst);

  PodConfig none = podConfig(node, {});
  EXPECT_EQ(none.config, node);
  EXPECT_FALSE(none.from_annotation);
  EXPECT_FALSE(none.error.has_value());

  PodConfig over = podConfig(node, {{key, R"({"policy":"auto","cfsQuotaBurstPercent":150})"}});
  EXPECT_FALSE(over.error.has_value());
  EXPECT_TRUE(over.from_annotation);
  EXPECT_EQ(over.config.policy, CPUBurstPolicy::kAuto);
  EXPECT_EQ(over.config.cpu_burst_percent, 500);  // the node's
  EXPECT_EQ(over.config.cfs_quota_burst_percent, 150);

  PodConfig off = podConfig(node, {{key, R"({"policy":"none"})"}});
  EXPECT_EQ(off.config.policy, CPUBurstPolicy::kNone);
}

TEST(CpuBurstConfigTest, AMalformedAnnotationLeavesTheNodesConfigWithAnError) {
  BurstConfig node;
  node.policy = CPUBurstPolicy::kCFSQuotaBurstOnly;
  const std::string key(api::kAnnotationCPUBurst);
  struct Case {
    std::string text, error_part;
  };
  for (const Case& c : {
           Case{"{not json", "annotations[koordinator.sh/cpuBurst]"},
           Case{R"({"policy":"sometimes"})", "unsupported value \"sometimes\""},
           Case{R"({"cpuBurstPercent":"lots"})", "cpuBurstPercent"},
           Case{R"({"cpuBurstPercent":-1})",
                "annotations[koordinator.sh/cpuBurst].cpuBurstPercent: must be greater than 0"},
       }) {
    PodConfig got = podConfig(node, {{key, c.text}});
    EXPECT_EQ(got.config, node) << c.text;
    EXPECT_FALSE(got.from_annotation) << c.text;
    ASSERT_TRUE(got.error.has_value()) << c.text;
    EXPECT_NE(got.error->find(c.error_part), std::string::npos) << *got.error;
  }
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_burst
