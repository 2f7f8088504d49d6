#include "koord/api/registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace koord::api {
namespace {

struct Case {
  std::string name;
  std::string object;
  StatusCode code;
  std::string message;  // checked when non-empty
};

std::vector<Case> cases() {
  return {
      {"short-form reservation v1",
       R"({"apiVersion":"scheduling.koordinator.sh/v1","kind":"Reservation","metadata":{"name":"game-server-reservation"},"spec":{"resources":{"requests":{"cpu":"4","memory":"8Gi"}}}})",
       StatusCode::kOk, ""},
      {"full reservation v1alpha1",
       R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
           "metadata":{"name":"r"},"spec":{"template":{"spec":{"containers":[{"name":"c"}]}},
           "owners":[{"labelSelector":{"matchLabels":{"app":"web"}}}],"ttl":"1h"}})",
       StatusCode::kOk, ""},
      {"reservation failing validation",
       R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
           "metadata":{"name":"bad"},"spec":{"owners":[{}]}})",
       StatusCode::kInvalidArgument,
       "failed to validate Reservation 'bad': spec.template: required (or the short form "
       "spec.resources); spec.owners[0]: must set at least one of object, controller, "
       "labelSelector"},
      {"reservation failing decode",
       R"({"apiVersion":"scheduling.koordinator.sh/v1","kind":"Reservation",
           "metadata":{"name":"r2"},"spec":{"allocatePolicy":"Loose"}})",
       StatusCode::kInvalidArgument,
       "failed to decode Reservation 'r2': spec.allocatePolicy: unsupported value \"Loose\": "
       "supported values: \"\", \"Aligned\", \"Restricted\""},
      {"reservation list validates its items",
       R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"ReservationList",
           "items":[{"metadata":{"name":"i0"},"spec":{"resources":{"requests":{"cpu":"1"}}}},
                    {"metadata":{"name":"i1"},"spec":{}}]})",
       StatusCode::kInvalidArgument,
       "failed to validate Reservation 'i1': spec.template: required (or the short form "
       "spec.resources); spec.owners: required (at least one owner)"},
      {"pod migration job",
       R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
           "metadata":{"name":"m"},"spec":{"podRef":{"name":"p","namespace":"default"}}})",
       StatusCode::kOk, ""},
      {"pod migration job without podRef",
       R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
           "metadata":{"name":"m"},"spec":{}})",
       StatusCode::kInvalidArgument, "failed to decode PodMigrationJob 'm': spec.podRef: required"},
      {"device",
       R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device",
           "metadata":{"name":"n"},"spec":{"devices":[{"type":"gpu","health":true}]}})",
       StatusCode::kOk, ""},
      {"node metric",
       R"({"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{"name":"n"},
           "status":{"nodeMetric":{"nodeUsage":{"resources":{"cpu":"1"}}}}})",
       StatusCode::kOk, ""},
      {"node slo",
       R"({"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeSLO","metadata":{"name":"n"},
           "spec":{"cpuBurstStrategy":{"policy":"sometimes"}}})",
       StatusCode::kInvalidArgument,
       "failed to decode NodeSLO 'n': spec.cpuBurstStrategy.policy: unsupported value "
       "\"sometimes\": supported values: \"none\", \"cpuBurstOnly\", \"cfsQuotaBurstOnly\", "
       "\"auto\""},
      {"colocation profile",
       R"({"apiVersion":"config.koordinator.sh/v1alpha1","kind":"ClusterColocationProfile",
           "metadata":{"name":"p"},"spec":{"qosClass":"BE","probability":"50%"}})",
       StatusCode::kOk, ""},
      {"elastic quota profile",
       R"({"apiVersion":"quota.koordinator.sh/v1alpha1","kind":"ElasticQuotaProfile",
           "metadata":{"name":"p"},"spec":{"quotaName":"q","nodeSelector":{}}})",
       StatusCode::kOk, ""},
      {"elastic quota",
       R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"ElasticQuota",
           "metadata":{"name":"q"},"spec":{"max":{"cpu":"x"}}})",
       StatusCode::kInvalidArgument, ""},
      {"pod group",
       R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"PodGroup",
           "metadata":{"name":"g"},"spec":{"minMember":3}})",
       StatusCode::kOk, ""},
      {"node resource topology",
       R"({"apiVersion":"topology.node.k8s.io/v1alpha1","kind":"NodeResourceTopology",
           "metadata":{"name":"n"},"topologyPolicies":["None"],"zones":[]})",
       StatusCode::kOk, ""},
      {"core node",
       R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n",
           "annotations":{"node.koordinator.sh/reservation":"{\"reservedCPUs\":\"0-3\"}"}}})",
       StatusCode::kOk, ""},
      {"unknown kind", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}})",
       StatusCode::kNotFound, "failed to validate object: unknown kind 'Deployment' in 'apps/v1'"},
      {"right kind, unknown version", R"({"apiVersion":"slo.koordinator.sh/v1","kind":"NodeSLO"})",
       StatusCode::kNotFound,
       "failed to validate object: unknown kind 'NodeSLO' in 'slo.koordinator.sh/v1'"},
      {"no kind", R"({"apiVersion":"v1"})", StatusCode::kInvalidArgument,
       "failed to validate object: kind: required"},
      {"kind not a string", R"({"apiVersion":"v1","kind":3})", StatusCode::kInvalidArgument,
       "failed to validate object: kind: expected string, got number"},
      {"not an object", R"([1])", StatusCode::kInvalidArgument,
       "failed to validate object: expected object, got array"},
  };
}

TEST(RegistryTest, DispatchesOnApiVersionAndKind) {
  for (const auto& tc : cases()) {
    SCOPED_TRACE(tc.name);
    Json object = Json::parse(tc.object);
    Status status = validateKnownObject(object);
    EXPECT_EQ(status.code(), tc.code) << status;
    if (!tc.message.empty()) {
      EXPECT_EQ(status.message(), tc.message);
    }
  }
}

TEST(RegistryTest, KnownKindsCoverEveryCrd) {
  std::set<std::string> kinds;
  for (const auto& k : knownKinds()) {
    kinds.insert(std::string(k.apiVersion) + " " + std::string(k.kind));
  }
  for (const char* want : {
           "scheduling.koordinator.sh/v1alpha1 Reservation",
           "scheduling.koordinator.sh/v1 Reservation",
           "scheduling.koordinator.sh/v1alpha1 PodMigrationJob",
           "scheduling.koordinator.sh/v1alpha1 Device",
           "slo.koordinator.sh/v1alpha1 NodeMetric",
           "slo.koordinator.sh/v1alpha1 NodeSLO",
           "config.koordinator.sh/v1alpha1 ClusterColocationProfile",
           "quota.koordinator.sh/v1alpha1 ElasticQuotaProfile",
           "scheduling.sigs.k8s.io/v1alpha1 ElasticQuota",
           "scheduling.sigs.k8s.io/v1alpha1 PodGroup",
           "topology.node.k8s.io/v1alpha1 NodeResourceTopology",
       }) {
    EXPECT_EQ(kinds.count(want), 1U) << want;
  }
}

}  // namespace
}  // namespace koord::api
