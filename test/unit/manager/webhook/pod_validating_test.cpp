// The pod validating webhook: the QoS x priority matrix, batch and mid resources, LSR/LSE CPUs,
// immutability on UPDATE, and bad input.
#include "manager/webhook/pod_validating.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

using api::Json;
using testing::json;
using testing::request;

// A pod with the given QoS label ("" for none), spec.priority (0 for none) and container requests.
Json pod(const std::string& qos, int priority, const std::string& requests = R"({"cpu": "2"})") {
  Json p = json(R"({"metadata": {"name": "p1", "namespace": "default", "labels": {}},
                    "spec": {"containers": [{"name": "c", "resources": {}}]}})");
  if (!qos.empty()) {
    p["metadata"]["labels"]["koordinator.sh/qosClass"] = qos;
  }
  if (priority != 0) {
    p["spec"]["priority"] = priority;
  }
  p["spec"]["containers"][0]["resources"]["requests"] = json(requests);
  return p;
}

api::admission::AdmissionResponse validate(const Json& object, const Json& old = Json(),
                                           const std::string& operation = "CREATE") {
  PodValidatingHandler handler({});
  return handler.admit(request(operation, "pods", object, old));
}

TEST(PodValidatingTest, QoSAndPriorityMatrix) {
  struct Band {
    std::string name;
    int priority;
  };
  const std::vector<Band> bands = {{"", 0},
                                   {"koord-prod", 9500},
                                   {"koord-mid", 7500},
                                   {"koord-batch", 5500},
                                   {"koord-free", 3500}};
  // allowed[qos][band index]
  const std::vector<std::pair<std::string, std::vector<bool>>> matrix = {
      {"", {true, true, true, true, true}},        {"SYSTEM", {true, true, true, true, true}},
      {"LS", {true, true, true, true, true}},      {"LSR", {false, true, false, false, false}},
      {"LSE", {false, true, false, false, false}}, {"BE", {false, false, true, true, true}},
  };
  for (const auto& [qos, allowed] : matrix) {
    for (size_t i = 0; i < bands.size(); ++i) {
      auto response = validate(pod(qos, bands[i].priority));
      EXPECT_EQ(response.allowed, allowed[i]) << qos << " x " << bands[i].name;
      if (!allowed[i]) {
        ASSERT_TRUE(response.result.has_value());
        EXPECT_EQ(response.result->code, 403);
        EXPECT_EQ(response.result->message, "Pod: Forbidden: koordinator.sh/qosClass=" + qos +
                                                " and priorityClass=" + bands[i].name +
                                                " cannot be used in combination");
      }
    }
  }
}

TEST(PodValidatingTest, ResourceRules) {
  struct Case {
    std::string name;
    std::string qos;
    int priority;
    std::string requests;
    std::string message;  // "" when allowed
  };
  const std::vector<Case> cases = {
      {"batch resources with BE", "BE", 5500, R"({"kubernetes.io/batch-cpu": "1k"})", ""},
      {"batch resources without BE", "LS", 5500, R"({"kubernetes.io/batch-memory": "1Gi"})",
       "labels.koordinator.sh/qosClass: Required value: must specify koordinator QoS BE with "
       "koordinator colocation resources"},
      {"zero batch resources need nothing", "LS", 9500, R"({"kubernetes.io/batch-cpu": "0"})", ""},
      {"mid resources with mid priority", "LS", 7500, R"({"kubernetes.io/mid-cpu": "1k"})", ""},
      {"mid resources with batch priority", "BE", 5500, R"({"kubernetes.io/mid-memory": "1Gi"})",
       "spec.priority: Forbidden: koordinator mid resources (kubernetes.io/mid-cpu, "
       "kubernetes.io/mid-memory) can only be used with priorityClass=koord-mid"},
      {"LSR with whole CPUs", "LSR", 9500, R"({"cpu": "4"})", ""},
      {"LSR with a fraction", "LSR", 9500, R"({"cpu": "1500m"})",
       "pod.spec.containers[*].resources.requests: Invalid value: \"1500m\": the requested CPUs "
       "of LSR Pod must be integer"},
      {"LSE without CPUs", "LSE", 9500, R"({"memory": "1Gi"})",
       "pod.spec.containers[*].resources.requests: Required value: LSE Pod must declare the "
       "requested CPUs"},
      {"several errors at once", "LSR", 5500, R"({"cpu": "500m", "kubernetes.io/batch-cpu": "1"})",
       "[labels.koordinator.sh/qosClass: Required value: must specify koordinator QoS BE with "
       "koordinator colocation resources, Pod: Forbidden: koordinator.sh/qosClass=LSR and "
       "priorityClass=koord-batch cannot be used in combination, "
       "pod.spec.containers[*].resources.requests: Invalid value: \"500m\": the requested CPUs of "
       "LSR Pod must be integer]"},
  };
  for (const auto& tc : cases) {
    auto response = validate(pod(tc.qos, tc.priority, tc.requests));
    EXPECT_EQ(response.allowed, tc.message.empty()) << tc.name;
    if (!tc.message.empty()) {
      ASSERT_TRUE(response.result.has_value()) << tc.name;
      EXPECT_EQ(response.result->message, tc.message) << tc.name;
    }
  }
}

TEST(PodValidatingTest, PriorityClassLabelCounts) {
  Json p = pod("BE", 9500);  // prod by spec.priority ...
  p["metadata"]["labels"]["koordinator.sh/priority-class"] = "koord-batch";  // ... batch by label
  EXPECT_TRUE(validate(p).allowed);
}

TEST(PodValidatingTest, UpdateKeepsQoSPriorityAndSubPriority) {
  struct Case {
    std::string name;
    Json old_pod;
    Json new_pod;
    std::string message;
  };
  Json with_sub = pod("BE", 5500);
  with_sub["metadata"]["labels"]["koordinator.sh/priority"] = "1111";
  Json other_sub = with_sub;
  other_sub["metadata"]["labels"]["koordinator.sh/priority"] = "2222";
  const std::vector<Case> cases = {
      {"unchanged", pod("BE", 5500), pod("BE", 5500), ""},
      {"priority moves inside the band", pod("BE", 5500), pod("BE", 5999), ""},
      {"QoS changes", pod("LS", 9500), pod("LSR", 9500),
       "labels.koordinator.sh/qosClass: Invalid value: \"LSR\": field is immutable"},
      {"band changes", pod("BE", 5500), pod("BE", 7500),
       "spec.priority: Invalid value: \"koord-mid\": field is immutable"},
      {"sub-priority changes", with_sub, other_sub,
       "labels.koordinator.sh/priority: Invalid value: \"2222\": field is immutable"},
      {"QoS removed", pod("LS", 9500), pod("", 9500),
       "labels.koordinator.sh/qosClass: Invalid value: \"\": field is immutable"},
  };
  for (const auto& tc : cases) {
    auto response = validate(tc.new_pod, tc.old_pod, "UPDATE");
    EXPECT_EQ(response.allowed, tc.message.empty()) << tc.name;
    if (!tc.message.empty()) {
      ASSERT_TRUE(response.result.has_value()) << tc.name;
      EXPECT_EQ(response.result->message, tc.message) << tc.name;
    }
  }
}

TEST(PodValidatingTest, BadInputAndRequestsItIgnores) {
  auto missing = validate(Json());
  EXPECT_FALSE(missing.allowed);
  EXPECT_EQ(missing.result->code, 400);
  EXPECT_EQ(missing.result->message, "failed to decode Pod: request.object: expected object");
  auto no_old = validate(pod("LS", 9500), Json(), "UPDATE");
  EXPECT_FALSE(no_old.allowed);
  EXPECT_EQ(no_old.result->message, "failed to decode Pod: request.oldObject: expected object");
  auto bad = validate(json(R"({"metadata": {"labels": "x"}})"));
  EXPECT_FALSE(bad.allowed);
  EXPECT_EQ(bad.result->code, 400);
  // DELETE, a subresource, another resource: allowed whatever the object.
  EXPECT_TRUE(validate(pod("BE", 9500), Json(), "DELETE").allowed);
  PodValidatingHandler handler({});
  auto status_update = request("UPDATE", "pods", pod("BE", 9500), pod("LS", 9500));
  status_update.subResource = "status";
  EXPECT_TRUE(handler.admit(status_update).allowed);
  EXPECT_TRUE(handler.admit(request("CREATE", "services", pod("BE", 9500))).allowed);
}

}  // namespace
}  // namespace koord::manager::webhook
