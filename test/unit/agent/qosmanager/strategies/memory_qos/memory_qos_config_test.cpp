#include "agent/qosmanager/strategies/memory_qos/memory_qos_config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace koord::agent::qosmanager::strategies::memory_qos {
namespace {

using ::testing::HasSubstr;

api::slo::ResourceQOSStrategy strategyFrom(const std::string& json) {
  api::slo::ResourceQOSStrategy out;
  EXPECT_TRUE(api::slo::fromJson(api::parseJson(json).value(), out, "").isOk()) << json;
  return out;
}

TEST(MemoryQosConfig, EnabledClassesMergeOntoDefaultsDisabledOnesAreNone) {
  const auto config = memoryQosConfigFrom(strategyFrom(R"({
      "lsrClass": {"memoryQOS": {"enable": true, "minLimitPercent": 100}},
      "lsClass": {"memoryQOS": {"enable": true, "minLimitPercent": 20, "lowLimitPercent": 40,
                                "throttlingPercent": 80}},
      "beClass": {"memoryQOS": {"enable": false, "minLimitPercent": 50, "throttlingPercent": 60}}
  })"));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->lsr.enabled);
  EXPECT_EQ(config->lsr.profile, (MemoryQosProfile{100, 0, 0}));  // the rest: defaults (0)
  EXPECT_EQ(config->ls.profile, (MemoryQosProfile{20, 40, 80}));
  EXPECT_FALSE(config->be.enabled);
  EXPECT_EQ(config->be.profile, noneMemoryQosProfile());  // disabled: reset, values ignored
  EXPECT_FALSE(config->system.enabled);                   // absent: enable false
  // LSE pods use the LSR class.
  EXPECT_EQ(config->forClass(api::QoSClass::kLSE), &config->lsr);
  EXPECT_EQ(config->forClass(api::QoSClass::kSystem), &config->system);
  EXPECT_EQ(config->forClass(api::QoSClass::kNone), nullptr);
}

TEST(MemoryQosConfig, EnableUnsetIsDisabled) {
  const auto config =
      memoryQosConfigFrom(strategyFrom(R"({"lsClass": {"memoryQOS": {"minLimitPercent": 20}}})"));
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->ls.enabled);
  EXPECT_EQ(config->ls.profile, (MemoryQosProfile{0, 0, 0}));
}

TEST(MemoryQosConfig, PercentagesOutside0To100AreRejectedNamingTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"lsClass": {"memoryQOS": {"enable": true, "minLimitPercent": 150}}})",
       "resourceQOSStrategy.lsClass.memoryQOS.minLimitPercent is 150: must be 0..100"},
      {R"({"beClass": {"memoryQOS": {"enable": true, "lowLimitPercent": -1}}})",
       "resourceQOSStrategy.beClass.memoryQOS.lowLimitPercent is -1: must be 0..100"},
      {R"({"lsrClass": {"memoryQOS": {"enable": false, "throttlingPercent": 101}}})",
       "resourceQOSStrategy.lsrClass.memoryQOS.throttlingPercent is 101: must be 0..100"},
      {R"({"systemClass": {"memoryQOS": {"enable": true, "throttlingPercent": -20}}})",
       "resourceQOSStrategy.systemClass.memoryQOS.throttlingPercent is -20: must be 0..100"},
  };
  for (const auto& [json, message] : cases) {
    SCOPED_TRACE(json);
    const auto config = memoryQosConfigFrom(strategyFrom(json));
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(config.status().message(), HasSubstr(message));
  }
}

struct AnnotationCase {
  std::string name;
  std::optional<std::string> annotation;  // nullopt: none
  ClassMemoryQos node_class;
  PodMemoryQos want;
};

TEST(MemoryQosConfig, PodAnnotationPolicies) {
  const ClassMemoryQos enabled{true, {30, 60, 70}};
  const ClassMemoryQos disabled{false, {0, 0, 0}};
  const std::vector<AnnotationCase> cases = {
      {"no annotation: the node's class", std::nullopt, enabled, {"node", {30, 60, 70}}},
      {"none ignores the node and its own fields",
       R"({"policy":"none","minLimitPercent":90})",
       enabled,
       {"none", {0, 0, 0}}},
      {"auto: koordlet's built-in profile (all 0)",
       R"({"policy":"auto"})",
       enabled,
       {"auto", {0, 0, 0}}},
      {"auto then the pod's fields",
       R"({"policy":"auto","throttlingPercent":40})",
       enabled,
       {"auto", {0, 0, 40}}},
      {"default: the node's class then the fields",
       R"({"policy":"default","lowLimitPercent":90})",
       enabled,
       {"default", {30, 90, 70}}},
      {"no policy reads as default",
       R"({"minLimitPercent":100})",
       disabled,
       {"default", {100, 0, 0}}},
      {"empty policy reads as default", R"({"policy":""})", enabled, {"default", {30, 60, 70}}},
      {"other MemoryQOS fields are accepted",
       R"({"policy":"default","wmarkRatio":95})",
       enabled,
       {"default", {30, 60, 70}}},
  };
  for (const AnnotationCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::map<std::string, std::string> annotations;
    if (c.annotation) {
      annotations[std::string(api::kAnnotationMemoryQOS)] = *c.annotation;
    }
    const auto parsed = parsePodMemoryQos(annotations);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    const PodMemoryQos got = resolvePodMemoryQos(c.node_class, api::QoSClass::kLS, *parsed);
    EXPECT_EQ(got.policy, c.want.policy);
    EXPECT_EQ(got.profile, c.want.profile);
  }
}

TEST(MemoryQosConfig, MalformedAnnotationsAreErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"not json", "annotation koordinator.sh/memoryQOS: "},
      {"[1,2]", "expected a JSON object"},
      {R"({"policy":"strict"})", "unknown policy 'strict': expected auto, default or none"},
      {R"({"policy":3})", "policy: expected a string"},
      {R"({"minLimitPercent":"x"})", "minLimitPercent"},
      {R"({"lowLimitPercent":120})", "lowLimitPercent is 120: must be 0..100"},
      {R"({"throttlingPercent":-3})", "throttlingPercent is -3: must be 0..100"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    const auto parsed = parsePodMemoryQos({{std::string(api::kAnnotationMemoryQOS), text}});
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(parsed.status().message(), HasSubstr(message));
  }
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_qos
