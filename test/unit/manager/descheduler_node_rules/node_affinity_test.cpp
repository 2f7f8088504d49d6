#include "manager/descheduler/plugins/node_rules/node_affinity.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/descheduler_node_rules/harness.hpp"

namespace koord::manager::descheduler::plugins::node_rules {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test builders
using Json = nlohmann::json;

constexpr const char* kLabelKey = "kubernetes.io/desiredNode";
constexpr const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
constexpr const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";

core::Node withLabels() {
  core::Node n = buildNode("nodeWithLabels");
  n.metadata.labels[kLabelKey] = "yes";
  return n;
}
core::Node withoutLabels() {
  return buildNode("nodeWithoutLabels");
}
core::Node unschedulableWithLabels() {
  core::Node n = buildNode("unschedulableNodeWithLabels");
  n.metadata.labels[kLabelKey] = "yes";
  n.spec.unschedulable = true;
  return n;
}

// The community's addPodsToNode: one pod with the affinity, two plain ones, all owned.
std::vector<core::Pod> podsOn(const std::string& node, bool terminating, const std::string& type) {
  core::NodeSelectorRequirement requirement;
  requirement.key = kLabelKey;
  requirement.operator_ = "In";
  requirement.values = {"yes"};
  core::NodeSelectorTerm term;
  term.matchExpressions = {requirement};
  std::vector<core::Pod> pods;
  for (const char* name : {"podWithNodeAffinity", "pod1", "pod2"}) {
    core::Pod p = buildPod(name, 100, 0, node);
    setNormalOwnerRef(p);
    if (terminating)
      p.metadata.deletionTimestamp = "2024-01-01T00:00:00Z";
    pods.push_back(p);
  }
  auto& pod = pods[0];
  pod.spec.affinity = core::Affinity{};
  pod.spec.affinity->nodeAffinity = core::NodeAffinity{};
  if (type == kRequired) {
    pod.spec.affinity->nodeAffinity->required = core::NodeSelector{{term}, {}};
  } else if (type == kPreferred) {
    core::PreferredSchedulingTerm preferred;
    preferred.weight = 10;
    preferred.preference = term;
    pod.spec.affinity->nodeAffinity->preferred = {preferred};
  }
  return pods;
}

struct AffinityCase {
  std::string description;
  std::string type;  // the nodeAffinityType argument
  std::vector<core::Pod> pods;
  std::vector<core::Node> nodes;
  size_t expected;
  framework::EvictionLimits limits = {};
  bool node_fit = false;
};

TEST(RemovePodsViolatingNodeAffinity, CommunityTable) {
  const std::string bad = "requiredDuringSchedulingRequiredDuringExecution";
  const auto two = std::vector<core::Node>{withoutLabels(), withLabels()};
  std::vector<AffinityCase> cases = {
      {"invalid affinity type", bad, podsOn("nodeWithoutLabels", false, bad), two, 0},
      {"correctly scheduled [required]",
       kRequired,
       podsOn("nodeWithLabels", false, kRequired),
       {withLabels()},
       0},
      {"correctly scheduled [preferred]",
       kPreferred,
       podsOn("nodeWithLabels", false, kPreferred),
       {withLabels()},
       0},
      {"another node available [required]", kRequired,
       podsOn("nodeWithoutLabels", false, kRequired), two, 1},
      {"better node available [preferred]", kPreferred,
       podsOn("nodeWithoutLabels", false, kPreferred), two, 1},
  };
  for (const char* type : {kRequired, kPreferred}) {
    const std::string t = type;
    cases.push_back({"maxPodsToEvictPerNode 1 " + t,
                     t,
                     podsOn("nodeWithoutLabels", false, t),
                     two,
                     1,
                     {1, std::nullopt, std::nullopt}});
    cases.push_back({"maxPodsToEvictPerNode 0 " + t,
                     t,
                     podsOn("nodeWithoutLabels", false, t),
                     two,
                     0,
                     {0, std::nullopt, std::nullopt}});
    cases.push_back({"terminating, per node 1 " + t,
                     t,
                     podsOn("nodeWithoutLabels", true, t),
                     two,
                     0,
                     {1, std::nullopt, std::nullopt}});
    cases.push_back({"per namespace 1 " + t,
                     t,
                     podsOn("nodeWithoutLabels", false, t),
                     two,
                     1,
                     {std::nullopt, 1, std::nullopt}});
    cases.push_back({"per namespace 0 " + t,
                     t,
                     podsOn("nodeWithoutLabels", false, t),
                     two,
                     0,
                     {std::nullopt, 0, std::nullopt}});
    cases.push_back({"terminating, per namespace 1 " + t,
                     t,
                     podsOn("nodeWithoutLabels", true, t),
                     two,
                     0,
                     {std::nullopt, 1, std::nullopt}});
    cases.push_back({"no node fits " + t,
                     t,
                     podsOn("nodeWithoutLabels", false, t),
                     {withoutLabels(), unschedulableWithLabels()},
                     0,
                     {},
                     true});
    cases.push_back({"pods not on the listed nodes " + t,
                     t,
                     podsOn("nodeWithoutLabels", false, t),
                     {withLabels(), unschedulableWithLabels()},
                     0,
                     {1, std::nullopt, std::nullopt},
                     true});
  }
  cases.push_back({"total 0 [required]",
                   kRequired,
                   podsOn("nodeWithoutLabels", false, kRequired),
                   two,
                   0,
                   {std::nullopt, 1, 0}});
  for (const auto& tc : cases) {
    framework::DefaultEvictorOptions options;
    options.node_fit = tc.node_fit;
    Pass pass(tc.nodes, tc.pods, options, tc.limits);
    auto plugin =
        createRemovePodsViolatingNodeAffinity(Json{{"nodeAffinityType", {tc.type}}}, pass.handle);
    ASSERT_TRUE(plugin.ok()) << tc.description << ": " << plugin.status().toString();
    auto& deschedule = dynamic_cast<framework::DeschedulePlugin&>(**plugin);
    EXPECT_TRUE(deschedule.deschedule(pass.nodes).isOk());
    EXPECT_EQ(pass.evictor.totalEvicted(), tc.expected) << tc.description;
    if (tc.expected == 1) {
      EXPECT_EQ(pass.evictedNames(), (std::vector<std::string>{"podWithNodeAffinity"}));
      EXPECT_EQ(pass.evictor.victims()[0].plugin, "RemovePodsViolatingNodeAffinity");
    }
  }
}

TEST(RemovePodsViolatingNodeAffinity, RequiredPodThatFitsNowhereStays) {
  // No node of the pass matches the required affinity: the pod fits no node, nothing is evicted.
  Pass pass({withoutLabels()}, podsOn("nodeWithoutLabels", false, kRequired), {});
  auto plugin =
      createRemovePodsViolatingNodeAffinity(Json{{"nodeAffinityType", {kRequired}}}, pass.handle);
  ASSERT_TRUE(plugin.ok());
  ASSERT_TRUE(dynamic_cast<framework::DeschedulePlugin&>(**plugin).deschedule(pass.nodes).isOk());
  EXPECT_EQ(pass.evictor.totalEvicted(), 0u);
}

TEST(RemovePodsViolatingNodeAffinityArgs, Validation) {
  struct Case {
    Json args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {nullptr, "RemovePodsViolatingNodeAffinityArgs: nodeAffinityType needs to be set"},
      {{{"nodeAffinityType", Json::array()}},
       "RemovePodsViolatingNodeAffinityArgs: nodeAffinityType needs to be set"},
      {{{"nodeAffinityType", {kRequired}},
        {"namespaces", {{"include", {"a"}}, {"exclude", {"b"}}}}},
       "RemovePodsViolatingNodeAffinityArgs: only one of Include/Exclude namespaces can be set"},
      {{{"nodeAffinityType", {kRequired}}, {"nodeAffinity", 1}},
       "RemovePodsViolatingNodeAffinityArgs.nodeAffinity: unknown field"},
  };
  for (const auto& c : cases) {
    auto decoded = decodeRemovePodsViolatingNodeAffinityArgs(c.args);
    ASSERT_FALSE(decoded.ok()) << c.args.dump();
    EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(decoded.status().message(), c.message);
  }
  auto wrong = decodeRemovePodsViolatingNodeAffinityArgs(Json{{"nodeAffinityType", "x"}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("nodeAffinityType"), std::string::npos);
}

TEST(RemovePodsViolatingNodeAffinity, NamespaceAndLabelFilters) {
  auto pods = podsOn("nodeWithoutLabels", false, kRequired);
  pods[0].metadata.labels["app"] = "web";
  Pass pass({withoutLabels(), withLabels()}, pods, {});
  auto excluded = createRemovePodsViolatingNodeAffinity(
      Json{{"nodeAffinityType", {kRequired}}, {"namespaces", {{"exclude", {"default"}}}}},
      pass.handle);
  ASSERT_TRUE(excluded.ok());
  ASSERT_TRUE(dynamic_cast<framework::DeschedulePlugin&>(**excluded).deschedule(pass.nodes).isOk());
  EXPECT_EQ(pass.evictor.totalEvicted(), 0u);
  auto other_label = createRemovePodsViolatingNodeAffinity(
      Json{{"nodeAffinityType", {kRequired}},
           {"labelSelector", {{"matchLabels", {{"app", "db"}}}}}},
      pass.handle);
  ASSERT_TRUE(other_label.ok());
  ASSERT_TRUE(
      dynamic_cast<framework::DeschedulePlugin&>(**other_label).deschedule(pass.nodes).isOk());
  EXPECT_EQ(pass.evictor.totalEvicted(), 0u);
  auto same_label = createRemovePodsViolatingNodeAffinity(
      Json{{"nodeAffinityType", {kRequired}},
           {"labelSelector", {{"matchLabels", {{"app", "web"}}}}}},
      pass.handle);
  ASSERT_TRUE(same_label.ok());
  ASSERT_TRUE(
      dynamic_cast<framework::DeschedulePlugin&>(**same_label).deschedule(pass.nodes).isOk());
  EXPECT_EQ(pass.evictor.totalEvicted(), 1u);
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::node_rules
