// Bad input is an error that names the field path; nothing throws.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::api::core {
namespace {

template <typename T>
Status decodeStatus(const char* text) {
  return decode<T>(text).status();
}

struct ErrorCase {
  const char* name;
  std::function<Status(const char*)> decoder;
  const char* text;
  StatusCode code;
  const char* message_prefix;  // the message must start with this
  const char* message_part;    // and contain this (may be empty)
};

TEST(CoreDecodeErrorTest, ErrorsNameTheFieldPath) {
  const ErrorCase cases[] = {
      {"bad quantity", decodeStatus<Pod>,
       R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"abc"}}}]}})",
       StatusCode::kInvalidArgument,
       "spec.containers[0].resources.requests.cpu: ", "quantities must match"},
      {"labels not an object", decodeStatus<Pod>, R"({"metadata":{"labels":[]}})",
       StatusCode::kInvalidArgument, "metadata.labels: expected object, got array", ""},
      {"label value not a string", decodeStatus<Pod>, R"({"metadata":{"labels":{"app":1}}})",
       StatusCode::kInvalidArgument, "metadata.labels.app: expected string, got number", ""},
      {"priority not an integer", decodeStatus<Pod>, R"({"spec":{"priority":"high"}})",
       StatusCode::kInvalidArgument, "spec.priority: expected integer, got string", ""},
      {"priority out of int32", decodeStatus<Pod>, R"({"spec":{"priority":3000000000}})",
       StatusCode::kInvalidArgument, "spec.priority: integer out of range", ""},
      {"tolerations not an array", decodeStatus<Pod>, R"({"spec":{"tolerations":{}}})",
       StatusCode::kInvalidArgument, "spec.tolerations: expected array, got object", ""},
      {"toleration seconds not a number", decodeStatus<Pod>,
       R"({"spec":{"tolerations":[{},{"tolerationSeconds":"5"}]}})", StatusCode::kInvalidArgument,
       "spec.tolerations[1].tolerationSeconds: expected integer, got string", ""},
      {"deep affinity", decodeStatus<Pod>,
       R"({"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"In","values":"x"}]}]}}}}})",
       StatusCode::kInvalidArgument,
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
       "nodeSelectorTerms[0].matchExpressions[0].values: expected array, got string",
       ""},
      {"hostNetwork not a boolean", decodeStatus<Pod>, R"({"spec":{"hostNetwork":"true"}})",
       StatusCode::kInvalidArgument, "spec.hostNetwork: expected boolean, got string", ""},
      {"pod not an object", decodeStatus<Pod>, R"([])", StatusCode::kInvalidArgument,
       "expected object, got array", ""},
      {"spec not an object", decodeStatus<Pod>, R"({"spec":"x"})", StatusCode::kInvalidArgument,
       "spec: expected object, got string", ""},
      {"allocatable wrong type", decodeStatus<Node>, R"({"status":{"allocatable":{"cpu":true}}})",
       StatusCode::kInvalidArgument,
       "status.allocatable.cpu: expected quantity (string or number), got boolean", ""},
      {"quantity out of range", decodeStatus<Node>,
       R"({"status":{"capacity":{"memory":"1e2147483648"}}})", StatusCode::kOutOfRange,
       "status.capacity.memory: ", ""},
      {"taint key not a string", decodeStatus<Node>, R"({"spec":{"taints":[{"key":5}]}})",
       StatusCode::kInvalidArgument, "spec.taints[0].key: expected string, got number", ""},
      {"lease duration fractional", decodeStatus<Lease>, R"({"spec":{"leaseDurationSeconds":1.5}})",
       StatusCode::kInvalidArgument, "spec.leaseDurationSeconds: expected integer, got number", ""},
      {"event count out of range", decodeStatus<Event>, R"({"count":4294967296})",
       StatusCode::kInvalidArgument, "count: integer out of range", ""},
      {"configmap data value", decodeStatus<ConfigMap>, R"({"data":{"k":{"a":1}}})",
       StatusCode::kInvalidArgument, "data.k: expected string, got object", ""},
      {"status details causes", decodeStatus<ApiStatus>, R"({"details":{"causes":[{"field":[]}]}})",
       StatusCode::kInvalidArgument, "details.causes[0].field: expected string, got array", ""},
      {"list item", decodeStatus<PodList>, R"({"items":[{},{"metadata":{"name":7}}]})",
       StatusCode::kInvalidArgument, "items[1].metadata.name: expected string, got number", ""},
      {"malformed JSON", decodeStatus<Pod>, R"({"metadata":)", StatusCode::kInvalidArgument,
       "failed to parse JSON", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Status st = c.decoder(c.text);
    EXPECT_EQ(st.code(), c.code) << st;
    EXPECT_EQ(st.message().rfind(c.message_prefix, 0), 0U) << st.message();
    EXPECT_NE(st.message().find(c.message_part), std::string::npos) << st.message();
  }
}

TEST(CoreDecodeErrorTest, NullFieldsLeaveDefaults) {
  auto pod = decode<Pod>(
      R"({"metadata":{"labels":null,"name":null},"spec":{"priority":null,"affinity":null,
          "containers":null},"status":null})");
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_TRUE(pod->metadata.labels.empty());
  EXPECT_EQ(pod->spec.priority, std::nullopt);
  EXPECT_EQ(pod->spec.affinity, std::nullopt);
  EXPECT_TRUE(pod->spec.containers.empty());
}

}  // namespace
}  // namespace koord::api::core
