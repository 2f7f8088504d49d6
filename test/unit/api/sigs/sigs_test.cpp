#include <gtest/gtest.h>

#include <string>

#include "koord/api/extension/annotation.hpp"
#include "koord/api/sigs/elastic_quota.hpp"
#include "koord/api/sigs/pod_group.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::sigs {
namespace {

constexpr const char* kQuota = R"({
  "apiVersion": "scheduling.sigs.k8s.io/v1alpha1",
  "kind": "ElasticQuota",
  "metadata": {"name": "quota-example", "namespace": "default",
    "labels": {"quota.scheduling.koordinator.sh/parent": "parent-quota",
               "quota.scheduling.koordinator.sh/is-parent": "false"},
    "annotations": {"quota.scheduling.koordinator.sh/shared-weight": "{\"cpu\":\"8\",\"memory\":\"40Gi\"}",
                    "quota.scheduling.koordinator.sh/runtime": "{\"cpu\":\"4500m\"}"}},
  "spec": {"max": {"cpu": 20, "memory": "40Gi"}, "min": {"cpu": "10", "memory": "20Gi"}},
  "status": {"used": {"cpu": "2", "memory": "4Gi"}}
})";

TEST(ElasticQuotaTest, RoundTripAndAnnotations) {
  auto q = decode<ElasticQuota>(kQuota);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->spec.max.at("cpu").value(), 20);
  EXPECT_EQ(q->spec.min.at("memory").toString(), "20Gi");
  EXPECT_EQ(q->status.used.at("cpu").value(), 2);
  auto shared = extension::parseResourceListAnnotation(
      kAnnotationQuotaSharedWeight,
      q->metadata.annotations.at(std::string(kAnnotationQuotaSharedWeight)));
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_EQ(shared->at("memory").toString(), "40Gi");
  Json out = toJson(*q);
  // The number 20 comes back as the canonical quantity string.
  EXPECT_EQ(out["spec"]["max"]["cpu"], "20");
  EXPECT_EQ(out["status"], Json::parse(kQuota)["status"]);
  EXPECT_EQ(out["metadata"]["annotations"], Json::parse(kQuota)["metadata"]["annotations"]);
}

constexpr const char* kPodGroup = R"({
  "apiVersion": "scheduling.sigs.k8s.io/v1alpha1",
  "kind": "PodGroup",
  "metadata": {"name": "gang-example", "namespace": "default"},
  "spec": {"minMember": 2, "scheduleTimeoutSeconds": 100, "minResources": {"cpu": "4"}},
  "status": {"phase": "Scheduling", "scheduled": 1, "running": 0,
             "scheduleStartTime": "2024-05-01T10:00:00Z", "occupiedBy": "default/job"}
})";

TEST(PodGroupTest, RoundTrip) {
  auto pg = decode<PodGroup>(kPodGroup);
  ASSERT_TRUE(pg.ok()) << pg.status();
  EXPECT_EQ(pg->spec.minMember, 2);
  EXPECT_EQ(pg->spec.scheduleTimeoutSeconds, 100);
  EXPECT_EQ(pg->status.phase, kPodGroupScheduling);
  EXPECT_EQ(pg->status.scheduled, 1);
  Json out = toJson(*pg);
  Json in = Json::parse(kPodGroup);
  EXPECT_EQ(out["spec"], in["spec"]);
  // Zero counters are omitted, as Go's omitempty does.
  EXPECT_FALSE(out["status"].contains("running"));
  in["status"].erase("running");
  EXPECT_EQ(out["status"], in["status"]);
}

TEST(PodGroupTest, Errors) {
  auto pg = decode<PodGroup>(R"({"spec":{"minMember":2.5}})");
  ASSERT_FALSE(pg.ok());
  EXPECT_EQ(pg.status().message(), "spec.minMember: expected integer, got number");
}

}  // namespace
}  // namespace koord::api::sigs
