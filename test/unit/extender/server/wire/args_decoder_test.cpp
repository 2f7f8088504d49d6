// The streaming ExtenderArgs decoder gives what the tree decoder gives (without the pod's
// managedFields), with the same errors.
#include "extender/server/wire/args_decoder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/extender/types.hpp"

namespace koord::extender::server::wire {
namespace {

using api::checkJsonNesting;
using api::Json;
using api::kMaxJsonNestingDepth;
using api::parseJson;
using api::extender::ExtenderArgs;

// What kube-scheduler sends to a nodeCacheCapable extender, managedFields included.
constexpr const char* kSchedulerArgs = R"({
  "Pod": {"metadata": {"name": "p", "namespace": "ns", "uid": "u1", "creationTimestamp": null,
                       "labels": {"koordinator.sh/qosClass": "LS"},
                       "managedFields": [{"manager": "kubectl-create", "operation": "Update",
                                          "apiVersion": "v1", "fieldsType": "FieldsV1",
                                          "fieldsV1": {"f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {}}}}}]},
          "spec": {"containers": [{"name": "c", "image": "i",
                                   "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}}}],
                   "schedulerName": "koord-scheduler", "priority": 9000},
          "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False"}]}},
  "Nodes": null,
  "NodeNames": ["n1", "n2", "n3"]
})";

constexpr const char* kDecoderFullArgs = R"({
  "Pod": {"metadata": {"name": "p", "namespace": "ns"}, "spec": {"containers": [{"name": "c"}]}},
  "Nodes": {"metadata": {}, "items": [
    {"metadata": {"name": "n1", "labels": {"zone": "a"}},
     "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}}}]},
  "NodeNames": null
})";

// The tree decoder's result for `text` with the pod's managedFields taken out first.
ExtenderArgs treeDecode(const char* text) {
  auto parsed = parseJson(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  Json tree = *parsed;
  for (auto& [key, pod] : tree.items()) {
    if (key == "Pod" && pod.is_object() && pod.contains("metadata") &&
        pod["metadata"].is_object()) {
      pod["metadata"].erase("managedFields");
    }
  }
  ExtenderArgs args;
  EXPECT_TRUE(fromJson(tree, args, "").isOk());
  return args;
}

TEST(ExtenderArgsDecoderTest, GivesWhatTheTreeDecoderGivesWithoutManagedFields) {
  for (const char* text : {kSchedulerArgs, kDecoderFullArgs}) {
    auto args = decodeExtenderArgs(text);
    ASSERT_TRUE(args.ok()) << args.status();
    EXPECT_EQ(*args, treeDecode(text))
        << Json::diff(toJson(treeDecode(text)), toJson(*args)).dump();
  }
  auto args = decodeExtenderArgs(kSchedulerArgs);
  ASSERT_TRUE(args.ok());
  EXPECT_EQ(*args->nodeNames, (std::vector<std::string>{"n1", "n2", "n3"}));
  EXPECT_FALSE(args->nodes.has_value());
  EXPECT_EQ(args->pod.metadata.labels.at("koordinator.sh/qosClass"), "LS");
  EXPECT_EQ(args->pod.spec.containers.at(0).resources.requests.at("cpu").milliValue(), 250);
  EXPECT_FALSE(args->pod.metadata.extra.contains("managedFields"));
  EXPECT_EQ(toJson(*args)["Pod"]["status"]["conditions"][0]["type"], "PodScheduled");
}

TEST(ExtenderArgsDecoderTest, EscapesNonAsciiAndOddSpacingDecodeAlike) {
  // The hand scan handles the first; the others take the SAX path; all must agree.
  for (const char* text : {
           "{ \"Pod\" : {\"metadata\":{\"name\":\"p\"}} ,\n\t\"NodeNames\" : [ \"a\" , \"b\" ] }",
           R"({"Pod":{},"NodeNames":["n\u0031","n\"2"]})",
           "{\"Pod\":{},\"NodeNames\":[\"n\u00e9\xc3\xa9\"]}",
           R"({"P\u006fd":{"metadata":{"name":"escaped-key"}},"NodeNames":["a"]})",
           R"({"Pod":{"metadata":{"name":"p"}},"Nodes":{"items":[]},"NodeNames":null})",
       }) {
    auto args = decodeExtenderArgs(text);
    ASSERT_TRUE(args.ok()) << text << ": " << args.status();
    EXPECT_EQ(*args, treeDecode(text)) << text;
  }
  auto escaped = decodeExtenderArgs(R"({"Pod":{},"NodeNames":["n\u0031","n\"2"]})");
  ASSERT_TRUE(escaped.ok());
  EXPECT_EQ(*escaped->nodeNames, (std::vector<std::string>{"n1", "n\"2"}));
}

TEST(ExtenderArgsDecoderTest, KeysFoldCaseExactNodeNamesWinsAndUnknownKeysAreIgnored) {
  auto folded = decodeExtenderArgs(
      R"({"pod":{"metadata":{"name":"p","managedFields":[{"x":1}]}},"NODENAMES":["a"],"Extra":{"x":[1,2]}})");
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(folded->pod.metadata.name, "p");
  EXPECT_FALSE(folded->pod.metadata.extra.contains("managedFields"));
  EXPECT_EQ(*folded->nodeNames, std::vector<std::string>{"a"});

  for (const char* text : {R"({"NodeNames":["exact"],"nodenames":["folded"]})",
                           R"({"nodenames":["folded"],"NodeNames":["exact"]})"}) {
    auto args = decodeExtenderArgs(text);
    ASSERT_TRUE(args.ok()) << args.status();
    EXPECT_EQ(*args->nodeNames, std::vector<std::string>{"exact"}) << text;
  }
}

TEST(ExtenderArgsDecoderTest, NullAndEmptyNodeNamesStayDistinct) {
  auto null_names = decodeExtenderArgs(R"({"Pod":{},"NodeNames":null})");
  ASSERT_TRUE(null_names.ok());
  EXPECT_FALSE(null_names->nodeNames.has_value());
  auto empty_names = decodeExtenderArgs(R"({"Pod":{},"NodeNames":[]})");
  ASSERT_TRUE(empty_names.ok());
  ASSERT_TRUE(empty_names->nodeNames.has_value());
  EXPECT_TRUE(empty_names->nodeNames->empty());
}

TEST(ExtenderArgsDecoderTest, BadInputIsAnErrorNamingWhatIsWrong) {
  const std::string prefix = "failed to decode 'ExtenderArgs': ";
  struct Case {
    std::string body;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"", prefix + "empty request body"},
      {"[1,2]", prefix + "expected a JSON object, got array"},
      {R"({"NodeNames":"n1"})", prefix + "NodeNames: expected array, got string"},
      {R"({"NodeNames":["n1",7]})", prefix + "NodeNames[1]: expected string, got number"},
      {R"({"NodeNames":["n1",["n2"]]})", prefix + "NodeNames[1]: expected string, got array"},
      {R"({"Pod":{"spec":{"containers":{}}}})",
       prefix + "Pod.spec.containers: expected array, got object"},
  };
  for (const Case& c : cases) {
    auto args = decodeExtenderArgs(c.body);
    ASSERT_FALSE(args.ok()) << c.body;
    EXPECT_EQ(args.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(args.status().message(), c.message) << c.body;
  }
  // Not JSON: the parser's message, with the byte position, as parseJson gives it.
  const std::string truncated = R"({"Pod":{"metadata":)";
  auto args = decodeExtenderArgs(truncated);
  ASSERT_FALSE(args.ok());
  EXPECT_EQ(args.status().message(), prefix + parseJson(truncated).status().message());
  EXPECT_NE(args.status().message().find("column 20"), std::string::npos)
      << args.status().message();
}

TEST(ExtenderArgsDecoderTest, DeepNestingAnywhereIsRefusedNamingTheLimit) {
  // What once overflowed the connection thread's stack: 100,000 objects (or 300,000 arrays) under
  // an unknown field of the Pod, of a Node in Nodes.items, or of dropped managedFields.
  const auto objects = [](std::size_t depth) {
    std::string out;
    for (std::size_t i = 0; i < depth; ++i) {
      out += R"({"a":)";
    }
    return out + "1" + std::string(depth, '}');
  };
  const auto arrays = [](std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
  };
  const std::vector<std::string> bodies = {
      R"({"Pod":{"metadata":{"name":"p","x":)" + objects(100000) + R"(}},"NodeNames":["n1"]})",
      R"({"Pod":{"metadata":{"name":"p"},"spec":{"x":)" + arrays(300000) +
          R"(}},"NodeNames":["n1"]})",
      R"({"NodeNames":null,"Nodes":{"items":[{"metadata":{"name":"n1","x":)" + objects(100000) +
          "}}]}}",
      R"({"Pod":{"metadata":{"name":"p","managedFields":)" + arrays(100000) +
          R"(}},"NodeNames":["n1"]})",
  };
  for (const std::string& body : bodies) {
    auto args = decodeExtenderArgs(body);
    ASSERT_FALSE(args.ok()) << body.substr(0, 80);
    EXPECT_EQ(args.status().message(),
              "failed to decode 'ExtenderArgs': " + checkJsonNesting(body).message());
    EXPECT_NE(args.status().message().find("nesting deeper than 256 levels (at byte "),
              std::string::npos)
        << args.status().message();
  }
  // Within the limit the unknown field is kept, as every unknown field is.
  const std::string within = R"({"Pod":{"metadata":{"name":"p","x":)" +
                             objects(kMaxJsonNestingDepth - 3) + R"(}},"NodeNames":["n1"]})";
  auto args = decodeExtenderArgs(within);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->nodeNames, std::vector<std::string>{"n1"});
}

}  // namespace
}  // namespace koord::extender::server::wire
