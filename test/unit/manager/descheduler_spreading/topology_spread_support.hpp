// Shared parts of the RemovePodsViolatingTopologySpreadConstraint tests: the community test's
// createTestPods groups and default constraints, and a runner that lists pods by name (as the
// community test arranges it, so the named pods match) and checks the evicted count and pods.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "manager/descheduler/plugins/spreading/topology_spread.hpp"
#include "test/unit/manager/descheduler_spreading/fixture.hpp"

namespace koord::manager::descheduler::plugins::spreading::topology_testing {

using api::core::StringMap;
using Json = nlohmann::json;
using testing::Cluster;

struct Group {
  int count = 1;
  std::string node{};
  StringMap labels{};
  Json constraints{};  // the pods' spec.topologySpreadConstraints; null: none
  StringMap node_selector{};
  std::optional<api::core::NodeSelector> required_affinity{};
  bool no_owners = false;
  std::vector<api::core::Toleration> tolerations{};
  bool deleting = false;
};

// createTestPods: pod-<n> in namespace ns1, 100m cpu, owned by a ReplicaSet unless no_owners.
inline std::vector<api::core::Pod> createPods(const std::vector<Group>& groups) {
  std::vector<api::core::Pod> pods;
  for (const Group& g : groups) {
    for (int i = 0; i < g.count; ++i) {
      auto pod = testing::makePod("pod-" + std::to_string(pods.size()), g.node);
      pod.metadata.namespace_ = "ns1";
      pod.metadata.labels = g.labels;
      if (!g.no_owners) {
        testing::setRSOwnerRef(pod);
      }
      if (!g.constraints.is_null()) {
        pod.spec.extra = Json{{"topologySpreadConstraints", g.constraints}};
      }
      pod.spec.nodeSelector = g.node_selector;
      if (g.required_affinity) {
        api::core::NodeAffinity na;
        na.required = g.required_affinity;
        api::core::Affinity affinity;
        affinity.nodeAffinity = na;
        pod.spec.affinity = affinity;
      }
      pod.spec.tolerations = g.tolerations;
      if (g.deleting) {
        pod.metadata.deletionTimestamp = "1970-01-01T00:00:00Z";
      }
      pods.push_back(std::move(pod));
    }
  }
  return pods;
}

inline Json constraint(int skew, const std::string& key = "zone",
                       const std::string& when = "DoNotSchedule",
                       const Json& selector = {{"matchLabels", {{"foo", "bar"}}}}) {
  return {{"maxSkew", skew},
          {"topologyKey", key},
          {"whenUnsatisfiable", when},
          {"labelSelector", selector}};
}

inline Json defaults(int skew) {
  return Json::array({constraint(skew)});
}

inline api::core::Node node(const std::string& name, const StringMap& labels, int64_t cpu = 2000,
                            int64_t pods = 10) {
  return testing::makeNode(name, cpu, 3000, pods, labels);
}

inline api::core::Node zoneNode(const std::string& name, const std::string& zone,
                                int64_t cpu = 2000, int64_t pods = 10) {
  return node(name, {{"zone", zone}}, cpu, pods);
}

struct SpreadCase {
  std::string name{};
  std::vector<api::core::Node> nodes{};
  std::vector<api::core::Pod> pods{};
  size_t expected = 0;
  std::vector<std::string> expected_pods{};  // when set, these must be among the evicted
  Json args = Json::object();
  bool node_fit = false;
};

inline std::vector<std::string> run(const SpreadCase& tc) {
  Cluster c;
  c.nodes = tc.nodes;
  c.pods = tc.pods;
  std::sort(c.pods.begin(), c.pods.end(),
            [](const auto& a, const auto& b) { return a.metadata.name < b.metadata.name; });
  c.build();
  c.evictor.filter_fn = [](const api::core::Pod& pod) {
    return testing::defaultEvictable(pod) && !pod.metadata.ownerReferences.empty();
  };
  if (tc.node_fit) {
    c.enableNodeFit();
  }
  auto plugin = createRemovePodsViolatingTopologySpreadConstraint(tc.args, c.handle);
  EXPECT_TRUE(plugin.ok()) << plugin.status();
  EXPECT_TRUE(dynamic_cast<framework::BalancePlugin&>(**plugin).balance(c.node_list).isOk());
  for (const auto& opts : c.evictor.options) {
    EXPECT_EQ(opts.plugin, "RemovePodsViolatingTopologySpreadConstraint");
  }
  return c.evictor.evicted;
}

inline void check(const std::vector<SpreadCase>& cases) {
  for (const auto& tc : cases) {
    const auto evicted = run(tc);
    EXPECT_EQ(evicted.size(), tc.expected) << tc.name;
    const std::set<std::string> got(evicted.begin(), evicted.end());
    for (const auto& want : tc.expected_pods) {
      EXPECT_TRUE(got.contains(want)) << tc.name << ": " << want << " not evicted";
    }
  }
}

inline api::core::StringMap fooBar() {
  return {{"foo", "bar"}};
}

}  // namespace koord::manager::descheduler::plugins::spreading::topology_testing
