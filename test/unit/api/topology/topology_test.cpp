#include <gtest/gtest.h>

#include <string>

#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::topology {
namespace {

constexpr const char* kTopology = R"({
  "apiVersion": "topology.node.k8s.io/v1alpha1",
  "kind": "NodeResourceTopology",
  "metadata": {
    "name": "node-1",
    "labels": {"app.kubernetes.io/managed-by": "Koordinator"},
    "annotations": {
      "node.koordinator.sh/cpu-topology": "{\"detail\":[{\"id\":0,\"core\":0,\"socket\":0,\"node\":0},{\"id\":1,\"core\":0,\"socket\":0,\"node\":0}]}",
      "kubelet.koordinator.sh/cpu-manager-policy": "{\"policy\":\"static\",\"options\":{\"full-pcpus-only\":\"true\"},\"reservedCPUs\":\"0-1\"}"
    }
  },
  "topologyPolicies": ["None"],
  "zones": [
    {"name": "node-0", "type": "Node",
     "costs": [{"name": "node-0", "value": 10}, {"name": "node-1", "value": 20}],
     "attributes": [{"name": "reserved", "value": "0-1"}],
     "resources": [{"name": "cpu", "capacity": "52", "allocatable": "48", "available": "40"},
                   {"name": "memory", "capacity": "263868896Ki", "allocatable": 270000000000,
                    "available": "250Gi"}]},
    {"name": "node-1", "type": "Node", "parent": "socket-0", "resources": []}
  ]
})";

TEST(NodeResourceTopologyTest, RoundTrip) {
  auto nrt = decode<NodeResourceTopology>(kTopology);
  ASSERT_TRUE(nrt.ok()) << nrt.status();
  EXPECT_EQ(nrt->topologyPolicies, std::vector<std::string>{"None"});
  ASSERT_EQ(nrt->zones.size(), 2U);
  const Zone& zone = nrt->zones[0];
  EXPECT_EQ(zone.type, kZoneTypeNode);
  EXPECT_EQ(zone.costs[1].value, 20);
  EXPECT_EQ(zone.attributes[0].value, "0-1");
  EXPECT_EQ(zone.resources[0].allocatable.value(), 48);
  EXPECT_EQ(zone.resources[1].available.toString(), "250Gi");
  EXPECT_EQ(nrt->zones[1].parent, "socket-0");

  Json out = toJson(*nrt);
  Json in = Json::parse(kTopology);
  EXPECT_EQ(out["zones"][0]["costs"], in["zones"][0]["costs"]);
  EXPECT_EQ(out["zones"][0]["resources"][0], in["zones"][0]["resources"][0]);
  EXPECT_EQ(out["zones"][0]["resources"][1]["allocatable"], "270G");
  EXPECT_EQ(out["topologyPolicies"], in["topologyPolicies"]);
  NodeResourceTopology again;
  ASSERT_TRUE(fromJson(out, again, "").isOk());
  EXPECT_EQ(again, *nrt);

  // The annotations koordlet writes parse with their payload models.
  const auto& annotations = nrt->metadata.annotations;
  auto cpus = extension::parseCPUTopology(annotations.at(std::string(kAnnotationNodeCPUTopology)));
  ASSERT_TRUE(cpus.ok()) << cpus.status();
  EXPECT_EQ(cpus->detail.size(), 2U);
  auto kubelet = extension::parseKubeletCPUManagerPolicy(
      annotations.at(std::string(kAnnotationKubeletCPUManagerPolicy)));
  ASSERT_TRUE(kubelet.ok()) << kubelet.status();
  EXPECT_EQ(extension::nodeCPUBindPolicyOf({}, *kubelet),
            extension::NodeCPUBindPolicy::kFullPCPUsOnly);
}

TEST(NodeResourceTopologyTest, EmptyListsAreWritten) {
  NodeResourceTopology nrt;
  Json out = toJson(nrt);
  EXPECT_EQ(out["topologyPolicies"], Json::array());
  EXPECT_EQ(out["zones"], Json::array());
}

TEST(NodeResourceTopologyTest, Errors) {
  auto nrt = decode<NodeResourceTopology>(
      R"({"zones":[{"name":"node-0","resources":[{"name":"cpu","capacity":"x"}]}]})");
  ASSERT_FALSE(nrt.ok());
  EXPECT_EQ(nrt.status().message().rfind("zones[0].resources[0].capacity: ", 0), 0U)
      << nrt.status();
  auto bad_cost = decode<NodeResourceTopology>(R"({"zones":[{"costs":[{"value":"10"}]}]})");
  ASSERT_FALSE(bad_cost.ok());
  EXPECT_EQ(bad_cost.status().message(), "zones[0].costs[0].value: expected integer, got string");
}

}  // namespace
}  // namespace koord::api::topology
