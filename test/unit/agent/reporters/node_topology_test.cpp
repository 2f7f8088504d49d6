#include "agent/reporters/node_topology.hpp"

#include <gtest/gtest.h>

#include <tuple>

#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::reporters {
namespace {

// Two sockets, one NUMA node each, 2 cores x 2 threads per socket: CPUs 0-3 on node 0, 4-7 on 1.
system::CpuTopology twoSockets() {
  system::CpuTopology topology;
  for (int32_t id = 0; id < 8; ++id) {
    topology.cpus.push_back({id, id / 2, id / 4, id / 4});
  }
  topology.sockets = 2;
  topology.numa_nodes = 2;
  topology.cores = 4;
  topology.threads_per_core = 2;
  return topology;
}

std::shared_ptr<const api::core::Pod> pod(const std::string& name, const std::string& qos,
                                          const std::string& cpuset,
                                          const std::string& phase = "Running") {
  auto out = std::make_shared<api::core::Pod>();
  out->metadata.namespace_ = "default";
  out->metadata.name = name;
  out->metadata.uid = "uid-" + name;
  out->metadata.labels[std::string(api::kLabelPodQoS)] = qos;
  if (!cpuset.empty()) {
    out->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
        R"({"cpuset":")" + cpuset + R"("})";
  }
  out->status.phase = phase;
  return out;
}

NodeTopologyInputs inputs() {
  NodeTopologyInputs in;
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-a";
  node->metadata.uid = "node-uid";
  in.node = node;
  in.cpus = twoSockets();
  in.memory = {{0, 16LL << 30, 8LL << 30}, {1, 16LL << 30, 8LL << 30}};
  return in;
}

std::string annotationOf(const api::topology::NodeResourceTopology& nrt, std::string_view key) {
  auto it = nrt.metadata.annotations.find(std::string(key));
  return it == nrt.metadata.annotations.end() ? "<absent>" : it->second;
}

TEST(NodeTopology, ZonePerNumaNodeWithCpuAndMemory) {
  auto nrt = buildNodeResourceTopology(inputs());
  EXPECT_EQ(nrt.metadata.name, "node-a");
  EXPECT_EQ(nrt.metadata.labels.at("app.kubernetes.io/managed-by"), "Koordinator");
  ASSERT_EQ(nrt.metadata.ownerReferences.size(), 1U);
  EXPECT_EQ(nrt.metadata.ownerReferences[0].kind, "Node");
  EXPECT_EQ(nrt.metadata.ownerReferences[0].uid, "node-uid");
  EXPECT_EQ(nrt.topologyPolicies, std::vector<std::string>{"None"});
  ASSERT_EQ(nrt.zones.size(), 2U);
  EXPECT_EQ(nrt.zones[1].name, "node-1");
  EXPECT_EQ(nrt.zones[1].type, "Node");
  ASSERT_EQ(nrt.zones[1].resources.size(), 2U);
  EXPECT_EQ(nrt.zones[1].resources[0].name, "cpu");
  EXPECT_EQ(nrt.zones[1].resources[0].capacity.toString(), "4");
  EXPECT_EQ(nrt.zones[1].resources[1].name, "memory");
  EXPECT_EQ(nrt.zones[1].resources[1].allocatable.toString(), "16Gi");
}

TEST(NodeTopology, CpuTopologyAnnotationListsEveryCpu) {
  auto nrt = buildNodeResourceTopology(inputs());
  auto parsed =
      api::extension::parseCPUTopology(annotationOf(nrt, api::kAnnotationNodeCPUTopology));
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->detail.size(), 8U);
  EXPECT_EQ(parsed->detail[5].core, 2);
  EXPECT_EQ(parsed->detail[5].socket, 1);
  EXPECT_EQ(parsed->detail[5].node, 1);
}

TEST(NodeTopology, SharedPoolsLeaveOutExclusiveCpus) {
  NodeTopologyInputs in = inputs();
  in.pods = {pod("lse", "LSE", "0-1"), pod("lsr", "LSR", "4-5"), pod("ls", "LS", ""),
             pod("done", "LSR", "2-3", "Succeeded")};
  auto node = std::make_shared<api::core::Node>(*in.node);
  node->metadata.annotations[std::string(api::kAnnotationNodeReservation)] =
      R"({"reservedCPUs":"7"})";
  in.node = node;
  auto nrt = buildNodeResourceTopology(in);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"2-3","node":0,"socket":0},{"cpuset":"6","node":1,"socket":1}])");
  // BE pods share the LSR pod's CPUs, not the LSE pod's nor the reserved one.
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeBECPUSharedPools),
            R"([{"cpuset":"2-3","node":0,"socket":0},{"cpuset":"4-6","node":1,"socket":1}])");
  auto allocs = api::extension::parsePodCPUAllocs(annotationOf(nrt, api::kAnnotationNodeCPUAllocs));
  ASSERT_TRUE(allocs.ok());
  ASSERT_EQ(allocs->size(), 2U);
  EXPECT_EQ((*allocs)[0].name, "lse");
  EXPECT_EQ((*allocs)[0].cpuset, "0-1");
  EXPECT_FALSE((*allocs)[0].managedByKubelet);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeReservation), R"({"reservedCPUs":"7"})");
}

// issue 36: an LS pod that a FullPCPUsOnly node gave a cpuset holds it like an LSR pod: out of the
// LS shared pool, shared with BE.
TEST(NodeTopology, AnLsPodsCpusetIsLeftOutOfTheSharedPool) {
  NodeTopologyInputs in = inputs();
  in.pods = {pod("bound-ls", "LS", "4-5"), pod("ls", "LS", "")};
  auto nrt = buildNodeResourceTopology(in);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"0-3","node":0,"socket":0},{"cpuset":"6-7","node":1,"socket":1}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeBECPUSharedPools),
            R"([{"cpuset":"0-3","node":0,"socket":0},{"cpuset":"4-7","node":1,"socket":1}])");
  auto allocs = api::extension::parsePodCPUAllocs(annotationOf(nrt, api::kAnnotationNodeCPUAllocs));
  ASSERT_TRUE(allocs.ok());
  ASSERT_EQ(allocs->size(), 1U);
  EXPECT_EQ((*allocs)[0].name, "bound-ls");
}

// System QoS: the CPUs of an exclusive node.koordinator.sh/system-qos-resource are kept for system
// daemons, out of the LS and BE pools; a non-exclusive one leaves the pools alone.
TEST(NodeTopology, AnExclusiveSystemQosCpusetIsKeptOutOfEveryPool) {
  for (const auto& [annotation, shared, be] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {R"({"cpuset":"6-7"})", "0-5", "0-5"},
           {R"({"cpuset":"6-7","cpusetExclusive":true})", "0-5", "0-5"},
           {R"({"cpuset":"6-7","cpusetExclusive":false})", "0-7", "0-7"},
       }) {
    NodeTopologyInputs in = inputs();
    auto node = std::make_shared<api::core::Node>(*in.node);
    node->metadata.annotations[std::string(api::kAnnotationNodeSystemQOSResource)] = annotation;
    in.node = node;
    const NodeCpuAllocation allocation = allocateNodeCpus(in);
    EXPECT_EQ(allocation.pools.shared_pool.toString(), shared) << annotation;
    EXPECT_EQ(allocation.pools.be_pool.toString(), be) << annotation;
  }
}

// The pools the daemon hands to the QoS strategies are the annotation's, computed once: the
// object built from an allocation is the object built from scratch, byte for byte.
TEST(NodeTopology, TheAllocationsPoolsAreTheAnnotationsPools) {
  NodeTopologyInputs in = inputs();
  in.pods = {pod("lse", "LSE", "0-1"), pod("lsr", "LSR", "4-5"), pod("ls", "LS", "")};
  std::vector<ObjectProblem> problems;
  const NodeCpuAllocation allocation = allocateNodeCpus(in, &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(allocation.pools.online.toString(), "0-7");
  EXPECT_EQ(allocation.pools.shared_pool.toString(), "2-3,6-7");
  EXPECT_EQ(allocation.pools.be_pool.toString(), "2-7");
  ASSERT_EQ(allocation.pools.shared_zones.size(), 2U);
  EXPECT_EQ(allocation.pools.shared_zones[1].socket, 1);
  EXPECT_EQ(allocation.pools.shared_zones[1].cpus.toString(), "6-7");
  ASSERT_EQ(allocation.allocs.size(), 2U);
  EXPECT_EQ(allocation.allocs[1].name, "lsr");

  const auto from_allocation = buildNodeResourceTopology(in, allocation);
  const auto from_scratch = buildNodeResourceTopology(in);
  EXPECT_EQ(from_allocation.metadata.annotations, from_scratch.metadata.annotations);
  EXPECT_EQ(annotationOf(from_allocation, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"2-3","node":0,"socket":0},{"cpuset":"6-7","node":1,"socket":1}])");
}

TEST(NodeTopology, KubeletPinnedPodsAreReportedAndLeftOutOfTheSharedPool) {
  NodeTopologyInputs in = inputs();
  in.pods = {pod("guaranteed", "", "")};
  KubeletCpuState state;
  state.policy_name = "static";
  state.entries["uid-guaranteed"]["app"] = cpuset::CpuSet::range(2, 3);
  state.entries["uid-gone"]["app"] = cpuset::CpuSet::range(6, 6);
  in.kubelet_state = state;
  in.kubelet_config.cpu_manager_policy_options["full-pcpus-only"] = "true";
  in.kubelet_config.reserved_system_cpus = "0";
  auto nrt = buildNodeResourceTopology(in);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUAllocs),
            R"([{"cpuset":"2-3","managedByKubelet":true,"name":"guaranteed",)"
            R"("namespace":"default","uid":"uid-guaranteed"}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"0-1","node":0,"socket":0},{"cpuset":"4-5,7","node":1,"socket":1}])");
  auto policy = api::extension::parseKubeletCPUManagerPolicy(
      annotationOf(nrt, api::kAnnotationKubeletCPUManagerPolicy));
  ASSERT_TRUE(policy.ok());
  EXPECT_EQ(policy->policy, "static");
  EXPECT_EQ(policy->options.at("full-pcpus-only"), "true");
  EXPECT_EQ(policy->reservedCPUs, "0");
}

TEST(NodeTopology, TopologyPolicyFollowsTheKubelet) {
  NodeTopologyInputs in = inputs();
  in.kubelet_config.topology_manager_policy = "restricted";
  in.kubelet_config.topology_manager_scope = "pod";
  EXPECT_EQ(buildNodeResourceTopology(in).topologyPolicies,
            std::vector<std::string>{"RestrictedPodLevel"});
}

// A 2-CPU node: one socket, one NUMA node, one core with two threads.
NodeTopologyInputs twoCpuNode() {
  NodeTopologyInputs in = inputs();
  in.cpus = system::CpuTopology{};
  in.cpus.cpus = {{0, 0, 0, 0}, {1, 0, 0, 0}};
  in.cpus.sockets = 1;
  in.cpus.numa_nodes = 1;
  in.cpus.cores = 1;
  in.cpus.threads_per_core = 2;
  in.memory = {{0, 4LL << 30, 2LL << 30}};
  return in;
}

std::shared_ptr<const api::core::Pod> createdAt(std::shared_ptr<const api::core::Pod> pod,
                                                const std::string& time) {
  auto out = std::make_shared<api::core::Pod>(*pod);
  out->metadata.creationTimestamp = time;
  return out;
}

// issue 31: a resource-status cpuset "0-8191" on a 2-CPU node emptied the node's shared pool.
TEST(NodeTopology, HostileCpusetIsCutToTheNodeAndLeavesThePoolACpu) {
  NodeTopologyInputs in = twoCpuNode();
  in.pods = {pod("hostile", "LSR", "0-8191"), pod("web", "LS", "")};
  std::vector<ObjectProblem> problems;
  auto nrt = buildNodeResourceTopology(in, &problems);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"0","node":0,"socket":0}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeBECPUSharedPools),
            R"([{"cpuset":"0-1","node":0,"socket":0}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUAllocs),
            R"([{"cpuset":"0-1","name":"hostile","namespace":"default","uid":"uid-hostile"}])");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].object.kind, "Pod");
  EXPECT_EQ(problems[0].object.apiVersion, "v1");
  EXPECT_EQ(problems[0].object.namespace_, "default");
  EXPECT_EQ(problems[0].object.name, "hostile");
  EXPECT_EQ(problems[0].object.uid, "uid-hostile");
  EXPECT_EQ(problems[0].reason, "InvalidCPUSet");
  EXPECT_EQ(problems[0].message,
            "scheduling.koordinator.sh/resource-status cpuset \"0-8191\": CPUs 2-8191 do not "
            "exist on this node (it has 0-1) and are ignored; its cpuset would take the last CPUs "
            "of the shared pool: CPU 0 stays in the pool, which keeps at least 1 CPU; the pod "
            "shares it with LS pods");
}

TEST(NodeTopology, HostileLseCpusetLeavesBothPoolsACpu) {
  NodeTopologyInputs in = twoCpuNode();
  in.pods = {pod("hostile", "LSE", "0-8191")};
  auto nrt = buildNodeResourceTopology(in);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"0","node":0,"socket":0}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeBECPUSharedPools),
            R"([{"cpuset":"0","node":0,"socket":0}])");
}

TEST(NodeTopology, CpusetWithNoCpuOfTheNodeClaimsNothing) {
  NodeTopologyInputs in = twoCpuNode();
  in.pods = {pod("elsewhere", "LSR", "4096-8191")};
  std::vector<ObjectProblem> problems;
  auto nrt = buildNodeResourceTopology(in, &problems);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"0-1","node":0,"socket":0}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUAllocs), "[]");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].message,
            "scheduling.koordinator.sh/resource-status cpuset \"4096-8191\": none of its CPUs "
            "exist on this node (it has 0-1); the pod gets no exclusive CPUs");
}

TEST(NodeTopology, TheNewestClaimLeavesThePoolItsLastCpu) {
  NodeTopologyInputs in = inputs();  // CPUs 0-7
  in.pods = {createdAt(pod("newer", "LSR", "4-7"), "2026-01-02T00:00:00Z"),
             createdAt(pod("older", "LSE", "0-3"), "2026-01-01T00:00:00Z")};
  std::vector<ObjectProblem> problems;
  auto nrt = buildNodeResourceTopology(in, &problems);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"4","node":1,"socket":1}])");
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeBECPUSharedPools),
            R"([{"cpuset":"4-7","node":1,"socket":1}])");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].object.name, "newer");
  EXPECT_EQ(problems[0].message,
            "scheduling.koordinator.sh/resource-status cpuset \"4-7\": its cpuset would take the "
            "last CPUs of the shared pool: CPU 4 stays in the pool, which keeps at least 1 CPU; "
            "the pod shares it with LS pods");
}

TEST(NodeTopology, ReservedCpusBeyondTheNodeAreIgnoredAndLeaveThePoolACpu) {
  NodeTopologyInputs in = twoCpuNode();
  auto node = std::make_shared<api::core::Node>(*in.node);
  node->metadata.annotations[std::string(api::kAnnotationNodeReservation)] =
      R"({"reservedCPUs":"0-8191"})";
  in.node = node;
  std::vector<ObjectProblem> problems;
  auto nrt = buildNodeResourceTopology(in, &problems);
  EXPECT_EQ(annotationOf(nrt, api::kAnnotationNodeCPUSharedPools),
            R"([{"cpuset":"0","node":0,"socket":0}])");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].object.kind, "Node");
  EXPECT_EQ(problems[0].object.name, "node-a");
  EXPECT_EQ(problems[0].message,
            "reserved CPUs 2-8191 do not exist on this node (it has 0-1) and are ignored; the "
            "reserved and kubelet-pinned CPUs would take the last CPUs of the shared pool: CPU 0 "
            "stays in the pool, which keeps at least 1 CPU");
}

}  // namespace
}  // namespace koord::agent::reporters
