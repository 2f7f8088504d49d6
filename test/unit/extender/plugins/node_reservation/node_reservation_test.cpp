#include "extender/plugins/node_reservation/node_reservation.hpp"

#include <gtest/gtest.h>

#include "../plugin_test_util.hpp"
#include "extender/framework/cluster_state.hpp"

namespace koord::extender::plugins::node_reservation {
namespace {

using testing::Quantities;

constexpr const char* kAnno = "node.koordinator.sh/reservation";

struct FilterCase {
  std::string name;
  std::string annotation;  // "" leaves the annotation out
  Quantities existing;     // one pod already on the node (empty: none)
  Quantities request;
  std::string policy = "Ignore";
  framework::Code want_code = framework::Code::kSuccess;
  std::vector<std::string> want_reasons = {};
};

TEST(NodeReservationTest, FilterTakesTheReservationOutOfAllocatable) {
  const std::vector<FilterCase> cases = {
      {"no annotation: the whole node is usable", "", {}, {{"cpu", "8"}}},
      {"cpu reserved",
       R"({"resources":{"cpu":"2"}})",
       {},
       {{"cpu", "7"}},
       "Ignore",
       framework::Code::kUnschedulable,
       {"Insufficient cpu (node reservation)"}},
      {"cpu reserved, request fits what is left",
       R"({"resources":{"cpu":"2"}})",
       {},
       {{"cpu", "6"}}},
      {"a cpu quantity rounds up to whole cores",
       R"({"resources":{"cpu":"1500m"}})",
       {},
       {{"cpu", "6100m"}},
       "Ignore",
       framework::Code::kUnschedulable,
       {"Insufficient cpu (node reservation)"}},
      {"reservedCPUs overrides the quantity by its count",
       R"({"resources":{"cpu":"1"},"reservedCPUs":"0-2"})",
       {},
       {{"cpu", "6"}},
       "Ignore",
       framework::Code::kUnschedulable,
       {"Insufficient cpu (node reservation)"}},
      {"reservedCPUs count leaves the rest", R"({"reservedCPUs":"0-2"})", {}, {{"cpu", "5"}}},
      {"ReservedCPUsOnly does not reduce allocatable",
       R"({"resources":{"cpu":"4"},"reservedCPUs":"0-3","applyPolicy":"ReservedCPUsOnly"})",
       {},
       {{"cpu", "8"}}},
      {"memory reserved",
       R"({"resources":{"memory":"4Gi"}})",
       {},
       {{"memory", "13Gi"}},
       "Ignore",
       framework::Code::kUnschedulable,
       {"Insufficient memory (node reservation)"}},
      {"every short resource is a reason",
       R"({"resources":{"cpu":"2","memory":"4Gi"}})",
       {},
       {{"cpu", "7"}, {"memory", "13Gi"}},
       "Ignore",
       framework::Code::kUnschedulable,
       {"Insufficient cpu (node reservation)", "Insufficient memory (node reservation)"}},
      {"pods already there count",
       R"({"resources":{"cpu":"2"}})",
       {{"cpu", "3"}},
       {{"cpu", "4"}},
       "Ignore",
       framework::Code::kUnschedulable,
       {"Insufficient cpu (node reservation)"}},
      {"pods already there, request fits",
       R"({"resources":{"cpu":"2"}})",
       {{"cpu", "3"}},
       {{"cpu", "3"}}},
      {"a resource the pod does not request is not checked",
       R"({"resources":{"cpu":"8"}})",
       {},
       {{"memory", "1Gi"}}},
      {"bad JSON is ignored by default", "{not json", {}, {{"cpu", "8"}}},
      {"bad JSON rejects with policy Reject",
       "{not json",
       {},
       {{"cpu", "1"}},
       "Reject",
       framework::Code::kUnschedulableAndUnresolvable,
       {"invalid node.koordinator.sh/reservation annotation: failed to parse annotation"}},
      {"bad cpu list rejects with policy Reject",
       R"({"reservedCPUs":"0-a"})",
       {},
       {{"cpu", "1"}},
       "Reject",
       framework::Code::kUnschedulableAndUnresolvable,
       {"invalid node.koordinator.sh/reservation annotation"}},
      {"unknown applyPolicy rejects with policy Reject",
       R"({"applyPolicy":"Sometimes"})",
       {},
       {{"cpu", "1"}},
       "Reject",
       framework::Code::kUnschedulableAndUnresolvable,
       {"invalid node.koordinator.sh/reservation annotation"}},
  };
  testing::TestHandle handle;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::map<std::string, std::string> annotations;
    if (!c.annotation.empty()) {
      annotations[kAnno] = c.annotation;
    }
    auto node =
        testing::makeNode("n1", {{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "110"}}, annotations);
    std::vector<std::shared_ptr<const framework::PodInfo>> pods;
    if (!c.existing.empty()) {
      pods.push_back(testing::podInfo(testing::makePod("old", c.existing)));
    }
    auto info = testing::nodeInfo(node, pods);
    auto pod = testing::podInfo(testing::makePod("p", c.request));
    auto plugin = create(api::Json{{"invalidAnnotationPolicy", c.policy}}, handle);
    ASSERT_TRUE(plugin.ok()) << plugin.status();
    auto* filter = dynamic_cast<framework::FilterPlugin*>(plugin->get());
    ASSERT_NE(filter, nullptr);
    framework::CycleState state;
    framework::PluginStatus status = filter->filter(state, *pod, *info);
    EXPECT_EQ(status.code(), c.want_code) << status.message();
    ASSERT_EQ(status.reasons().size(), c.want_reasons.size()) << status.message();
    for (size_t i = 0; i < c.want_reasons.size(); ++i) {
      EXPECT_EQ(status.reasons()[i].rfind(c.want_reasons[i], 0), 0u) << status.reasons()[i];
    }
  }
}

TEST(NodeReservationTest, ReservedResourcesReadsTheAnnotation) {
  struct Case {
    std::string annotation;
    int64_t want_milli_cpu;
    int64_t want_memory;
    bool want_ok;
  };
  const std::vector<Case> cases = {
      {"", 0, 0, true},
      {R"({"resources":{"cpu":"100m","memory":"1Gi"}})", 1000, 1LL << 30, true},
      {R"({"reservedCPUs":"0,2,4-5"})", 4000, 0, true},
      {R"({"resources":{"cpu":"2"},"applyPolicy":"ReservedCPUsOnly"})", 0, 0, true},
      {R"({"resources":{"cpu":"lots"}})", 0, 0, false},
      {"[]", 0, 0, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.annotation);
    std::map<std::string, std::string> annotations;
    annotations[kAnno] = c.annotation;
    auto node = testing::makeNode("n1", {{"cpu", "8"}}, annotations);
    auto reserved = reservedResources(*node);
    ASSERT_EQ(reserved.ok(), c.want_ok) << reserved.status();
    if (c.want_ok) {
      EXPECT_EQ(reserved->milli_cpu, c.want_milli_cpu);
      EXPECT_EQ(reserved->memory, c.want_memory);
      EXPECT_EQ(reserved->pods, 0);
    }
  }
}

TEST(NodeReservationTest, PreFilterSkipsPodsThatRequestNothing) {
  testing::TestHandle handle;
  NodeReservationPlugin plugin(Args{}, handle);
  framework::CycleState state;
  auto empty = testing::podInfo(testing::makePod("p", {}));
  auto cpu = testing::podInfo(testing::makePod("p", {{"cpu", "1"}}));
  EXPECT_EQ(plugin.preFilter(state, *empty).code(), framework::Code::kSkip);
  EXPECT_EQ(plugin.preFilter(state, *cpu).code(), framework::Code::kSuccess);
}

TEST(NodeReservationTest, PreFilterSkipsEveryPodOnlyWhileNoNodeCarriesTheAnnotation) {
  FakeClock clock;
  framework::ClusterState cluster(clock);
  AnnotatedNodes::install(cluster);
  framework::BasicHandle handle(cluster, clock);
  NodeReservationPlugin plugin(Args{}, handle);
  framework::CycleState state;
  auto pod = testing::podInfo(testing::makePod("p", {{"cpu", "1"}}));
  const Quantities capacity = {{"cpu", "8"}};
  const std::map<std::string, std::string> reserved = {{kAnno, R"({"resources":{"cpu":"2"}})"}};

  cluster.upsertNode(testing::makeNode("plain", capacity));
  EXPECT_EQ(plugin.preFilter(state, *pod).code(), framework::Code::kSkip);
  cluster.upsertNode(testing::makeNode("reserved", capacity, reserved));
  EXPECT_EQ(plugin.preFilter(state, *pod).code(), framework::Code::kSuccess);
  cluster.upsertNode(testing::makeNode("reserved", capacity));  // the annotation was removed
  EXPECT_EQ(plugin.preFilter(state, *pod).code(), framework::Code::kSkip);
  cluster.upsertNode(testing::makeNode("reserved", capacity, reserved));
  cluster.upsertNode(testing::makeNode("reserved", capacity, reserved));  // an update keeps it
  EXPECT_EQ(plugin.preFilter(state, *pod).code(), framework::Code::kSuccess);
  cluster.removeNode("reserved");
  EXPECT_EQ(plugin.preFilter(state, *pod).code(), framework::Code::kSkip);
}

TEST(NodeReservationTest, ArgsAreStrict) {
  struct Case {
    api::Json args;
    std::vector<std::string> want_errors;
  };
  const std::vector<Case> cases = {
      {nullptr, {}},
      {api::Json{{"invalidAnnotationPolicy", "Reject"}}, {}},
      {api::Json{{"invalidAnnotationPolicy", "Sometimes"}},
       {"args.invalidAnnotationPolicy: must be \"Ignore\" or \"Reject\", got \"Sometimes\""}},
      {api::Json{{"invalidAnnotationPolicy", 1}, {"other", true}},
       {"args.invalidAnnotationPolicy: expected string, got number", "args.other: unknown field"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args.dump());
    auto args = decodeArgs(c.args);
    ASSERT_EQ(args.ok(), c.want_errors.empty()) << args.status();
    for (const auto& want : c.want_errors) {
      EXPECT_NE(args.status().message().find(want), std::string::npos) << args.status();
    }
  }
  auto reject = decodeArgs(api::Json{{"invalidAnnotationPolicy", "Reject"}});
  ASSERT_TRUE(reject.ok());
  EXPECT_EQ(reject->invalid_annotation_policy, InvalidAnnotationPolicy::kReject);
  auto defaults = decodeArgs(nullptr);
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->invalid_annotation_policy, InvalidAnnotationPolicy::kIgnore);
}

}  // namespace
}  // namespace koord::extender::plugins::node_reservation

namespace koord::extender::plugins::node_reservation {
namespace {

// AnnotatedNodes keeps, in each NodeInfo, whether its Node carries the annotation, through updates
// of the Node and of the pods on it; the plugin reads it there.
TEST(AnnotatedNodesTest, NodeInfoKnowsWhetherItsNodeCarriesTheAnnotation) {
  FakeClock clock;
  framework::ClusterState cluster(clock);
  const Quantities capacity = {{"cpu", "8"}};
  cluster.upsertNode(testing::makeNode("n1", capacity, {{kAnno, R"({"resources":{"cpu":"1"}})"}}));
  const AnnotatedNodes& annotated = AnnotatedNodes::install(cluster);  // after the node: rebuilt
  EXPECT_TRUE(annotated.carries(*cluster.nodeInfo("n1")));
  EXPECT_EQ(annotated.count(), 1);
  auto pod = testing::makePod("a", {{"cpu", "1"}});
  pod->spec.nodeName = "n1";
  ASSERT_TRUE(cluster.upsertPod(pod).isOk());  // a rebuild for a pod
  EXPECT_TRUE(annotated.carries(*cluster.nodeInfo("n1")));
  cluster.upsertNode(testing::makeNode("n1", capacity, {{kAnno, ""}}));  // empty: reserves nothing
  EXPECT_FALSE(annotated.carries(*cluster.nodeInfo("n1")));
  EXPECT_EQ(annotated.count(), 0);
  EXPECT_EQ(&AnnotatedNodes::install(cluster), &annotated) << "installed once";
}

}  // namespace
}  // namespace koord::extender::plugins::node_reservation
