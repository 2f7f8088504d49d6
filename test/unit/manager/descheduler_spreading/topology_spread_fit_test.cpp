// RemovePodsViolatingTopologySpreadConstraint: the community's TestTopologySpreadConstraint table,
// node fit, inclusion policies and node limits.
#include <gtest/gtest.h>

#include "test/unit/manager/descheduler_spreading/topology_spread_support.hpp"

namespace koord::manager::descheduler::plugins::spreading {
namespace {

using namespace topology_testing;  // NOLINT(google-build-using-namespace)
using api::core::StringMap;
using Json = nlohmann::json;

TEST(TopologySpreadTest, TopologyBalanceNodeFit) {
  const std::vector<api::core::Node> small_a = {zoneNode("n1", "zoneA", 250, 9),
                                                zoneNode("n2", "zoneB", 1000, 9),
                                                zoneNode("n3", "zoneC", 1000, 9)};
  auto pods = createPods({{2, "n1", fooBar(), defaults(1)},
                          {3, "n2", fooBar(), defaults(1)},
                          {4, "n3", fooBar(), defaults(1)}});
  std::vector<api::core::Node> six = {
      zoneNode("A1", "zoneA", 150, 9),  zoneNode("B1", "zoneB", 1000, 9),
      zoneNode("C1", "zoneC", 1000, 9), zoneNode("A2", "zoneA", 50, 9),
      zoneNode("B2", "zoneB", 1000, 9), zoneNode("C2", "zoneC", 1000, 9)};
  std::vector<api::core::Node> four = {
      zoneNode("A1", "zoneA", 1000, 9), zoneNode("A2", "zoneA", 1000, 9),
      zoneNode("B1", "zoneB", 1000, 9), zoneNode("B2", "zoneB", 1000, 9)};
  check({
      {"[2,3,4] no cpu in zoneA: 0", small_a, pods, 0, {}, Json::object(), true},
      {"[2,3,4] topologyBalanceNodeFit=false: 1",
       small_a,
       pods,
       1,
       {},
       {{"topologyBalanceNodeFit", false}},
       true},
      {"[[1,0],[1,1],[2,1]] no cpu in zoneA: 0",
       six,
       createPods({{1, "A1", fooBar(), defaults(1)},
                   {1, "B1", fooBar(), defaults(1)},
                   {1, "B2", fooBar(), defaults(1)},
                   {2, "C1", fooBar(), defaults(1)},
                   {1, "C2", fooBar(), defaults(1)}}),
       0,
       {},
       Json::object(),
       true},
      {"[[1,4],[2,1]]: pod-4",
       four,
       createPods({{1, "A1", fooBar(), defaults(1)},
                   {4, "A2", fooBar(), defaults(1)},
                   {2, "B1", fooBar(), defaults(1)},
                   {1, "B2", fooBar(), defaults(1)}}),
       1,
       {"pod-4"},
       Json::object(),
       true},
  });
}

TEST(TopologySpreadTest, InclusionPolicies) {
  auto cp = node("controlplane1", {{"zone", "zoneA"}, {"kubernetes.io/hostname", "cp-1"}});
  cp.spec.taints = {{"node-role.kubernetes.io/controlplane", "true", "NoSchedule", "", {}},
                    {"node-role.kubernetes.io/etcd", "true", "NoSchedule", "", {}}};
  auto infra =
      node("infraservices1",
           {{"zone", "zoneA"}, {"infra_service", "true"}, {"kubernetes.io/hostname", "infra-1"}});
  infra.spec.taints = {{"infra_service", "", "NoSchedule", "", {}}};
  auto app1 = node(
      "app1", {{"zone", "zoneA"}, {"app_service", "true"}, {"kubernetes.io/hostname", "app-1"}});
  auto app2 = node(
      "app2", {{"zone", "zoneB"}, {"app_service", "true"}, {"kubernetes.io/hostname", "app-2"}});
  const StringMap svc = {{"app.kubernetes.io/name", "service"}};
  const Json by_host = Json::array(
      {constraint(1, "kubernetes.io/hostname", "DoNotSchedule", {{"matchLabels", svc}})});
  api::core::NodeSelectorTerm term;
  term.matchExpressions = {{"app_service", "Exists", {}, {}}};
  const api::core::NodeSelector app_service{{term}, {}};

  const std::string arch = "kubernetes.io/arch";
  auto arm = [&](const std::string& name, const std::string& zone) {
    return node(name, {{"zone", zone}, {arch, "arm64"}}, 1000, 9);
  };
  Json ignore_affinity = constraint(1);
  ignore_affinity["nodeAffinityPolicy"] = "Ignore";
  const Json ignore = Json::array({ignore_affinity});
  check({
      {"tainted nodes and required affinity: 0",
       {cp, infra, app1, app2},
       createPods({{2, "app1", svc, by_host, {}, app_service},
                   {2, "app2", svc, by_host, {}, app_service}}),
       0,
       {},
       Json::object(),
       true},
      {"[2,1,0] nodeAffinityPolicy=Ignore: pod-0",
       {arm("A1", "zoneA"), arm("B1", "zoneB"), arm("C1", "zoneC")},
       createPods({{1, "A1", fooBar(), ignore, {{arch, "arm64"}}},
                   {1, "A1", fooBar(), ignore, {{"zone", "zoneA"}, {arch, "arm64"}}},
                   {1, "B1", fooBar(), ignore, {{arch, "arm64"}}}}),
       1,
       {"pod-0"}},
  });
}

TEST(TopologySpreadTest, NodeLimitStopsEvictionsOnThatNode) {
  Cluster c;
  c.nodes = {zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")};
  c.pods = createPods({{1, "n1", fooBar(), defaults(1)}, {3, "n1", fooBar()}});
  c.build();
  c.evictor.max_per_node = 1;
  auto plugin = createRemovePodsViolatingTopologySpreadConstraint(nullptr, c.handle);
  ASSERT_TRUE(plugin.ok());
  ASSERT_TRUE(dynamic_cast<framework::BalancePlugin&>(**plugin).balance(c.node_list).isOk());
  EXPECT_EQ(c.evictor.evicted.size(), 1U);
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::spreading
