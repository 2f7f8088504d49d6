#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "koord/api/extension/coscheduling.hpp"
#include "koord/api/extension/elastic_quota.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {
namespace {

using StringMap = std::map<std::string, std::string>;

StringMap gangAnnotations(StringMap extra) {
  StringMap a = {{std::string(kAnnotationGangName), "gang-a"}};
  a.merge(extra);
  return a;
}

TEST(GangSpecTest, ReadsEveryAnnotation) {
  StringMap annotations = {
      {std::string(kAnnotationGangName), "gang-a"},
      {std::string(kAnnotationGangMinNum), "3"},
      {std::string(kAnnotationGangTotalNum), "5"},
      {std::string(kAnnotationGangWaitTime), "30s"},
      {std::string(kAnnotationGangMode), "NonStrict"},
      {std::string(kAnnotationGangMatchPolicy), "waiting-and-running"},
      {std::string(kAnnotationGangGroups), R"(["ns/gang-a","ns/gang-b"])"},
  };
  auto spec = gangSpecOf({}, annotations);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->name, "gang-a");
  EXPECT_EQ(spec->minAvailable, 3);
  EXPECT_EQ(spec->totalNumber, 5);
  EXPECT_EQ(spec->waitingTime, "30s");
  EXPECT_EQ(spec->mode, GangMode::kNonStrict);
  EXPECT_EQ(spec->matchPolicy, GangMatchPolicy::kWaitingAndRunning);
  EXPECT_EQ(spec->groups, (std::vector<std::string>{"ns/gang-a", "ns/gang-b"}));
}

TEST(GangSpecTest, DefaultsAndAliases) {
  struct Case {
    std::string name;
    StringMap labels;
    StringMap annotations;
    GangMode mode;
    GangMatchPolicy policy;
    std::optional<int32_t> min;
  };
  const std::vector<Case> cases = {
      {"defaults",
       {},
       gangAnnotations({}),
       GangMode::kStrict,
       GangMatchPolicy::kOnceSatisfied,
       std::nullopt},
      {"unknown mode reads as Strict",
       {},
       gangAnnotations({{std::string(kAnnotationGangMode), "Loose"}}),
       GangMode::kStrict,
       GangMatchPolicy::kOnceSatisfied,
       std::nullopt},
      {"alias match policy",
       {},
       gangAnnotations({{std::string(kAnnotationAliasGangMatchPolicy), "only-waiting"}}),
       GangMode::kStrict,
       GangMatchPolicy::kOnlyWaiting,
       std::nullopt},
      {"koordinator key wins over the alias",
       {},
       gangAnnotations({{std::string(kAnnotationAliasGangMatchPolicy), "only-waiting"},
                        {std::string(kAnnotationGangMatchPolicy), "waiting-and-running"}}),
       GangMode::kStrict,
       GangMatchPolicy::kWaitingAndRunning,
       std::nullopt},
      {"deprecated min-available label wins",
       {{std::string(kLabelLightweightCoschedulingPodGroupMinAvailable), "4"}},
       gangAnnotations({{std::string(kAnnotationGangMinNum), "2"}}),
       GangMode::kStrict,
       GangMatchPolicy::kOnceSatisfied,
       4},
  };
  for (const auto& tc : cases) {
    auto spec = gangSpecOf(tc.labels, tc.annotations);
    ASSERT_TRUE(spec.ok()) << tc.name << ": " << spec.status();
    EXPECT_EQ(spec->mode, tc.mode) << tc.name;
    EXPECT_EQ(spec->matchPolicy, tc.policy) << tc.name;
    EXPECT_EQ(spec->minAvailable, tc.min) << tc.name;
  }
}

TEST(GangSpecTest, BadValuesNameTheirKey) {
  struct Case {
    StringMap labels;
    StringMap annotations;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{},
       gangAnnotations({{std::string(kAnnotationGangMinNum), "three"}}),
       "failed to parse annotation 'gang.scheduling.koordinator.sh/min-available': expected an "
       "integer, got \"three\""},
      {{{std::string(kLabelLightweightCoschedulingPodGroupMinAvailable), "9999999999"}},
       {},
       "failed to parse label 'pod-group.scheduling.sigs.k8s.io/min-available': expected an "
       "integer, got \"9999999999\""},
      {{},
       gangAnnotations({{std::string(kAnnotationGangWaitTime), "30"}}),
       "failed to parse annotation 'gang.scheduling.koordinator.sh/waiting-time': invalid "
       "duration \"30\": missing unit"},
      {{}, gangAnnotations({{std::string(kAnnotationGangGroups), "ns/a"}}), ""},
  };
  for (const auto& tc : cases) {
    auto spec = gangSpecOf(tc.labels, tc.annotations);
    ASSERT_FALSE(spec.ok());
    EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument);
    if (tc.message.empty()) {
      EXPECT_EQ(spec.status().message().rfind(
                    "failed to parse annotation 'gang.scheduling.koordinator.sh/groups': ", 0),
                0U)
          << spec.status();
    } else {
      EXPECT_EQ(spec.status().message(), tc.message);
    }
  }
}

TEST(ElasticQuotaLabelsTest, TreeHelpers) {
  EXPECT_EQ(parentQuotaName("team-a", {}), kRootQuotaName);
  EXPECT_EQ(parentQuotaName(kRootQuotaName, {}), "");
  EXPECT_EQ(parentQuotaName("team-a", {{std::string(kLabelQuotaParent), "org"}}), "org");
  EXPECT_TRUE(isParentQuota({{std::string(kLabelQuotaIsParent), "true"}}));
  EXPECT_FALSE(isParentQuota({{std::string(kLabelQuotaIsParent), "yes"}}));
  EXPECT_TRUE(isAllowLentResource({}));
  EXPECT_TRUE(isAllowLentResource({{std::string(kLabelAllowLentResource), "no"}}));
  EXPECT_FALSE(isAllowLentResource({{std::string(kLabelAllowLentResource), "false"}}));
  EXPECT_TRUE(isAllowForceUpdate({{std::string(kLabelAllowForceUpdate), "true"}}));
  EXPECT_FALSE(isAllowForceUpdate({}));
  EXPECT_TRUE(isTreeRootQuota({{std::string(kLabelQuotaIsRoot), "true"}}));
  EXPECT_TRUE(isPodNonPreemptible({{std::string(kLabelPreemptible), "false"}}));
  EXPECT_FALSE(isPodNonPreemptible({}));
}

TEST(ElasticQuotaLabelsTest, SharedWeightDefaultsToMax) {
  resource::ResourceList max = {{"cpu", *resource::Quantity::parse("100")}};
  const std::string key(kAnnotationQuotaSharedWeight);
  struct Case {
    std::string name;
    StringMap annotations;
    std::string want_cpu;
  };
  const std::vector<Case> cases = {
      {"absent", {}, "100"},
      {"set", {{key, R"({"cpu":"40"})"}}, "40"},
      {"all zero", {{key, R"({"cpu":"0"})"}}, "100"},
      {"unparseable", {{key, "forty"}}, "100"},
  };
  for (const auto& tc : cases) {
    auto weight = sharedWeightOf(tc.annotations, max);
    EXPECT_EQ(resource::get(weight, "cpu").toString(), tc.want_cpu) << tc.name;
  }
}

TEST(ElasticQuotaLabelsTest, StringListAnnotations) {
  auto keys = parseQuotaResourceKeys(R"(["cpu","memory","nvidia.com/gpu"])");
  ASSERT_TRUE(keys.ok()) << keys.status();
  EXPECT_EQ(keys->size(), 3U);
  auto strict = parseQuotaMaxStrictCheckResourceKeys("cpu");
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().message().rfind(
                "failed to parse annotation "
                "'quota.scheduling.koordinator.sh/max-strict-check-resource-keys': invalid JSON",
                0),
            0U)
      << strict.status();
}

}  // namespace
}  // namespace koord::api::extension
