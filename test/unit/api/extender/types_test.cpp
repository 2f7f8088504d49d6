// The extender wire format exactly as kube-scheduler's HTTPExtender writes and reads it.
#include "koord/api/extender/types.hpp"

#include <gtest/gtest.h>

#include <string>

#include "koord/api/codec.hpp"

namespace koord::api::extender {
namespace {

Json mustParse(const char* text) {
  auto j = parseJson(text);
  EXPECT_TRUE(j.ok()) << j.status();
  return j.ok() ? *j : Json();
}

// What kube-scheduler sends to a nodeCacheCapable extender: Nodes is null.
constexpr const char* kCacheCapableArgs = R"({
  "Pod": {"metadata": {"name": "p", "namespace": "ns", "uid": "u1", "creationTimestamp": null},
          "spec": {"containers": [{"name": "c", "image": "i",
                                   "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}}}],
                   "schedulerName": "koord-scheduler", "priority": 0},
          "status": {"phase": "Pending"}},
  "Nodes": null,
  "NodeNames": ["n1", "n2", "n3"]
})";

// What it sends without nodeCacheCapable: a NodeList with an empty TypeMeta, NodeNames null.
constexpr const char* kFullArgs = R"({
  "Pod": {"metadata": {"name": "p", "namespace": "ns", "creationTimestamp": null},
          "spec": {"containers": [{"name": "c", "resources": {}}]}, "status": {}},
  "Nodes": {"metadata": {}, "items": [
    {"metadata": {"name": "n1", "creationTimestamp": "2024-05-01T00:00:00Z", "labels": {"zone": "a"}},
     "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}}}]},
  "NodeNames": null
})";

TEST(ExtenderArgsTest, DecodesNodeCacheCapableRequest) {
  auto args = decode<ExtenderArgs>(kCacheCapableArgs);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->pod.metadata.name, "p");
  EXPECT_EQ(args->pod.spec.containers.at(0).resources.requests.at("cpu").milliValue(), 250);
  EXPECT_FALSE(args->nodes.has_value());
  ASSERT_TRUE(args->nodeNames.has_value());
  EXPECT_EQ(*args->nodeNames, (std::vector<std::string>{"n1", "n2", "n3"}));
}

TEST(ExtenderArgsTest, DecodesFullNodeListRequest) {
  auto args = decode<ExtenderArgs>(kFullArgs);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_FALSE(args->nodeNames.has_value());
  ASSERT_TRUE(args->nodes.has_value());
  ASSERT_EQ(args->nodes->items.size(), 1U);
  EXPECT_EQ(args->nodes->items[0].metadata.labels.at("zone"), "a");
}

TEST(ExtenderArgsTest, RoundTripsBothShapes) {
  for (const char* text : {kCacheCapableArgs, kFullArgs}) {
    Json in = mustParse(text);
    ExtenderArgs args;
    ASSERT_TRUE(fromJson(in, args, "").isOk());
    Json out = toJson(args);
    EXPECT_EQ(out, in) << Json::diff(in, out).dump();
  }
}

TEST(ExtenderArgsTest, EmptyNodeNamesIsNotNull) {
  auto args = decode<ExtenderArgs>(R"({"Pod":{},"NodeNames":[]})");
  ASSERT_TRUE(args.ok()) << args.status();
  ASSERT_TRUE(args->nodeNames.has_value());
  EXPECT_TRUE(args->nodeNames->empty());
  EXPECT_EQ(toJson(*args)["NodeNames"], Json::array());
  EXPECT_EQ(toJson(*args)["Nodes"], nullptr);
}

TEST(ExtenderArgsTest, KeysMatchCaseInsensitivelyAndUnknownKeysAreIgnored) {
  auto args = decode<ExtenderArgs>(
      R"({"pod":{"metadata":{"name":"p"}},"NODENAMES":["n1"],"nodes":null,"Extra":{"x":1}})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->pod.metadata.name, "p");
  EXPECT_EQ(args->nodeNames, (std::vector<std::string>{"n1"}));
  // Nested Kubernetes objects keep their camelCase keys.
  Json out = toJson(*args);
  EXPECT_FALSE(out.contains("Extra"));
  EXPECT_EQ(out["Pod"]["metadata"]["name"], "p");
}

struct ErrorCase {
  const char* name;
  const char* text;
  const char* message;
};

TEST(ExtenderArgsTest, ErrorsNameThePath) {
  const ErrorCase cases[] = {
      {"not an object", R"([])", "expected object, got array"},
      {"NodeNames not an array", R"({"NodeNames":"n1"})", "NodeNames: expected array, got string"},
      {"NodeNames item", R"({"NodeNames":["n1",2]})", "NodeNames[1]: expected string, got number"},
      {"bad pod quantity",
       R"({"Pod":{"spec":{"containers":[{"resources":{"requests":{"cpu":"1x"}}}]}}})",
       "Pod.spec.containers[0].resources.requests.cpu: failed to parse quantity '1x'"},
      {"case-folded key keeps the canonical name in the path", R"({"nodes":{"items":{}}})",
       "Nodes.items: expected array, got object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto args = decode<ExtenderArgs>(c.text);
    ASSERT_FALSE(args.ok());
    EXPECT_EQ(args.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(args.status().message().rfind(c.message, 0), 0U) << args.status().message();
  }
}

struct EncodeCase {
  const char* name;
  Json got;
  const char* want;
};

TEST(ExtenderReplyTest, RepliesEncodeExactlyAsGoWould) {
  ExtenderFilterResult names_only;
  names_only.nodeNames = std::vector<std::string>{"n1", "n3"};
  ExtenderFilterResult with_failures;
  with_failures.nodeNames = std::vector<std::string>{};
  with_failures.failedNodes = {{"n2", "Insufficient cpu"}};
  with_failures.failedAndUnresolvableNodes = {{"n3", "node(s) didn't match Pod's node affinity"}};
  ExtenderFilterResult error_reply;
  error_reply.error = "cache not synced";
  ExtenderPreemptionResult preempt;
  preempt.nodeNameToMetaVictims = std::map<std::string, MetaVictims>{
      {"n1", MetaVictims{{MetaPod{"uid-a"}, MetaPod{"uid-b"}}, 1}}, {"n2", MetaVictims{}}};
  const EncodeCase cases[] = {
      {"filter: names only", toJson(names_only),
       R"({"Nodes":null,"NodeNames":["n1","n3"],"FailedNodes":null,
           "FailedAndUnresolvableNodes":null,"Error":""})"},
      {"filter: with failures", toJson(with_failures),
       R"({"Nodes":null,"NodeNames":[],"FailedNodes":{"n2":"Insufficient cpu"},
           "FailedAndUnresolvableNodes":{"n3":"node(s) didn't match Pod's node affinity"},"Error":""})"},
      {"filter: error", toJson(error_reply),
       R"({"Nodes":null,"NodeNames":null,"FailedNodes":null,"FailedAndUnresolvableNodes":null,
           "Error":"cache not synced"})"},
      {"prioritize", toJson(HostPriorityList{{"n1", 7}, {"n2", 0}}),
       R"([{"Host":"n1","Score":7},{"Host":"n2","Score":0}])"},
      {"prioritize: empty list is an empty array", toJson(HostPriorityList{}), R"([])"},
      {"bind result", toJson(ExtenderBindingResult{}), R"({"Error":""})"},
      {"bind args", toJson(ExtenderBindingArgs{"p", "ns", "uid", "n1"}),
       R"({"PodName":"p","PodNamespace":"ns","PodUID":"uid","Node":"n1"})"},
      {"preempt result", toJson(preempt),
       R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":"uid-a"},{"UID":"uid-b"}],"NumPDBViolations":1},
                                     "n2":{"Pods":null,"NumPDBViolations":0}}})"},
      {"preempt result: unset", toJson(ExtenderPreemptionResult{}),
       R"({"NodeNameToMetaVictims":null})"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.got, mustParse(c.want)) << c.got.dump();
  }
}

TEST(ExtenderReplyTest, DecodesRepliesCaseInsensitively) {
  auto filter = decode<ExtenderFilterResult>(
      R"({"nodenames":["n1"],"failedNodes":{"n2":"x"},"FailedAndUnresolvableNodes":null,"error":""})");
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->nodeNames, (std::vector<std::string>{"n1"}));
  EXPECT_EQ(filter->failedNodes.at("n2"), "x");
  EXPECT_TRUE(filter->failedAndUnresolvableNodes.empty());

  auto priorities =
      decode<HostPriorityList>(R"([{"host":"n1","score":3},{"Host":"n2","Score":10}])");
  ASSERT_TRUE(priorities.ok()) << priorities.status();
  ASSERT_EQ(priorities->size(), 2U);
  EXPECT_EQ((*priorities)[0], (HostPriority{"n1", 3}));
  EXPECT_EQ((*priorities)[1].score, kMaxExtenderPriority);

  auto bad = decode<HostPriorityList>(R"([{"Host":"n1","Score":"high"}])");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "[0].Score: expected integer, got string");
}

TEST(ExtenderBindTest, DecodesBindingArgs) {
  auto args = decode<ExtenderBindingArgs>(
      R"({"PodName":"p","PodNamespace":"ns","PodUID":"6c2b","Node":"n1"})");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(*args, (ExtenderBindingArgs{"p", "ns", "6c2b", "n1"}));
}

TEST(ExtenderPreemptTest, DecodesBothVictimShapes) {
  auto meta = decode<ExtenderPreemptionArgs>(R"({
    "Pod": {"metadata": {"name": "hi"}},
    "NodeNameToVictims": null,
    "NodeNameToMetaVictims": {"n1": {"Pods": [{"UID": "a"}], "NumPDBViolations": 2},
                              "n2": {"Pods": null, "NumPDBViolations": 0}}
  })");
  ASSERT_TRUE(meta.ok()) << meta.status();
  EXPECT_FALSE(meta->nodeNameToVictims.has_value());
  ASSERT_TRUE(meta->nodeNameToMetaVictims.has_value());
  EXPECT_EQ(meta->nodeNameToMetaVictims->at("n1").pods.at(0).uid, "a");
  EXPECT_EQ(meta->nodeNameToMetaVictims->at("n1").numPDBViolations, 2);
  EXPECT_TRUE(meta->nodeNameToMetaVictims->at("n2").pods.empty());

  const char* full_text = R"({
    "Pod": {"metadata": {"name": "hi", "creationTimestamp": null}, "spec": {"containers": []}, "status": {}},
    "NodeNameToVictims": {"n1": {"Pods": [{"metadata": {"name": "lo", "uid": "b", "creationTimestamp": null},
                                           "spec": {"containers": [], "priority": -10}, "status": {}}],
                                 "NumPDBViolations": 0}},
    "NodeNameToMetaVictims": null
  })";
  auto full = decode<ExtenderPreemptionArgs>(full_text);
  ASSERT_TRUE(full.ok()) << full.status();
  ASSERT_TRUE(full->nodeNameToVictims.has_value());
  EXPECT_EQ(full->nodeNameToVictims->at("n1").pods.at(0).spec.priority, -10);
  EXPECT_EQ(toJson(*full), mustParse(full_text));

  auto bad =
      decode<ExtenderPreemptionArgs>(R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":1}]}}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "NodeNameToMetaVictims.n1.Pods[0].UID: expected string, got number");
}

}  // namespace
}  // namespace koord::api::extender
