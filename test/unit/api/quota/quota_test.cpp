#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "koord/api/quota/elastic_quota_profile.hpp"

namespace koord::api::quota {
namespace {

constexpr const char* kProfile = R"({
  "apiVersion": "quota.koordinator.sh/v1alpha1",
  "kind": "ElasticQuotaProfile",
  "metadata": {"name": "qp-cluster-a", "namespace": "kube-system",
               "annotations": {"quota.scheduling.koordinator.sh/resource-keys": "[\"cpu\"]"}},
  "spec": {"quotaName": "cluster-a", "quotaLabels": {"team": "a"}, "resourceRatio": "0.9",
           "nodeSelector": {"matchLabels": {"pool": "a"}}, "later": 1}
})";

TEST(ElasticQuotaProfileTest, RoundTrip) {
  auto p = decode<ElasticQuotaProfile>(kProfile);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->metadata.namespace_, "kube-system");
  EXPECT_EQ(p->spec.quotaName, "cluster-a");
  EXPECT_EQ(p->spec.resourceRatio, "0.9");
  EXPECT_EQ(p->spec.nodeSelector->matchLabels.at("pool"), "a");
  Json out = toJson(*p);
  EXPECT_EQ(out["spec"], Json::parse(kProfile)["spec"]);
  ElasticQuotaProfile again;
  ASSERT_TRUE(fromJson(out, again, "").isOk());
  EXPECT_EQ(again, *p);
}

TEST(ElasticQuotaProfileTest, RequiredFields) {
  struct Case {
    std::string spec;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"nodeSelector":{}})", "spec.quotaName: required"},
      {R"({"quotaName":"q"})", "spec.nodeSelector: required"},
      {R"({"quotaName":"q","nodeSelector":{},"resourceRatio":0.9})",
       "spec.resourceRatio: expected string, got number"},
  };
  for (const auto& tc : cases) {
    auto p = decode<ElasticQuotaProfile>(R"({"spec":)" + tc.spec + "}");
    ASSERT_FALSE(p.ok()) << tc.spec;
    EXPECT_EQ(p.status().message(), tc.message);
  }
}

}  // namespace
}  // namespace koord::api::quota
