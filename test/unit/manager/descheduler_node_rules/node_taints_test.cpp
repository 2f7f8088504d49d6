#include "manager/descheduler/plugins/node_rules/node_taints.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "test/unit/manager/descheduler_node_rules/harness.hpp"

namespace koord::manager::descheduler::plugins::node_rules {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test builders
using Json = nlohmann::json;
using PodFn = std::function<void(core::Pod&)>;
using NodeFn = std::function<void(core::Node&)>;

// The community's createNoScheduleTaint ignores its key/value: every taint is testTaint<i>=test<i>.
core::Taint noSchedule1() {
  return taint("testTaint1", "test1", "NoSchedule");
}
void withTestTaint1(core::Node& n) {
  n.spec.taints = {noSchedule1()};
}
void withBothTaints1(core::Node& n) {
  n.spec.taints = {noSchedule1(), noSchedule1()};
}
void withPreferNoSchedule1(core::Node& n) {
  n.spec.taints = {taint("testTaint1", "test1", "PreferNoSchedule")};
}
void withEast(core::Node& n) {
  n.metadata.labels["datacenter"] = "east";
}
void withUnschedulable(core::Node& n) {
  n.spec.unschedulable = true;
}

void addToleration(core::Pod& p, const std::string& key, const std::string& value, int index,
                   const std::string& effect) {
  p.spec.tolerations = {
      toleration(key + std::to_string(index), value + std::to_string(index), effect)};
}
void tolerates1(core::Pod& p) {
  addToleration(p, "testTaint", "test", 1, "NoSchedule");
}
void toleratesX1(core::Pod& p) {
  addToleration(p, "testTaintX", "testX", 1, "NoSchedule");
}
void criticalKubeSystem(core::Pod& p) {
  p.metadata.namespace_ = "kube-system";
  setPriority(p, framework::kSystemCriticalPriority);
}

core::Node node(const std::string& name, const NodeFn& apply) {
  core::Node n = buildNode(name, 2000, 3000, 10);
  if (apply)
    apply(n);
  return n;
}
core::Pod owned(const std::string& name, const std::string& on, const PodFn& apply) {
  core::Pod p = buildPod(name, 100, 0, on);
  setNormalOwnerRef(p);
  if (apply)
    apply(p);
  return p;
}
core::Pod unowned(const std::string& name, const std::string& on, const PodFn& apply) {
  core::Pod p = buildPod(name, 100, 0, on);
  if (apply)
    apply(p);
  return p;
}

struct TaintCase {
  std::string description;
  std::vector<core::Pod> pods;
  std::vector<core::Node> nodes;
  size_t expected;
  framework::EvictionLimits limits = {};
  bool evict_local_storage = false;
  bool evict_system_critical = false;
  bool node_fit = false;
  Json args = Json::object();
};

TEST(RemovePodsViolatingNodeTaints, CommunityTable) {
  const auto n1 = node("n1", withTestTaint1);
  const auto n2 = node("n2", withTestTaint1);  // withTestingTaint1: the same taint
  const std::vector<TaintCase> cases = {
      {"pods not tolerating the taint are evicted",
       {owned("p1", "n1", tolerates1), owned("p2", "n1", nullptr), owned("p3", "n1", tolerates1)},
       {n1},
       1},
      {"tolerations that do not tolerate the taint",
       {owned("p1", "n1", tolerates1), owned("p3", "n1", tolerates1),
        owned("p4", "n1", toleratesX1)},
       {n1},
       1},
      {"maxNoOfPodsToEvictTotal",
       {owned("p1", "n1", tolerates1), owned("p5", "n1", nullptr), owned("p6", "n1", nullptr)},
       {n1},
       1,
       {2, std::nullopt, 1}},
      {"maxPodsToEvictPerNode",
       {owned("p1", "n1", tolerates1), owned("p5", "n1", nullptr), owned("p6", "n1", nullptr)},
       {n1},
       1,
       {1, std::nullopt, std::nullopt}},
      {"maxNoOfPodsToEvictPerNamespace",
       {owned("p1", "n1", tolerates1), owned("p5", "n1", nullptr), owned("p6", "n1", nullptr)},
       {n1},
       1,
       {std::nullopt, 1, std::nullopt}},
      {"critical, daemonset, local storage and mirror pods stay",
       {owned("p7", "n2", criticalKubeSystem), unowned("p8", "n2", setDSOwnerRef),
        owned("p9", "n2", setLocalStorageVolume), owned("p10", "n2", setMirrorPodAnnotation)},
       {n2},
       0},
      {"local storage pods go with evictLocalStoragePods",
       {owned("p7", "n2", criticalKubeSystem), unowned("p8", "n2", setDSOwnerRef),
        owned("p9", "n2", setLocalStorageVolume), owned("p10", "n2", setMirrorPodAnnotation)},
       {n2},
       1,
       {},
       true},
      {"only the non-critical pod goes",
       {owned("p7", "n2", criticalKubeSystem), unowned("p8", "n2", setDSOwnerRef),
        owned("p10", "n2", setMirrorPodAnnotation), owned("p11", "n2", nullptr)},
       {n2},
       1},
      {"critical pods go with evictSystemCriticalPods",
       {owned("p2", "n1", nullptr), owned("p7", "n2", criticalKubeSystem),
        owned("p9", "n2", setLocalStorageVolume), owned("p10", "n2", setMirrorPodAnnotation)},
       {n1, n2},
       2,
       {},
       false,
       true},
      {"nodeFit: the other node's taint is not tolerated either",
       {owned("p1", "n1", tolerates1), owned("p2", "n1", nullptr), owned("p3", "n1", tolerates1)},
       {n1, n2},
       0,
       {},
       false,
       false,
       true},
      {"nodeFit: other nodes do not match the selector",
       {owned("p1", "n1", tolerates1), owned("p3", "n1", tolerates1),
        owned("p11", "n2", [](core::Pod& p) { p.spec.nodeSelector["datacenter"] = "west"; })},
       {n1, node("n3", withEast)},
       0,
       {},
       false,
       false,
       true},
      {"nodeFit: other nodes are unschedulable",
       {owned("p1", "n1", tolerates1), owned("p2", "n1", nullptr), owned("p3", "n1", tolerates1)},
       {n1, node("n4", withUnschedulable)},
       0,
       {},
       false,
       false,
       true},
      {"PreferNoSchedule not enforced by default",
       {owned("p13", "n5",
              [](core::Pod& p) { addToleration(p, "testTaint", "test", 0, "PreferNoSchedule"); })},
       {node("n5", withPreferNoSchedule1)},
       0},
      {"PreferNoSchedule enforced with includePreferNoSchedule",
       {owned("p13", "n5",
              [](core::Pod& p) { addToleration(p, "testTaint", "test", 0, "PreferNoSchedule"); })},
       {node("n5", withPreferNoSchedule1)},
       1,
       {},
       false,
       false,
       false,
       {{"includePreferNoSchedule", true}}},
      {"excluded by key",
       {owned("p2", "n1", nullptr)},
       {n1},
       0,
       {},
       false,
       false,
       false,
       {{"excludedTaints", {"excludedTaint1", "testTaint1"}}}},
      {"excluded by key and value",
       {owned("p2", "n1", nullptr)},
       {n1},
       0,
       {},
       false,
       false,
       false,
       {{"excludedTaints", {"testTaint1=test1"}}}},
      {"excluded key with another value",
       {owned("p2", "n1", nullptr)},
       {n1},
       1,
       {},
       false,
       false,
       false,
       {{"excludedTaints", {"testTaint1=test2"}}}},
      {"nodeFit: the only other node is too small",
       {owned("p2", "n1", nullptr), owned("p7", "n2", criticalKubeSystem),
        owned("p9", "n2", setLocalStorageVolume), owned("p10", "n2", setMirrorPodAnnotation)},
       {n1,
        [] {
          core::Node n = buildNode("n6", 1, 1, 1);
          withPreferNoSchedule1(n);
          return n;
        }()},
       0,
       {},
       false,
       true,
       true},
      {"included taint tolerated",
       {owned("p1", "n7", tolerates1)},
       {node("n7", withBothTaints1)},
       0,
       {},
       false,
       false,
       false,
       {{"includedTaints", {"testTaint1=test1"}}}},
      {"taint not included",
       {owned("p1", "n1", tolerates1), owned("p2", "n1", nullptr), owned("p4", "n1", toleratesX1)},
       {n1},
       0,
       {},
       false,
       false,
       false,
       {{"includedTaints", {"testTaint2=test2"}}}},
      {"included taint not tolerated",
       {owned("p1", "n1", tolerates1), owned("p2", "n1", nullptr), owned("p3", "n1", tolerates1)},
       {n1},
       1,
       {},
       false,
       false,
       false,
       {{"includedTaints", {"testTaint1=test1"}}}},
      {"includedTaints unset: every taint counts",
       {owned("p14", "n7", tolerates1), owned("p15", "n7",
                                              [](core::Pod& p) {
                                                tolerates1(p);
                                                // Replaces the list, as the community's helper.
                                                addToleration(p, "testingTaint", "testing", 1,
                                                              "NoSchedule");
                                              })},
       {node("n7", withBothTaints1)},
       1},
  };
  for (const auto& tc : cases) {
    framework::DefaultEvictorOptions options;
    options.evict_local_storage_pods = tc.evict_local_storage;
    options.evict_system_critical_pods = tc.evict_system_critical;
    options.node_fit = tc.node_fit;
    Pass pass(tc.nodes, tc.pods, options, tc.limits);
    auto plugin = createRemovePodsViolatingNodeTaints(tc.args, pass.handle);
    ASSERT_TRUE(plugin.ok()) << tc.description << ": " << plugin.status().toString();
    auto* deschedule = dynamic_cast<framework::DeschedulePlugin*>(plugin->get());
    ASSERT_NE(deschedule, nullptr);
    EXPECT_TRUE(deschedule->deschedule(pass.nodes).isOk());
    EXPECT_EQ(pass.evictor.totalEvicted(), tc.expected) << tc.description;
  }
}

TEST(RemovePodsViolatingNodeTaints, EvictsInNodeAndPodOrderWithThePluginName) {
  Pass pass({node("n1", withTestTaint1), node("n2", withTestTaint1)},
            {owned("b", "n2", nullptr), owned("a", "n1", nullptr), owned("c", "n1", nullptr)}, {});
  auto plugin = createRemovePodsViolatingNodeTaints(nullptr, pass.handle);
  ASSERT_TRUE(plugin.ok());
  ASSERT_TRUE(dynamic_cast<framework::DeschedulePlugin&>(**plugin).deschedule(pass.nodes).isOk());
  EXPECT_EQ(pass.evictedNames(), (std::vector<std::string>{"a", "c", "b"}));
  EXPECT_EQ(pass.evictor.victims()[0].plugin, "RemovePodsViolatingNodeTaints");
}

TEST(RemovePodsViolatingNodeTaints, EmptyIncludedTaintsIncludesNothing) {
  Pass pass({node("n1", withTestTaint1)}, {owned("p2", "n1", nullptr)}, {});
  auto plugin =
      createRemovePodsViolatingNodeTaints(Json{{"includedTaints", Json::array()}}, pass.handle);
  ASSERT_TRUE(plugin.ok());
  ASSERT_TRUE(dynamic_cast<framework::DeschedulePlugin&>(**plugin).deschedule(pass.nodes).isOk());
  EXPECT_EQ(pass.evictor.totalEvicted(), 0u);
}

TEST(RemovePodsViolatingNodeTaintsArgs, Validation) {
  struct Case {
    Json args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{{"namespaces", {{"include", {"a"}}, {"exclude", {"b"}}}}},
       "RemovePodsViolatingNodeTaintsArgs: only one of Include/Exclude namespaces can be set"},
      {{{"excludedTaints", {"a"}}, {"includedTaints", {"b"}}},
       "RemovePodsViolatingNodeTaintsArgs: either includedTaints or excludedTaints can be set, "
       "but not both"},
      {{{"excludedTaint", {"a"}}},
       "RemovePodsViolatingNodeTaintsArgs.excludedTaint: unknown field"},
      {{{"namespaces", {{"inclde", {"a"}}}}},
       "RemovePodsViolatingNodeTaintsArgs.namespaces.inclde: unknown field"},
  };
  for (const auto& c : cases) {
    auto decoded = decodeRemovePodsViolatingNodeTaintsArgs(c.args);
    ASSERT_FALSE(decoded.ok()) << c.args.dump();
    EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(decoded.status().message(), c.message);
  }
  auto selector = decodeRemovePodsViolatingNodeTaintsArgs(
      Json{{"labelSelector", {{"matchExpressions", {{{"key", "a"}, {"operator", "Bad"}}}}}}});
  ASSERT_FALSE(selector.ok());
  EXPECT_NE(selector.status().message().find("failed to get label selectors"), std::string::npos);
  auto wrong = decodeRemovePodsViolatingNodeTaintsArgs(Json{{"includePreferNoSchedule", "yes"}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("includePreferNoSchedule"), std::string::npos);
  auto ok =
      decodeRemovePodsViolatingNodeTaintsArgs(Json{{"apiVersion", "descheduler/v1alpha2"},
                                                   {"kind", "RemovePodsViolatingNodeTaintsArgs"},
                                                   {"includePreferNoSchedule", true}});
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ok->include_prefer_no_schedule);
  EXPECT_FALSE(ok->included_taints.has_value());
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::node_rules
