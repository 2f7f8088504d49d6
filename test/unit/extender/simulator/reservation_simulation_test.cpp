// The simulator with Reservations in its input (deploy/examples/simulator/reservation-cluster.yaml
// and inline clusters): placed before the pods created after them, held against non-owners, given
// to owners, and reported with the pods that used them.
#include <gtest/gtest.h>

#include <string>

#include "extender/simulator/cluster_loader.hpp"
#include "extender/simulator/report.hpp"
#include "extender/simulator/simulator.hpp"

namespace koord::extender::simulator {
namespace {

const std::string kExample =
    std::string(KOORD_SOURCE_DIR) + "/deploy/examples/simulator/reservation-cluster.yaml";

SimulationResult run(ClusterLoader& loader) {
  auto result = simulate(loader.input(), {});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : SimulationResult{};
}

const PodPlacement& placementOf(const SimulationResult& result, const std::string& key) {
  for (const auto& p : result.placements) {
    if (p.key == key)
      return p;
  }
  ADD_FAILURE() << "no placement for " << key;
  static const PodPlacement none;
  return none;
}

TEST(ReservationSimulationTest, ExampleClusterPlacesReservationsAndTheirOwners) {
  ClusterLoader loader;
  ASSERT_TRUE(loader.addFile(kExample).isOk());
  ASSERT_EQ(loader.input().reservations.size(), 2u);
  const SimulationResult result = run(loader);
  ASSERT_EQ(result.reservations.size(), 2u);
  const auto& web = result.reservations[0];
  EXPECT_EQ(web.name, "web-reservation");
  EXPECT_EQ(web.phase, "Available");
  EXPECT_TRUE(web.placed);
  EXPECT_EQ(web.node, "node-1") << "node-2 has only 2 CPUs left";
  EXPECT_EQ(web.owners, std::vector<std::string>{"default/web-0"});
  EXPECT_EQ(result.reservations[1].owners, std::vector<std::string>{"default/game-0"});

  const auto& web0 = placementOf(result, "default/web-0");
  EXPECT_EQ(web0.node, "node-1");
  EXPECT_EQ(web0.annotations.at("scheduling.koordinator.sh/reservation-allocated"),
            R"({"name":"web-reservation","uid":"simulated-web-reservation"})");
  EXPECT_EQ(placementOf(result, "default/batch-0").node, "node-1");
  const auto& batch1 = placementOf(result, "default/batch-1");
  EXPECT_TRUE(batch1.node.empty());
  EXPECT_EQ(batch1.message,
            "0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient cpu (held by "
            "reservations).");
  EXPECT_EQ(placementOf(result, "default/game-0").node, "node-1");

  std::ostringstream table;
  writeTable(result, table);
  EXPECT_NE(table.str().find("RESERVATIONS\n"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("web-reservation    Available (placed)   node-1   default/web-0"),
            std::string::npos)
      << table.str();
  const api::Json json = reportJson(result);
  EXPECT_EQ(json["summary"]["reservations"], 2);
  EXPECT_EQ(json["reservations"][0]["owners"][0], "default/web-0");
}

TEST(ReservationSimulationTest, ReservationThatFitsNowhereStaysPendingWithTheReason) {
  ClusterLoader loader;
  ASSERT_TRUE(loader
                  .addText(R"(apiVersion: v1
kind: Node
metadata: {name: small}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: too-big}
spec:
  template: {spec: {containers: [{name: c, resources: {requests: {cpu: "4"}}}]}}
  owners: [{labelSelector: {matchLabels: {app: x}}}]
)",
                           "inline.yaml")
                  .isOk());
  const SimulationResult result = run(loader);
  ASSERT_EQ(result.reservations.size(), 1u);
  EXPECT_EQ(result.reservations[0].phase, "Pending");
  EXPECT_EQ(result.reservations[0].source, "inline.yaml:6");
  EXPECT_EQ(result.reservations[0].message, "0/1 nodes are available: 1 Insufficient cpu.");
}

TEST(ReservationSimulationTest, AvailableReservationInTheInputHoldsFromTheStart) {
  ClusterLoader loader;
  ASSERT_TRUE(loader
                  .addText(R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: held, uid: r-uid}
spec:
  template: {spec: {containers: [{name: c, resources: {requests: {cpu: "3"}}}]}}
  owners: [{labelSelector: {matchLabels: {app: web}}}]
status: {phase: Available, nodeName: n1, allocatable: {cpu: "3"}}
---
apiVersion: v1
kind: Pod
metadata: {name: other, namespace: default}
spec: {containers: [{name: c, resources: {requests: {cpu: "2"}}}]}
)",
                           "inline.yaml")
                  .isOk());
  const SimulationResult result = run(loader);
  EXPECT_FALSE(result.reservations.at(0).placed);
  EXPECT_EQ(result.placements.at(0).message,
            "0/1 nodes are available: 1 Insufficient cpu (held by reservations).");
}

// Two empty 8-CPU nodes, a Reservation pinned to node-a holding 4 CPUs, and a short-form one with
// no node. Scored as a Koordinator scheduler would (it sees reserve pods), the second goes to the
// empty node-b. Placed by filters alone, it went beside the first on node-a, filling it, and a pod
// that may only run on node-a was refused.
TEST(ReservationSimulationTest, ShortFormReservationGoesToTheEmptierNodeAsKubeSchedulerScores) {
  ClusterLoader loader;
  ASSERT_TRUE(loader
                  .addText(R"(apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {pool: a}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: pinned, creationTimestamp: "2026-12-01T10:00:00Z"}
spec:
  template:
    spec:
      nodeName: node-a
      containers: [{name: c, resources: {requests: {cpu: "4", memory: 4Gi}}}]
  owners: [{labelSelector: {matchLabels: {app: web}}}]
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: short-form, creationTimestamp: "2026-12-01T10:00:01Z"}
spec:
  resources: {requests: {cpu: "4", memory: 4Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: on-a, namespace: default, creationTimestamp: "2026-12-01T10:00:02Z"}
spec:
  nodeSelector: {pool: a}
  containers: [{name: c, resources: {requests: {cpu: "2", memory: 2Gi}}}]
)",
                           "inline.yaml")
                  .isOk());
  const SimulationResult result = run(loader);
  ASSERT_EQ(result.reservations.size(), 2u);
  EXPECT_EQ(result.reservations[0].node, "node-a");
  EXPECT_EQ(result.reservations[1].node, "node-b") << "node-a already holds 4 of its 8 CPUs";
  EXPECT_EQ(placementOf(result, "default/on-a").node, "node-a")
      << placementOf(result, "default/on-a").message;
}

// An owner's preference for the node holding its reservation is koord-extender's score (10 on the
// wire), worth 10 x weight x 10 of kube-scheduler's points; a PreferNoSchedule taint there costs
// TaintToleration's 100 x 3. At the shipped weight 10 the reservation wins; at weight 1 the taint.
TEST(ReservationSimulationTest, ExtenderWeightScalesTheReservationPreferenceAgainstKubeScores) {
  const std::string cluster = R"(apiVersion: v1
kind: Node
metadata: {name: node-r}
spec: {taints: [{key: spot, value: "true", effect: PreferNoSchedule}]}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-e}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: held, uid: r-uid}
spec:
  template: {spec: {containers: [{name: c, resources: {requests: {cpu: "2", memory: 2Gi}}}]}}
  owners: [{labelSelector: {matchLabels: {app: web}}}]
status: {phase: Available, nodeName: node-r, allocatable: {cpu: "2", memory: 2Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec: {containers: [{name: c, resources: {requests: {cpu: "2", memory: 2Gi}}}]}
)";
  for (const auto& [weight, want] :
       std::vector<std::pair<int64_t, std::string>>{{10, "node-r"}, {1, "node-e"}}) {
    SCOPED_TRACE(weight);
    ClusterLoader loader;
    ASSERT_TRUE(loader.addText(cluster, "inline.yaml").isOk());
    SimulationOptions options;
    options.extender_weight = weight;
    auto result = simulate(loader.input(), options);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(placementOf(*result, "default/web").node, want);
  }
}

TEST(ReservationSimulationTest, InvalidReservationIsALoadErrorWithItsLine) {
  ClusterLoader loader;
  const Status status = loader.addText(R"(apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: no-owners}
spec:
  template: {spec: {containers: [{name: c}]}}
)",
                                       "bad.yaml");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("bad.yaml: line 1"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("owners"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace koord::extender::simulator
