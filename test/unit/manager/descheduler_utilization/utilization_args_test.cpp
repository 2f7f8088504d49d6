// Args decoding and the community's ValidateLowNodeUtilizationArgs /
// ValidateHighNodeUtilizationArgs rules (validation_test.go), in koord's error form.
#include "manager/descheduler/plugins/utilization/utilization_args.hpp"

#include <gtest/gtest.h>

namespace koord::manager::descheduler::utilization {
namespace utilargs_test {

using Json = nlohmann::json;

std::string lowError(const Json& args) {
  auto result = decodeLowNodeUtilizationArgs(args);
  EXPECT_FALSE(result.ok());
  if (!result.ok()) {
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  }
  return result.ok() ? "" : result.status().message();
}

std::string highError(const Json& args) {
  auto result = decodeHighNodeUtilizationArgs(args);
  EXPECT_FALSE(result.ok());
  return result.ok() ? "" : result.status().message();
}

Json lowArgs() {
  return Json{{"thresholds", {{"cpu", 20}, {"memory", 20}}},
              {"targetThresholds", {{"cpu", 80}, {"memory", 80}}}};
}

TEST(LowNodeUtilizationArgs, DecodesEveryField) {
  Json args = lowArgs();
  args["apiVersion"] = "descheduler/v1alpha2";
  args["kind"] = "LowNodeUtilizationArgs";
  args["useDeviationThresholds"] = true;
  args["numberOfNodes"] = 3;
  args["evictableNamespaces"] = {{"exclude", {"kube-system"}}};
  args["evictionLimits"] = {{"node", 2}};
  args["metricsUtilization"] = {{"metricsServer", false}};
  auto decoded = decodeLowNodeUtilizationArgs(args);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE(decoded->use_deviation_thresholds);
  EXPECT_EQ(decoded->thresholds, (ResourceThresholds{{"cpu", 20}, {"memory", 20}}));
  EXPECT_EQ(decoded->target_thresholds, (ResourceThresholds{{"cpu", 80}, {"memory", 80}}));
  EXPECT_EQ(decoded->number_of_nodes, 3);
  EXPECT_EQ(decoded->exclude_namespaces, std::vector<std::string>{"kube-system"});
  EXPECT_EQ(decoded->node_eviction_limit, 2U);
}

TEST(LowNodeUtilizationArgs, CommunityValidationMessages) {
  EXPECT_EQ(lowError(Json()),
            "LowNodeUtilizationArgs.thresholds: thresholds config is not valid: no resource "
            "threshold is configured");
  Json args = lowArgs();
  args["thresholds"]["cpu"] = 120;
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.thresholds: thresholds config is not valid: cpu threshold "
            "not in [0, 100] range");
  args = lowArgs();
  args["targetThresholds"]["memory"] = -1;
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.targetThresholds: targetThresholds config is not valid: "
            "memory threshold not in [0, 100] range");
  args = lowArgs();
  args["targetThresholds"].erase("memory");
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.targetThresholds: thresholds and targetThresholds configured "
            "different resources");
  args = lowArgs();
  args["targetThresholds"] = {{"cpu", 80}, {"pods", 80}};
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.targetThresholds: thresholds and targetThresholds configured "
            "different resources");
  args = lowArgs();
  args["thresholds"]["cpu"] = 90;
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.thresholds: thresholds' cpu percentage is greater than "
            "targetThresholds'");
  args["useDeviationThresholds"] = true;  // deviations may exceed one another
  EXPECT_TRUE(decodeLowNodeUtilizationArgs(args).ok());
  args = lowArgs();
  args["evictableNamespaces"] = {{"include", {"default"}}};
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.evictableNamespaces: only Exclude namespaces can be set, "
            "inclusion is not supported");
}

TEST(LowNodeUtilizationArgs, MetricsUtilizationIsRefusedUnlessDisabled) {
  Json args = lowArgs();
  args["metricsUtilization"] = {{"source", "KubernetesMetrics"}, {"metricsServer", true}};
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.metricsUtilization: it is not allowed to set both "
            "\"KubernetesMetrics\" source and metricsServer");
  args["metricsUtilization"] = {{"source", "Prometheus"}};
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.metricsUtilization: prometheus query is required when metrics "
            "source is set to \"Prometheus\"");
  for (const Json& enabled : {Json{{"metricsServer", true}}, Json{{"source", "KubernetesMetrics"}},
                              Json{{"source", "Prometheus"}, {"prometheus", {{"query", "q"}}}}}) {
    args["metricsUtilization"] = enabled;
    EXPECT_EQ(lowError(args),
              "LowNodeUtilizationArgs.metricsUtilization: not supported by koord (node "
              "utilization is computed from pod requests only)");
  }
  args["metricsUtilization"] = {{"metricsServer", false}, {"source", ""}};
  EXPECT_TRUE(decodeLowNodeUtilizationArgs(args).ok());
  args["metricsUtilization"] = nullptr;
  EXPECT_TRUE(decodeLowNodeUtilizationArgs(args).ok());
}

TEST(LowNodeUtilizationArgs, StrictDecoding) {
  Json args = lowArgs();
  args["thresholdz"] = 1;
  EXPECT_EQ(lowError(args), "LowNodeUtilizationArgs.thresholdz: unknown field");
  args = lowArgs();
  args["evictionLimits"] = {{"node", -1}};
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.evictionLimits.node: must be a non-negative "
            "integer");
  args["evictionLimits"] = {{"total", 1}};
  EXPECT_EQ(lowError(args), "LowNodeUtilizationArgs.evictionLimits.total: unknown field");
  args = lowArgs();
  args["thresholds"]["cpu"] = "20";
  EXPECT_EQ(lowError(args), "LowNodeUtilizationArgs.thresholds.cpu: must be a number");
  args = lowArgs();
  args["numberOfNodes"] = 1.5;
  EXPECT_EQ(lowError(args), "LowNodeUtilizationArgs.numberOfNodes: must be an integer");
  args = lowArgs();
  args["metricsUtilization"] = {{"prometheus", {{"url", "x"}}}};
  EXPECT_EQ(lowError(args),
            "LowNodeUtilizationArgs.metricsUtilization.prometheus.url: unknown "
            "field");
}

TEST(HighNodeUtilizationArgs, DecodesAndValidates) {
  auto decoded =
      decodeHighNodeUtilizationArgs(Json{{"thresholds", {{"cpu", 20}}},
                                         {"numberOfNodes", 2},
                                         {"evictionModes", {"OnlyThresholdingResources"}},
                                         {"evictableNamespaces", {{"exclude", {"a"}}}}});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->number_of_nodes, 2);
  EXPECT_EQ(decoded->eviction_modes, std::vector<std::string>{"OnlyThresholdingResources"});

  EXPECT_EQ(highError(Json::object()),
            "HighNodeUtilizationArgs.thresholds: no resource threshold is configured");
  EXPECT_EQ(highError(Json{{"thresholds", {{"cpu", 101}}}}),
            "HighNodeUtilizationArgs.thresholds: cpu threshold not in [0, 100] range");
  EXPECT_EQ(highError(Json{{"thresholds", {{"cpu", 20}}}, {"evictionModes", {"Everything"}}}),
            "HighNodeUtilizationArgs.evictionModes: invalid eviction mode Everything");
  EXPECT_EQ(
      highError(Json{{"thresholds", {{"cpu", 20}}}, {"evictableNamespaces", {{"include", {"a"}}}}}),
      "HighNodeUtilizationArgs.evictableNamespaces: only Exclude namespaces can be set, "
      "inclusion is not supported");
  EXPECT_EQ(highError(Json{{"thresholds", {{"cpu", 20}}}, {"targetThresholds", {{"cpu", 20}}}}),
            "HighNodeUtilizationArgs.targetThresholds: unknown field");
}

}  // namespace utilargs_test
}  // namespace koord::manager::descheduler::utilization
