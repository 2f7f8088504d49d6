#include "manager/webhook/node_mutating.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

using ::testing::HasSubstr;
using testing::json;
using testing::patched;
using testing::request;

constexpr const char* kNode = R"({"apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "n1", "labels": {"a": "b"}, "annotations": {%s}},
  "spec": {"podCIDR": "10.0.0.0/24"},
  "status": {"capacity": {"cpu": "32", "memory": "100Gi", "pods": "110"},
             "allocatable": {"cpu": "%s", "memory": "96Gi", "pods": "110"}}})";

api::Json node(const std::string& annotations, const std::string& cpu = "31") {
  char buf[1024];
  std::snprintf(buf, sizeof(buf), kNode, annotations.c_str(), cpu.c_str());
  return json(buf);
}

TEST(NodeMutatingTest, AmplifiesAllocatableFromTheRatioAndKeepsTheRawValues) {
  NodeMutatingHandler handler({});
  const api::Json object =
      node(R"("node.koordinator.sh/resource-amplification-ratio": "{\"cpu\":1.5}")");
  auto response = handler.admit(request("UPDATE", "nodes", object, object));
  ASSERT_TRUE(response.allowed);
  ASSERT_FALSE(response.patch.empty());
  const api::Json out = patched(object, response);
  EXPECT_EQ(out["status"]["allocatable"]["cpu"], "46500m");   // 31 x 1.5
  EXPECT_EQ(out["status"]["allocatable"]["memory"], "96Gi");  // no memory ratio
  EXPECT_EQ(out["metadata"]["annotations"]["node.koordinator.sh/raw-allocatable"],
            R"({"cpu":"31","memory":"96Gi"})");
  // Nothing else of the object changes.
  api::Json rest = out;
  api::Json before = object;
  for (api::Json* j : {&rest, &before}) {
    (*j)["status"].erase("allocatable");
    (*j)["metadata"].erase("annotations");
  }
  EXPECT_EQ(rest, before);
}

TEST(NodeMutatingTest, StatusUpdatesAreAmplifiedFromTheRawValuesNotTwice) {
  NodeMutatingHandler handler({});
  // The kubelet writes its allocatable again (31) on an already amplified node: amplified again
  // from the raw value, never 1.5 x 46.5.
  const api::Json old_object = node(
      R"("node.koordinator.sh/resource-amplification-ratio": "{\"cpu\":1.5}",
         "node.koordinator.sh/raw-allocatable": "{\"cpu\":\"31\",\"memory\":\"96Gi\"}")",
      "46500m");
  const api::Json object = node(
      R"("node.koordinator.sh/resource-amplification-ratio": "{\"cpu\":1.5}",
         "node.koordinator.sh/raw-allocatable": "{\"cpu\":\"31\",\"memory\":\"96Gi\"}")",
      "31");
  auto req = request("UPDATE", "nodes", object, old_object);
  req.subResource = "status";
  auto response = handler.admit(req);
  ASSERT_TRUE(response.allowed);
  EXPECT_EQ(patched(object, response)["status"]["allocatable"]["cpu"], "46500m");
}

TEST(NodeMutatingTest, WithoutARatioNothingChangesAndAStaleRawAnnotationGoes) {
  NodeMutatingHandler handler({});
  const api::Json plain = node(R"("x": "y")");
  auto response = handler.admit(request("UPDATE", "nodes", plain, plain));
  EXPECT_TRUE(response.allowed);
  EXPECT_TRUE(response.patch.empty());
  const api::Json stale =
      node(R"("node.koordinator.sh/raw-allocatable": "{\"cpu\":\"31\",\"memory\":\"96Gi\"}")");
  response = handler.admit(request("UPDATE", "nodes", stale, stale));
  ASSERT_TRUE(response.allowed);
  EXPECT_FALSE(patched(stale, response)["metadata"].contains("annotations"));
}

TEST(NodeMutatingTest, OtherRequestsPassAndBadOnesAreRefusedWithAReason) {
  NodeMutatingHandler handler({});
  const api::Json object =
      node(R"("node.koordinator.sh/resource-amplification-ratio": "{\"cpu\":1.5}")");
  EXPECT_TRUE(handler.admit(request("CREATE", "nodes", object)).patch.empty());
  EXPECT_TRUE(handler.admit(request("UPDATE", "pods", object, object)).patch.empty());
  auto bad = handler.admit(request(
      "UPDATE", "nodes", node(R"("node.koordinator.sh/resource-amplification-ratio": "fast")")));
  EXPECT_FALSE(bad.allowed);
  ASSERT_TRUE(bad.result.has_value());
  EXPECT_EQ(bad.result->code, 403);
  EXPECT_THAT(bad.result->message, HasSubstr("resource-amplification-ratio"));
  auto garbage = handler.admit(request("UPDATE", "nodes", json(R"({"metadata": 5})")));
  EXPECT_FALSE(garbage.allowed);
  EXPECT_EQ(garbage.result->code, 400);
}

}  // namespace
}  // namespace koord::manager::webhook
