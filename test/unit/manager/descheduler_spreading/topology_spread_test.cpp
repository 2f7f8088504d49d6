// RemovePodsViolatingTopologySpreadConstraint: the community's TestTopologySpreadConstraint table,
// domains, selectors, taints and matchLabelKeys.
#include <gtest/gtest.h>

#include "test/unit/manager/descheduler_spreading/topology_spread_support.hpp"

namespace koord::manager::descheduler::plugins::spreading {
namespace {

using namespace topology_testing;  // NOLINT(google-build-using-namespace)
using api::core::StringMap;
using Json = nlohmann::json;

TEST(TopologySpreadTest, TwoZones) {
  const std::vector<api::core::Node> ab = {zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")};
  auto three_one = [](const Json& c) {
    return createPods({{1, "n1", fooBar(), c}, {2, "n1", fooBar()}, {1, "n2", fooBar()}});
  };
  const Json both = {{"constraints", {"DoNotSchedule", "ScheduleAnyway"}}};
  const Json soft = Json::array({constraint(1, "zone", "ScheduleAnyway")});
  check({
      {"[2,1] maxSkew=1: 0", ab,
       createPods({{1, "n1", fooBar(), defaults(1)}, {1, "n1", fooBar()}, {1, "n2", fooBar()}}), 0},
      {"[3,1] maxSkew=1: 1", ab, three_one(defaults(1)), 1},
      {"[3,1] both kinds allowed: 1", ab, three_one(soft), 1, {}, both},
      {"[3,1] soft constraint not allowed by default: 0", ab, three_one(soft), 0},
      {"[3,1] no pods eligible: 0", ab,
       createPods({{1, "n1", fooBar(), defaults(1), {}, {}, true},
                   {2, "n1", fooBar(), nullptr, {}, {}, true},
                   {1, "n2", fooBar(), nullptr, {}, {}, true}}),
       0},
      {"[3,1] kube-system excluded, nodeFit: 1",
       ab,
       three_one(defaults(1)),
       1,
       {},
       {{"namespaces", {{"exclude", {"kube-system"}}}}},
       true},
      {"[5,2] maxSkew=1: 1", ab,
       createPods({{1, "n1", fooBar(), defaults(1)}, {4, "n1", fooBar()}, {2, "n2", fooBar()}}), 1},
      {"[4,0] maxSkew=1: 2", ab,
       createPods({{1, "n1", fooBar(), defaults(1)}, {3, "n1", fooBar()}}), 2},
      {"[2 6] maxSkew=2: 1", ab,
       createPods({{1, "n1", fooBar(), defaults(2)}, {1, "n1", fooBar()}, {6, "n2", fooBar()}}), 1},
  });
}

TEST(TopologySpreadTest, SelectorsAffinityAndNodeFit) {
  const std::vector<api::core::Node> ab = {zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")};
  api::core::NodeSelectorTerm foo_term;
  foo_term.matchExpressions = {{"foo", "In", {"bar"}, {}}};
  const api::core::NodeSelector foo_in_bar{{foo_term}, {}};
  auto tainted_a = zoneNode("n1", "zoneA");
  tainted_a.spec.taints = {{"hardware", "gpu", "NoSchedule", "", {}}};
  auto boston = [](const std::string& name, const std::string& zone) {
    return node(name, {{"zone", zone}, {"region", "boston"}});
  };
  const StringMap in_boston = {{"region", "boston"}};
  check({
      {"[4,0] pods with selector/affinity stay, nodeFit: 1",
       ab,
       createPods({{1, "n1", fooBar(), defaults(1), {{"zone", "zoneA"}}},
                   {1, "n1", fooBar(), defaults(1), {{"zone", "zoneA"}}},
                   {1, "n1", fooBar(), defaults(1), {}, foo_in_bar},
                   {1, "n1", fooBar(), defaults(1)}}),
       1,
       {},
       Json::object(),
       true},
      {"[4,0] selector matches both nodes: 2",
       {boston("n1", "zoneA"), boston("n2", "zoneB")},
       createPods(
           {{1, "n1", fooBar(), defaults(1), in_boston}, {3, "n1", fooBar(), nullptr, in_boston}}),
       2},
      {"[2 6] node taints, nodeFit: 0",
       {tainted_a, zoneNode("n2", "zoneB")},
       createPods({{1, "n1", fooBar(), defaults(2)}, {1, "n1", fooBar()}, {6, "n2", fooBar()}}),
       0,
       {},
       Json::object(),
       true},
      {"[2 6] not enough cpu on n1, nodeFit: 0",
       {zoneNode("n1", "zoneA", 200), zoneNode("n2", "zoneB")},
       createPods({{1, "n1", fooBar(), defaults(2)}, {1, "n1", fooBar()}, {6, "n2", fooBar()}}),
       0,
       {},
       Json::object(),
       true},
  });
}

TEST(TopologySpreadTest, NodeTopologyKey) {
  auto n = [](const std::string& name, const std::string& host, const std::string& os) {
    return node(name, {{"node", host}, {"os", os}});
  };
  std::vector<api::core::Node> six = {
      n("n1", "linNodeA", "linux"),   n("n2", "linNodeB", "linux"),
      n("n3", "linNodeC", "linux"),   n("n4", "winNodeA", "windows"),
      n("n5", "winNodeB", "windows"), n("n6", "winNodeC", "windows")};
  auto seven = six;
  seven.push_back(n("n7", "winNodeD", "windows"));
  const Json by_node = Json::array({constraint(1, "node")});
  const StringMap windows = {{"os", "windows"}};
  auto pods = [&](int a, int b, int c, const StringMap& first_selector) {
    return createPods({{a, "n4", fooBar(), by_node, first_selector},
                       {b, "n5", fooBar(), by_node, windows},
                       {c, "n6", fooBar(), by_node, windows}});
  };
  check({
      {"6 domains [0,0,0,3,3,2] balanced among included nodes: 0", six, pods(3, 3, 2, windows), 0},
      {"7 domains [0,0,0,3,3,2,0]: 2", seven, pods(3, 3, 2, windows), 2},
      {"6 domains [0,0,0,4,3,1]: 1", six, pods(4, 3, 1, windows), 1},
      {"6 domains [0,0,0,4,3,1], pods of winNodeA pinned, nodeFit: 0",
       six,
       pods(4, 3, 1, {{"node", "winNodeA"}}),
       0,
       {},
       Json::object(),
       true},
  });
}

TEST(TopologySpreadTest, LargeAndUnevenDomains) {
  const std::vector<api::core::Node> abc = {zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB"),
                                            zoneNode("n3", "zoneC")};
  auto abcd = abc;
  abcd.push_back(zoneNode("n4", "zoneD"));
  check({
      {"[0,1,100] -> [34,33,34]: 66", abc,
       createPods({{1, "n2", fooBar(), defaults(1)}, {100, "n3", fooBar()}}), 66},
      {"[0,1,3,5] -> [2,2,3,2]: 3", abcd,
       createPods({{1, "n2", fooBar(), defaults(1)}, {3, "n3", fooBar()}, {5, "n4", fooBar()}}), 3},
      {"[8,7,0] -> [5,5,5]: pod-5..pod-9",
       abc,
       createPods({{8, "n1", fooBar(), defaults(1)}, {7, "n2", fooBar(), defaults(1)}}),
       5,
       {"pod-5", "pod-6", "pod-7", "pod-8", "pod-9"}},
      {"[5,5,5]: 0", abc,
       createPods({{5, "n1", fooBar(), defaults(1)},
                   {5, "n2", fooBar(), defaults(1)},
                   {5, "n3", fooBar(), defaults(1)}}),
       0},
  });
}

TEST(TopologySpreadTest, MultipleConstraints) {
  std::vector<api::core::Node> nodes;
  for (int i = 1; i <= 6; ++i) {
    const std::string name = "n" + std::to_string(i);
    nodes.push_back(node(name, {{"topology.kubernetes.io/zone", i <= 3 ? "zoneA" : "zoneB"},
                                {"kubernetes.io/hostname", name}}));
  }
  const StringMap app = {{"app", "whoami"}};
  const Json sel = {{"matchLabels", app}};
  const Json two = Json::array({constraint(1, "topology.kubernetes.io/zone", "ScheduleAnyway", sel),
                                constraint(1, "kubernetes.io/hostname", "DoNotSchedule", sel)});
  check({{"6 nodes in 2 zones, 4 pods: 1",
          nodes,
          createPods(
              {{1, "n1", app, two}, {1, "n2", app, two}, {1, "n3", app, two}, {1, "n4", app, two}}),
          1,
          {},
          {{"constraints", {"DoNotSchedule", "ScheduleAnyway"}}}}});
}

TEST(TopologySpreadTest, TaintsLabelFilteringAndMatchLabelKeys) {
  auto tainted_b = [](const std::string& effect) {
    auto n = zoneNode("n2", "zoneB");
    n.spec.taints = {{"taint-test", "test", effect, "", {}}};
    return n;
  };
  const StringMap zone_a = {{"zone", "zoneA"}};
  const std::vector<api::core::Toleration> tolerate = {
      {"taint-test", "Equal", "test", "NoSchedule", std::nullopt, {}}};
  const std::vector<api::core::Node> ab = {zoneNode("n1", "zoneA"), zoneNode("n2", "zoneB")};
  auto two_zero = createPods({{1, "n1", fooBar(), defaults(1)}, {1, "n1", fooBar()}});
  auto selector = [](const std::string& op, const std::string& value) {
    return Json{
        {"labelSelector",
         {{"matchExpressions", {{{"key", "foo"}, {"operator", op}, {"values", {value}}}}}}}};
  };
  const std::string hash = "pod-template-hash";
  const Json by_hash = Json::array({[] {
    Json c = constraint(1);
    c["matchLabelKeys"] = {"pod-template-hash"};
    return c;
  }()});
  check({
      {"[2,0] pod tolerates the tainted node: pod-0",
       {zoneNode("n1", "zoneA"), tainted_b("NoSchedule")},
       createPods({{1, "n1", fooBar(), defaults(1), {}, std::nullopt, false, tolerate},
                   {1, "n1", fooBar(), nullptr, zone_a}}),
       1,
       {"pod-0"}},
      {"[2,0] pod does not tolerate the tainted node: 0",
       {zoneNode("n1", "zoneA"), tainted_b("NoSchedule")},
       createPods({{1, "n1", fooBar(), defaults(1)}, {1, "n1", fooBar(), nullptr, zone_a}}),
       0},
      {"[2,0] not tolerated, nodeFit: 0",
       {zoneNode("n1", "zoneA"), tainted_b("NoSchedule")},
       createPods({{1, "n1", fooBar(), defaults(1)}, {1, "n1", fooBar(), nullptr, zone_a}}),
       0,
       {},
       Json::object(),
       true},
      {"[2,0] PreferNoSchedule taint: pod-0",
       {zoneNode("n1", "zoneA"), tainted_b("PreferNoSchedule")},
       createPods({{1, "n1", fooBar(), defaults(1)}, {1, "n1", fooBar(), nullptr, zone_a}}),
       1,
       {"pod-0"}},
      {"[2,0] args selector matches none: 0", ab, two_zero, 0, {}, selector("In", "baz")},
      {"[2,0] args selector matches: pod-1", ab, two_zero, 1, {"pod-1"}, selector("In", "bar")},
      {"[2,0] args selector NotIn: pod-1", ab, two_zero, 1, {"pod-1"}, selector("NotIn", "baz")},
      {"[2,0] matchLabelKeys, same hash: pod-1",
       ab,
       createPods({{1, "n1", {{"foo", "bar"}, {hash, "foo"}}, by_hash},
                   {1, "n1", {{"foo", "bar"}, {hash, "foo"}}, by_hash}}),
       1,
       {"pod-1"},
       selector("NotIn", "baz")},
      {"[2,0] matchLabelKeys, different hashes: 0",
       ab,
       createPods({{1, "n1", {{"foo", "bar"}, {hash, "foo"}}, by_hash},
                   {1, "n1", {{"foo", "bar"}, {hash, "bar"}}, by_hash}}),
       0,
       {},
       selector("NotIn", "baz")},
      {"[4,2] with 2 pods terminating: 0",
       ab,
       createPods({{2, "n1", fooBar(), defaults(1)},
                   {2, "n1", fooBar(), defaults(1), {}, std::nullopt, false, {}, true},
                   {2, "n2", fooBar(), defaults(1)}}),
       0,
       {},
       selector("In", "bar")},
  });
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::spreading
