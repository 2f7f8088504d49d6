#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "koord/api/config/cluster_colocation_profile.hpp"

namespace koord::api::config {
namespace {

constexpr const char* kProfile = R"({
  "apiVersion": "config.koordinator.sh/v1alpha1",
  "kind": "ClusterColocationProfile",
  "metadata": {"name": "colocation-profile-example"},
  "spec": {
    "namespaceSelector": {"matchLabels": {"koordinator.sh/enable-colocation": "true"}},
    "selector": {"matchLabels": {"koordinator.sh/enable-colocation": "true"}},
    "probability": "50%",
    "qosClass": "BE",
    "priorityClassName": "koord-batch",
    "koordinatorPriority": 1000,
    "schedulerName": "koord-scheduler",
    "labels": {"koordinator.sh/mutated": "true"},
    "annotations": {"koordinator.sh/intercepted": "true"},
    "labelKeysMapping": {"app": "koordinator.sh/app"},
    "annotationKeysMapping": {"a": "b"},
    "labelSuffixes": {"tier": "-be"},
    "patch": {"spec": {"terminationGracePeriodSeconds": 30}},
    "futureField": [1]
  },
  "status": {}
})";

TEST(ClusterColocationProfileTest, RoundTrip) {
  auto p = decode<ClusterColocationProfile>(kProfile);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->spec.qosClass, "BE");
  EXPECT_EQ(p->spec.priorityClassName, "koord-batch");
  EXPECT_EQ(p->spec.koordinatorPriority, 1000);
  EXPECT_EQ(p->spec.probability, "50%");
  EXPECT_EQ(p->spec.labelSuffixes.at("tier"), "-be");
  EXPECT_EQ(p->spec.patch["spec"]["terminationGracePeriodSeconds"], 30);
  Json out = toJson(*p);
  Json in = Json::parse(kProfile);
  EXPECT_EQ(out["spec"], in["spec"]);
  EXPECT_EQ(out["status"], in["status"]);
}

TEST(ClusterColocationProfileTest, ProbabilityKeepsBothForms) {
  struct Case {
    std::string probability;
    std::optional<int32_t> percent;
  };
  const std::vector<Case> cases = {
      {"", 100},
      {R"("50%")", 50},
      {"50", 50},
      {R"("0%")", 0},
      {"100", 100},
      {R"("50")", std::nullopt},
      {R"("%")", std::nullopt},
      {R"("150%")", std::nullopt},
      {"-1", std::nullopt},
  };
  for (const auto& tc : cases) {
    std::string spec = tc.probability.empty() ? "{}" : R"({"probability":)" + tc.probability + "}";
    auto p = decode<ClusterColocationProfileSpec>(spec, "spec");
    ASSERT_TRUE(p.ok()) << spec << ": " << p.status();
    // The form written is the form read.
    Json out = toJson(*p);
    if (tc.probability.empty()) {
      EXPECT_FALSE(out.contains("probability"));
    } else {
      EXPECT_EQ(out["probability"], Json::parse(tc.probability));
    }
    auto percent = probabilityPercent(*p);
    if (tc.percent) {
      ASSERT_TRUE(percent.ok()) << spec << ": " << percent.status();
      EXPECT_EQ(*percent, *tc.percent) << spec;
    } else {
      EXPECT_FALSE(percent.ok()) << spec;
    }
  }
}

TEST(ClusterColocationProfileTest, EnumsAreChecked) {
  struct Case {
    std::string spec;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"qosClass":"Burstable"})",
       "spec.qosClass: unsupported value \"Burstable\": supported values: \"\", \"LSE\", "
       "\"LSR\", \"LS\", \"BE\", \"SYSTEM\""},
      {R"({"priorityClassName":"high"})",
       "spec.priorityClassName: unsupported value \"high\": supported values: \"\", "
       "\"koord-prod\", \"koord-mid\", \"koord-batch\", \"koord-free\""},
      {R"({"probability":true})", "spec.probability: expected integer or string, got boolean"},
      {R"({"koordinatorPriority":"1"})", "spec.koordinatorPriority: expected integer, got string"},
  };
  for (const auto& tc : cases) {
    auto p = decode<ClusterColocationProfileSpec>(tc.spec, "spec");
    ASSERT_FALSE(p.ok()) << tc.spec;
    EXPECT_EQ(p.status().message(), tc.message);
  }
}

}  // namespace
}  // namespace koord::api::config
