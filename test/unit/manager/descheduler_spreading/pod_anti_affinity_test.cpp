// RemovePodsViolatingInterPodAntiAffinity: the community's TestPodAntiAffinity table, plus the
// namespaces of a term and the priority order of eviction.
#include "manager/descheduler/plugins/spreading/pod_anti_affinity.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/descheduler_spreading/fixture.hpp"

namespace koord::manager::descheduler::plugins::spreading {
namespace {

using testing::Cluster;
using testing::makeNode;
using testing::makePod;
using testing::setOwner;

void setAntiAffinity(api::core::Pod& pod, const std::string& key, const std::string& value,
                     const nlohmann::json& namespaces = nullptr) {
  nlohmann::json term = {
      {"labelSelector",
       {{"matchExpressions", {{{"key", key}, {"operator", "In"}, {"values", {value}}}}}}},
      {"topologyKey", "region"}};
  if (!namespaces.is_null()) {
    term["namespaces"] = namespaces;
  }
  api::core::Affinity affinity;
  affinity.podAntiAffinity = {{"requiredDuringSchedulingIgnoredDuringExecution", {term}}};
  pod.spec.affinity = affinity;
}

api::core::Node mainRegion(const std::string& name, int64_t cpu = 2000) {
  return makeNode(name, cpu, 3000, 10, {{"region", "main-region"}});
}

api::core::Pod antiPod(const std::string& name, const std::string& node = "n1") {
  auto pod = makePod(name, node);
  setOwner(pod, "Pod", "");
  setAntiAffinity(pod, "foo", "bar");
  return pod;
}

api::core::Pod fooBarPod(const std::string& name, const std::string& node = "n1") {
  auto pod = makePod(name, node);
  setOwner(pod, "Pod", "");
  pod.metadata.labels = {{"foo", "bar"}};
  return pod;
}

api::core::Pod nonEvictable() {
  auto pod = makePod("non-evict", "n1");
  pod.spec.priority = 2000000000;
  pod.metadata.labels = {{"foo", "bar"}};
  return pod;
}

struct AntiCase {
  std::string description{};
  std::vector<api::core::Pod> pods{};
  std::vector<api::core::Node> nodes{};
  size_t expected = 0;
  std::optional<int> max_per_node{};
  std::optional<int> max_per_namespace{};
  std::optional<int> max_total{};
  bool node_fit = false;
};

std::vector<std::string> run(const AntiCase& tc, const nlohmann::json& args = nullptr) {
  Cluster c;
  c.nodes = tc.nodes;
  c.pods = tc.pods;
  c.build();
  c.evictor.filter_fn = testing::defaultEvictable;
  c.evictor.max_per_node = tc.max_per_node;
  c.evictor.max_per_namespace = tc.max_per_namespace;
  c.evictor.max_total = tc.max_total;
  if (tc.node_fit) {
    c.enableNodeFit();
  }
  auto plugin = createRemovePodsViolatingInterPodAntiAffinity(args, c.handle);
  EXPECT_TRUE(plugin.ok()) << plugin.status();
  auto& deschedule = dynamic_cast<framework::DeschedulePlugin&>(**plugin);
  EXPECT_TRUE(deschedule.deschedule(c.node_list).isOk());
  for (const auto& opts : c.evictor.options) {
    EXPECT_EQ(opts.plugin, "RemovePodsViolatingInterPodAntiAffinity");
  }
  return c.evictor.evicted;
}

TEST(PodAntiAffinityTest, CommunityTable) {
  const std::vector<api::core::Pod> four = {antiPod("p1"), fooBarPod("p2"), antiPod("p3"),
                                            antiPod("p4")};
  auto prio = [](api::core::Pod pod, int32_t value) {
    pod.spec.priority = value;
    return pod;
  };
  auto p5 = fooBarPod("p5");
  setAntiAffinity(p5, "foo1", "bar1");
  auto p6 = fooBarPod("p6");
  setAntiAffinity(p6, "foo1", "bar1");
  auto p7 = antiPod("p7");
  p7.metadata.labels = {{"foo1", "bar1"}};
  auto p8 = makePod("p8", "n1");
  p8.spec.nodeSelector = {{"datacenter", "west"}};
  auto n3 = makeNode("n3");
  n3.spec.unschedulable = true;
  auto terminating = [](api::core::Pod pod) {
    pod.metadata.deletionTimestamp = "1970-01-01T00:00:00Z";
    return pod;
  };

  std::vector<AntiCase> cases = {
      {"no limit: 3 evicted", four, {mainRegion("n1")}, 3},
      {"3 per node: 3 evicted", four, {mainRegion("n1")}, 3, 3},
      {"3 per namespace: 3 evicted", four, {mainRegion("n1")}, 3, std::nullopt, 3},
      {"1 in total: 1 evicted", four, {mainRegion("n1")}, 1, std::nullopt, 3, 1},
      {"only 1 evicted after sorting",
       {prio(p5, 100), prio(p6, 50), prio(p7, 0)},
       {mainRegion("n1")},
       1},
      {"conflict with a critical pod evicts the other one",
       {antiPod("p1"), nonEvictable()},
       {mainRegion("n1")},
       1,
       1},
      {"node selector matches no other node",
       {p8, nonEvictable()},
       {mainRegion("n1"), makeNode("n2", 2000, 3000, 10, {{"datacenter", "east"}})},
       0,
       1,
       std::nullopt,
       std::nullopt,
       true},
      {"only other node unschedulable",
       {p8, nonEvictable()},
       {mainRegion("n1"), n3},
       0,
       1,
       std::nullopt,
       std::nullopt,
       true},
      {"terminating pods are left alone",
       {terminating(antiPod("p9")), terminating(antiPod("p10"))},
       {mainRegion("n1")},
       0},
      {"only other node lacks resources",
       four,
       {mainRegion("n1"), makeNode("n4", 2, 2, 1)},
       0,
       3,
       std::nullopt,
       std::nullopt,
       true},
      {"conflict across nodes of one region",
       {antiPod("p1"), fooBarPod("p11", "n5")},
       {mainRegion("n1"), mainRegion("n5", 200)},
       1},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(run(tc).size(), tc.expected) << tc.description;
  }
}

TEST(PodAntiAffinityTest, EvictsTheLowestPriorityConflictingPodFirst) {
  auto p5 = fooBarPod("p5");
  setAntiAffinity(p5, "foo1", "bar1");
  p5.spec.priority = 100;
  auto p6 = fooBarPod("p6");
  setAntiAffinity(p6, "foo1", "bar1");
  p6.spec.priority = 50;
  auto p7 = antiPod("p7");
  p7.metadata.labels = {{"foo1", "bar1"}};
  p7.spec.priority = 0;
  // p7 (priority 0) conflicts with p5 and p6; once it is gone they no longer conflict.
  EXPECT_EQ(run({"", {p5, p6, p7}, {mainRegion("n1")}, 1}), std::vector<std::string>{"p7"});
}

TEST(PodAntiAffinityTest, TermNamespacesAndDifferentRegions) {
  auto other_ns = fooBarPod("p2");
  other_ns.metadata.namespace_ = "other";
  // The term looks at the pod's own namespace by default: no conflict.
  EXPECT_TRUE(run({"", {antiPod("p1"), other_ns}, {mainRegion("n1")}}).empty());
  // With namespaces: ["other"] it does.
  auto p1 = antiPod("p1");
  setAntiAffinity(p1, "foo", "bar", {"other"});
  EXPECT_EQ(run({"", {p1, other_ns}, {mainRegion("n1")}}), std::vector<std::string>{"p1"});
  // Another region: no conflict.
  EXPECT_TRUE(run({"",
                   {antiPod("p1"), fooBarPod("p2", "n2")},
                   {mainRegion("n1"), makeNode("n2", 2000, 3000, 10, {{"region", "west"}})}})
                  .empty());
}

TEST(PodAntiAffinityTest, LabelSelectorArgLimitsThePods) {
  auto p1 = antiPod("p1");
  p1.metadata.labels = {{"app", "a"}};
  auto p3 = antiPod("p3");
  EXPECT_EQ(run({"", {p1, fooBarPod("p2"), p3}, {mainRegion("n1")}},
                {{"labelSelector", {{"matchLabels", {{"app", "a"}}}}}}),
            std::vector<std::string>{});
  // p2 (the pod they conflict with) is outside the selector too, so nothing conflicts.
  auto p2 = fooBarPod("p2");
  p2.metadata.labels["app"] = "a";
  EXPECT_EQ(run({"", {p1, p2, p3}, {mainRegion("n1")}},
                {{"labelSelector", {{"matchLabels", {{"app", "a"}}}}}}),
            std::vector<std::string>{"p1"});
}

TEST(PodAntiAffinityTest, SortsByPriorityThenQos) {
  auto best_effort = makePod("be", "n1", 0, 0);
  best_effort.spec.containers[0].resources.requests.clear();
  auto guaranteed = makePod("g", "n1");
  guaranteed.spec.containers[0].resources.limits =
      guaranteed.spec.containers[0].resources.requests = {
          {"cpu", resource::Quantity::fromMilli(100)}, {"memory", resource::Quantity::fromInt(1)}};
  auto burstable = makePod("b", "n1");
  auto high = makePod("high", "n1");
  high.spec.priority = 10;
  auto low = makePod("low", "n1");
  low.spec.priority = 1;
  std::vector<framework::PodPtr> pods;
  for (const auto& p : {high, guaranteed, low, burstable, best_effort}) {
    pods.push_back(std::make_shared<const api::core::Pod>(p));
  }
  sortPodsByPriorityLowToHigh(pods);
  std::vector<std::string> names;
  names.reserve(pods.size());
  for (const auto& p : pods) {
    names.push_back(p->metadata.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"be", "b", "g", "low", "high"}));
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::spreading
