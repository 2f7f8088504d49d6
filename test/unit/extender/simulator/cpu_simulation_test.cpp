// The simulator with NodeNUMAResource (issue #36): each placed pod's cpuset and NUMA resources,
// and per node with a NodeResourceTopology how its CPUs are divided (reserved, exclusive, shared,
// free), in the table and in the structured output.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "extender/simulator/cluster_loader.hpp"
#include "extender/simulator/report.hpp"
#include "extender/simulator/simulator.hpp"

namespace koord::extender::simulator {
namespace {

// n1: 8 CPUs, 4 cores of 2 threads, NUMA node 0 = CPUs 0-3, node 1 = CPUs 4-7; the kubelet keeps
// CPUs 0-1. n2: no NodeResourceTopology. n3: an NRT without a cpu-topology.
const char* kCPUCluster = R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n3}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: topology.node.k8s.io/v1alpha1
kind: NodeResourceTopology
metadata:
  name: n1
  annotations:
    kubelet.koordinator.sh/cpu-manager-policy: '{"policy":"static","reservedCPUs":"0-1"}'
    node.koordinator.sh/cpu-topology: '{"detail":[{"id":0,"core":0,"socket":0,"node":0},{"id":1,"core":0,"socket":0,"node":0},{"id":2,"core":1,"socket":0,"node":0},{"id":3,"core":1,"socket":0,"node":0},{"id":4,"core":2,"socket":0,"node":1},{"id":5,"core":2,"socket":0,"node":1},{"id":6,"core":3,"socket":0,"node":1},{"id":7,"core":3,"socket":0,"node":1}]}'
topologyPolicies: [None]
zones:
- name: node-0
  type: Node
  resources:
  - {name: cpu, capacity: "4", allocatable: "4", available: "4"}
  - {name: memory, capacity: 8Gi, allocatable: 8Gi, available: 8Gi}
- name: node-1
  type: Node
  resources:
  - {name: cpu, capacity: "4", allocatable: "4", available: "4"}
  - {name: memory, capacity: 8Gi, allocatable: 8Gi, available: 8Gi}
---
apiVersion: topology.node.k8s.io/v1alpha1
kind: NodeResourceTopology
metadata: {name: n3}
topologyPolicies: [None]
---
# Bound on n1, holding CPUs 2-3 exclusively at core level.
apiVersion: v1
kind: Pod
metadata:
  name: held
  labels: {koordinator.sh/qosClass: LSR}
  annotations:
    scheduling.koordinator.sh/resource-spec: '{"preferredCPUBindPolicy":"FullPCPUs","preferredCPUExclusivePolicy":"PCPULevel"}'
    scheduling.koordinator.sh/resource-status: '{"cpuset":"2-3"}'
spec:
  nodeName: n1
  priority: 9500
  containers: [{name: c, resources: {requests: {cpu: "2"}, limits: {cpu: "2"}}}]
)";

// An LSR pod of the koord-prod band asking for `cpu` whole CPUs; only n1 can give it a cpuset.
std::string lsrPodYaml(const std::string& name, const std::string& cpu, int priority,
                       const std::string& annotations = "") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\n  labels: {koordinator.sh/qosClass: LSR}\n" +
         (annotations.empty() ? "" : "  annotations: " + annotations + "\n") +
         "spec:\n  priority: " + std::to_string(priority) +
         "\n  containers: [{name: c, resources: {requests: {cpu: \"" + cpu +
         "\", memory: 1Gi}, limits: {cpu: \"" + cpu + "\", memory: 1Gi}}}]\n";
}

SimulationResult simulateCPUs(const std::string& yaml, const SimulationOptions& options = {}) {
  ClusterLoader loader;
  EXPECT_TRUE(loader.addText(yaml, "test.yaml").isOk());
  auto result = simulate(loader.input(), options);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : SimulationResult{};
}

const NodeUsage& cpuNodeOf(const SimulationResult& result, const std::string& name) {
  for (const auto& n : result.nodes) {
    if (n.name == name)
      return n;
  }
  ADD_FAILURE() << "no node " << name;
  static const NodeUsage none;
  return none;
}

TEST(CPUSimulationTest, PlacedPodShowsItsCpusetAndNodeSummaryAddsUp) {
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + lsrPodYaml("db", "2", 9400));
  ASSERT_EQ(result.placements.size(), 1u);
  const PodPlacement& db = result.placements[0];
  ASSERT_EQ(db.node, "n1") << db.message;
  // The kubelet keeps 0-1 and `held` has 2-3: the only whole free cores are 4-5 and 6-7.
  auto cpus = cpuset::CpuSet::parse(db.cpuset);
  ASSERT_TRUE(cpus.ok()) << db.cpuset;
  EXPECT_EQ(cpus->size(), 2u);
  for (int cpu : cpus->cpus())
    EXPECT_GE(cpu, 4) << db.cpuset;
  EXPECT_TRUE(db.numa_resources.empty());

  const NodeUsage& n1 = cpuNodeOf(result, "n1");
  ASSERT_TRUE(n1.cpus.has_value());
  const auto& s = *n1.cpus;
  EXPECT_EQ(s.invalid, "");
  EXPECT_EQ(s.total, 8);
  EXPECT_EQ(s.reserved.toString(), "0-1");
  EXPECT_EQ(s.exclusive.size(), 4u);
  EXPECT_EQ(s.shared.size(), 2u);
  EXPECT_EQ(s.free, 2);
  EXPECT_EQ(s.free_whole_cores, 1);
  ASSERT_EQ(s.holders.size(), 2u);
  EXPECT_EQ(s.holders[0].pod, "default/db");
  EXPECT_EQ(s.holders[0].cpus.toString(), db.cpuset);
  EXPECT_EQ(s.holders[1].pod, "default/held");
  EXPECT_EQ(s.holders[1].cpus.toString(), "2-3");
  EXPECT_EQ(s.holders[1].exclusive, api::extension::CPUExclusivePolicy::kPCPULevel);
}

TEST(CPUSimulationTest, NodesWithoutAUsableTopologySayWhyOrNothing) {
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + lsrPodYaml("db", "2", 9400));
  EXPECT_FALSE(cpuNodeOf(result, "n2").cpus.has_value());  // no NRT: no summary
  const NodeUsage& n3 = cpuNodeOf(result, "n3");
  ASSERT_TRUE(n3.cpus.has_value());
  EXPECT_EQ(n3.cpus->invalid,
            "node(s) invalid CPU Topology: the NodeResourceTopology has no "
            "node.koordinator.sh/cpu-topology");
  EXPECT_EQ(n3.cpus->total, 0);
}

TEST(CPUSimulationTest, NoSummaryWhenNodeNUMAResourceIsNotEnabled) {
  SimulationOptions options;
  options.plugins = {{"NodeResourcesFit", nullptr, 1}};
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + lsrPodYaml("db", "2", 9400), options);
  ASSERT_EQ(result.placements.size(), 1u);
  EXPECT_EQ(result.placements[0].cpuset, "");
  for (const auto& n : result.nodes)
    EXPECT_FALSE(n.cpus.has_value()) << n.name;
}

TEST(CPUSimulationTest, ASecondPodNoLongerFitsOnceTheFreeCoresAreTaken) {
  const SimulationResult result = simulateCPUs(
      std::string(kCPUCluster) + lsrPodYaml("first", "4", 9400) + lsrPodYaml("second", "2", 9300));
  ASSERT_EQ(result.placements.size(), 2u);
  EXPECT_EQ(result.placements[0].node, "n1");
  EXPECT_EQ(result.placements[0].cpuset, "4-7");
  EXPECT_EQ(result.placements[1].node, "");
  const auto& s = *cpuNodeOf(result, "n1").cpus;
  EXPECT_EQ(s.exclusive.toString(), "2-7");
  EXPECT_EQ(s.shared.toString(), "");
  EXPECT_EQ(s.free, 0);
  EXPECT_EQ(s.free_whole_cores, 0);
}

const char* kSingleNUMANode =
    R"({scheduling.koordinator.sh/numa-topology-spec: '{"numaTopologyPolicy":"SingleNUMANode"}'})";

TEST(CPUSimulationTest, SingleNUMANodePodShowsItsNUMAResources) {
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + lsrPodYaml("numa", "2", 9400, kSingleNUMANode));
  ASSERT_EQ(result.placements.size(), 1u);
  const PodPlacement& p = result.placements[0];
  ASSERT_EQ(p.node, "n1") << p.message;
  ASSERT_EQ(p.numa_resources.size(), 1u);
  EXPECT_EQ(p.numa_resources[0].node, 1);  // NUMA node 0 has no whole core left
  EXPECT_EQ(p.numa_resources[0].resources.at("cpu").toString(), "2");
  EXPECT_EQ(p.numa_resources[0].resources.at("memory").toString(), "1Gi");

  const api::Json json = reportJson(result);
  const api::Json& pod = json["pods"][0];
  EXPECT_EQ(pod["numaNodeResources"],
            api::Json::parse(R"([{"node":1,"resources":{"cpu":"2","memory":"1Gi"}}])"));
  std::ostringstream table;
  writeTable(result, table);
  EXPECT_NE(table.str().find("node 1: cpu 2, memory 1Gi"), std::string::npos) << table.str();
}

TEST(CPUSimulationTest, StructuredOutputCarriesCpusetAndNodeCpus) {
  const SimulationResult result = simulateCPUs(
      std::string(kCPUCluster) + lsrPodYaml("first", "4", 9400) +
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: plain}\nspec:\n  priority: 9000\n"
      "  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\n");
  const api::Json json = reportJson(result);
  const api::Json& first = json["pods"][0];
  EXPECT_EQ(first["pod"], "default/first");
  EXPECT_EQ(first["cpuset"], "4-7");
  EXPECT_FALSE(first.contains("numaNodeResources"));
  const api::Json& plain = json["pods"][1];
  EXPECT_EQ(plain["pod"], "default/plain");
  EXPECT_TRUE(plain["scheduled"].get<bool>());
  EXPECT_FALSE(plain.contains("cpuset"));  // an LS pod gets no cpuset

  api::Json n1;
  api::Json n2;
  api::Json n3;
  for (const auto& node : json["nodes"]) {
    if (node["name"] == "n1")
      n1 = node;
    if (node["name"] == "n2")
      n2 = node;
    if (node["name"] == "n3")
      n3 = node;
  }
  EXPECT_EQ(n1["cpus"], api::Json::parse(R"({
    "total": 8,
    "reserved": {"count": 2, "cpuset": "0-1", "kubeletPinnedPods": []},
    "exclusive": {"count": 6, "cpuset": "2-7", "pods": [
      {"pod": "default/first", "cpuset": "4-7", "exclusivePolicy": "None"},
      {"pod": "default/held", "cpuset": "2-3", "exclusivePolicy": "PCPULevel"}]},
    "shared": {"count": 0, "cpuset": ""},
    "free": {"count": 0, "wholeCores": 0}
  })"));
  EXPECT_FALSE(n2.contains("cpus"));
  EXPECT_FALSE(n2.contains("cpuTopologyError"));
  EXPECT_FALSE(n3.contains("cpus"));
  EXPECT_EQ(n3["cpuTopologyError"],
            "node(s) invalid CPU Topology: the NodeResourceTopology has no "
            "node.koordinator.sh/cpu-topology");
}

TEST(CPUSimulationTest, TableShowsCpusetsAndTheNodeSummary) {
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + lsrPodYaml("first", "4", 9400));
  std::ostringstream out;
  writeTable(result, out);
  const std::string table = out.str();
  EXPECT_NE(table.find("CPUSETS (placed pods, from resource-status)\n"
                       "POD             NODE   CPUSET   NUMA NODES\n"
                       "default/first   n1     4-7      -\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("NODE   CPUS   RESERVED   EXCLUSIVE   SHARED   FREE FOR CPUSETS\n"
                       "n1     8      2: 0-1     6: 2-7      0        0 (0 whole cores)\n"
                       "n3: node(s) invalid CPU Topology: the NodeResourceTopology has no "
                       "node.koordinator.sh/cpu-topology\n"
                       "held by:\n"
                       "  n1  default/first  4-7\n"
                       "  n1  default/held  2-3 (PCPULevel)\n"),
            std::string::npos)
      << table;
}

// A pending Reservation for LSR pods of the koord-prod band with 2 CPUs, given to pods labelled
// app: web; placed before the pending pods (no creationTimestamps).
const char* kLSRReservation = R"(---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: web-cpus}
spec:
  template:
    metadata: {labels: {koordinator.sh/qosClass: LSR}}
    spec:
      priority: 9400
      containers: [{name: c, resources: {requests: {cpu: "2", memory: 1Gi}, limits: {cpu: "2", memory: 1Gi}}}]
  owners: [{labelSelector: {matchLabels: {app: web}}}]
)";

// An LSR koord-prod pod asking 2 CPUs, labelled app: web (an owner of web-cpus).
std::string webPodYaml(const std::string& name, int priority) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\n  labels: {koordinator.sh/qosClass: LSR, app: web}\nspec:\n  priority: " +
         std::to_string(priority) +
         "\n  containers: [{name: c, resources: {requests: {cpu: \"2\", memory: 1Gi}, limits: "
         "{cpu: \"2\", memory: 1Gi}}}]\n";
}

// n1 has two whole cores free (4-5, 6-7). The Reservation takes one; the non-owner, placed first,
// must take the other, and the owner then gets exactly the Reservation's CPUs.
TEST(CPUSimulationTest, PlacedReservationHoldsItsCpusetForItsOwner) {
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + kLSRReservation + lsrPodYaml("other", "2", 9500) +
                   webPodYaml("web", 9400));
  ASSERT_EQ(result.reservations.size(), 1u);
  const ReservationPlacement& r = result.reservations[0];
  ASSERT_TRUE(r.placed) << r.message;
  EXPECT_EQ(r.node, "n1");
  auto reserved = cpuset::CpuSet::parse(r.cpuset);
  ASSERT_TRUE(reserved.ok()) << r.cpuset;
  ASSERT_EQ(reserved->size(), 2u) << r.cpuset;
  EXPECT_TRUE(r.cpuset == "4-5" || r.cpuset == "6-7") << r.cpuset;

  ASSERT_EQ(result.placements.size(), 2u);
  const PodPlacement& other = result.placements[0];
  ASSERT_EQ(other.key, "default/other");
  ASSERT_EQ(other.node, "n1") << other.message;
  EXPECT_EQ(other.cpuset, r.cpuset == "4-5" ? "6-7" : "4-5");
  const PodPlacement& web = result.placements[1];
  ASSERT_EQ(web.key, "default/web");
  ASSERT_EQ(web.node, "n1") << web.message;
  EXPECT_EQ(web.cpuset, r.cpuset);
  EXPECT_EQ(r.owners, std::vector<std::string>{"default/web"});

  const api::Json json = reportJson(result);
  EXPECT_EQ(json["reservations"][0]["cpuset"], r.cpuset);
  EXPECT_FALSE(json["reservations"][0].contains("numaNodeResources"));
  std::ostringstream out;
  writeTable(result, out);
  EXPECT_NE(out.str().find("CPUSETS (placed pods and reservations, from resource-status)\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("Reservation web-cpus   n1     " + r.cpuset + "      -\n"),
            std::string::npos)
      << out.str();
}

// With only one whole core free, the Reservation holds it: a non-owner asking 2 CPUs fits nowhere,
// the owner still gets the Reservation's CPUs.
TEST(CPUSimulationTest, ReservedCpusAreNotGivenToNonOwners) {
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + lsrPodYaml("first", "2", 9600) + kLSRReservation +
                   lsrPodYaml("other", "2", 9500) + webPodYaml("web", 9400));
  ASSERT_TRUE(result.reservations.at(0).placed) << result.reservations.at(0).message;
  const std::string& reserved = result.reservations[0].cpuset;
  ASSERT_EQ(result.placements.size(), 3u);
  const PodPlacement& first = result.placements[0];
  ASSERT_EQ(first.node, "n1") << first.message;
  EXPECT_NE(first.cpuset, reserved);
  EXPECT_EQ(result.placements[1].key, "default/other");
  EXPECT_EQ(result.placements[1].node, "");
  EXPECT_EQ(result.placements[2].key, "default/web");
  EXPECT_EQ(result.placements[2].cpuset, reserved);
}

// A Reservation already Available on n1 whose resource-status cannot be read still holds its
// capacity, but no CPUs; the CPUS section says so.
TEST(CPUSimulationTest, UnreadableReservationResourceStatusIsNamed) {
  const std::string reservation = R"(
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata:
  name: broken
  annotations: {scheduling.koordinator.sh/resource-status: '{"cpuset":"4-5",'}
spec:
  owners: [{labelSelector: {matchLabels: {app: web}}}]
  template:
    spec:
      containers: [{name: c, resources: {requests: {cpu: "2"}}}]
status: {phase: Available, nodeName: n1, allocatable: {cpu: "2"}}
)";
  const SimulationResult result =
      simulateCPUs(std::string(kCPUCluster) + reservation + lsrPodYaml("a", "2", 9500));
  ASSERT_EQ(result.placements.size(), 1u);
  EXPECT_EQ(result.placements[0].node, "n1") << result.placements[0].message;
  const auto& cpus = cpuNodeOf(result, "n1").cpus;
  ASSERT_TRUE(cpus.has_value());
  ASSERT_EQ(cpus->unreadable.size(), 1u);
  EXPECT_EQ(cpus->unreadable[0].rfind("Reservation broken: ", 0), 0u) << cpus->unreadable[0];
  std::ostringstream out;
  writeTable(result, out);
  EXPECT_NE(out.str().find("n1  Reservation broken: "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("(unreadable resource-status: holds nothing)"), std::string::npos);
  EXPECT_TRUE(reportJson(result)["nodes"][0]["cpus"].contains("unreadableResourceStatus"));
}

TEST(CPUSimulationTest, NoCpuSectionsWithoutNodeResourceTopologies) {
  const std::string yaml = R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
)" + lsrPodYaml("db", "2", 9400);
  const SimulationResult result = simulateCPUs(yaml);
  ASSERT_EQ(result.placements.size(), 1u);
  // With no topology anywhere, the LSR pod fits nowhere and says why.
  EXPECT_EQ(result.placements[0].node, "");
  EXPECT_NE(result.placements[0].message.find("invalid CPU Topology"), std::string::npos)
      << result.placements[0].message;
  std::ostringstream out;
  writeTable(result, out);
  EXPECT_EQ(out.str().find("CPUSETS"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("CPUS ("), std::string::npos) << out.str();
}

}  // namespace
}  // namespace koord::extender::simulator
