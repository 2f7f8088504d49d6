// NodeNUMAResource end to end inside the extender: which pods get a cpuset, which nodes refuse
// them and why, the cpuset and NUMA split bind writes, and that concurrent binds never share a CPU.
#include "extender/plugins/node_numa_resource/node_numa_resource.hpp"

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "koord/cpuset/cpu_set.hpp"
#include "test/unit/extender/plugins/node_numa_resource/numa_test_cluster.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

using framework::Code;

// 2 sockets x 8 cores x 2 threads: NUMA node 0 = CPUs 0-7,16-23, NUMA node 1 = 8-15,24-31.
class NodeNUMAResourceTest : public ::testing::Test {
 protected:
  void SetUp() override { cluster_.addNode("n1"); }
  NUMACluster cluster_;
};

TEST_F(NodeNUMAResourceTest, LSRPodGetsWholeCoresOnTheLeastAllocatedNUMANode) {
  EXPECT_TRUE(cluster_.filter(lsrPod("a", "4"), "n1").isSuccess());
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("a", "4"), "n1"), "0-1,16-17")
      << "FullPCPUs (the default) takes two whole cores, lowest first";
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("b", "4"), "n1"), "8-9,24-25")
      << "LeastAllocated spreads: the second pod goes to the emptier NUMA node";
}

TEST_F(NodeNUMAResourceTest, MostAllocatedNodeLabelPacksANUMANode) {
  cluster_.addNode("n2", {}, {{"node.koordinator.sh/numa-allocate-strategy", "MostAllocated"}});
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("a", "4"), "n2"), "0-1,16-17");
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("b", "4"), "n2"), "2-3,18-19");
}

TEST_F(NodeNUMAResourceTest, SpreadByPCPUsTakesOneThreadPerCoreFirst) {
  const std::string cpus =
      cluster_.bindCPUs(lsrPod("a", "4", R"({"preferredCPUBindPolicy":"SpreadByPCPUs"})"), "n1");
  auto set = cpuset::CpuSet::parse(cpus);
  ASSERT_TRUE(set.ok()) << cpus;
  std::set<int> cores;
  for (int cpu : set->cpus())
    cores.insert(cpu % 16);
  EXPECT_EQ(set->size(), 4U);
  EXPECT_EQ(cores.size(), 4U) << "four different physical cores: " << cpus;
}

TEST_F(NodeNUMAResourceTest, PodsWithoutACPUSetAreLeftAlone) {
  EXPECT_TRUE(cluster_.filter(lsPod("ls", "2"), "n1").isSkip())
      << "no node has a policy of its own: nothing to check for an LS pod";
  EXPECT_EQ(cluster_.bind(lsPod("ls", "2"), "n1"), "") << "an LS pod gets no resource-status";
  auto batch = lsrPod("lsr-batch", "2");
  batch->metadata.labels["koordinator.sh/priority-class"] = "koord-batch";
  EXPECT_EQ(cluster_.bind(batch, "n1"), "") << "LSR outside koord-prod gets no cpuset";
  auto none = lsrPod("none", "2", R"({"preferredCPUBindPolicy":"ConstrainedBurst"})");
  EXPECT_EQ(cluster_.bind(none, "n1"), "");
}

TEST_F(NodeNUMAResourceTest, FractionalCPUsCannotBeBound) {
  auto status = cluster_.filter(lsrPod("a", "1500m"), "n1");
  EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.message(), "the requested CPUs must be integer");
}

TEST_F(NodeNUMAResourceTest, NodeWithoutTopologyRefusesCPUSetPodsOnly) {
  cluster_.addNode("bare", {}, {}, /*with_nrt=*/false);
  auto status = cluster_.filter(lsrPod("a", "2"), "bare");
  EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.message(),
            "node(s) invalid CPU Topology: the node has no NodeResourceTopology (koord-agent "
            "reports it)");
  EXPECT_FALSE(cluster_.filter(lsPod("ls", "2"), "bare").isRejected());
}

TEST_F(NodeNUMAResourceTest, PodsWithoutACPUSetAreCheckedOnceANodeHasAPolicy) {
  EXPECT_TRUE(cluster_.filter(lsPod("ls", "500m"), "n1").isSkip());
  auto nrt = makeNRT("n1");
  nrt->metadata.annotations[std::string(api::kAnnotationKubeletCPUManagerPolicy)] =
      R"({"policy":"static","options":{"full-pcpus-only":"true"}})";
  cluster_.setNRT(nrt);
  EXPECT_EQ(cluster_.filter(lsPod("ls", "500m"), "n1").message(),
            "the requested CPUs must be integer")
      << "the kubelet's static full-pcpus-only policy, read from the NRT, binds every pod";
  cluster_.setNRT(makeNRT("n1"));
  EXPECT_TRUE(cluster_.filter(lsPod("ls", "500m"), "n1").isSkip()) << "the NRT changed back";
  cluster_.addNode("restricted", {}, {{"node.koordinator.sh/numa-topology-policy", "Restricted"}});
  EXPECT_TRUE(cluster_.filter(lsPod("ls", "500m"), "n1").isSuccess())
      << "a node label with a policy: every pod is checked again";
}

TEST_F(NodeNUMAResourceTest, RequiredFullPCPUsNeedsWholeCores) {
  auto status = cluster_.filter(lsrPod("a", "3", R"({"requiredCPUBindPolicy":"FullPCPUs"})"), "n1");
  EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.message(), "node(s) requested cpus not multiple cpus per core");
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("b", "3"), "n1"), "0-1,16")
      << "preferred FullPCPUs with an odd count takes what it can";
}

TEST_F(NodeNUMAResourceTest, NodeBindPolicyBindsEveryIntegerPod) {
  cluster_.addNode("full", {}, {{"node.koordinator.sh/cpu-bind-policy", "FullPCPUsOnly"}});
  EXPECT_EQ(cluster_.bindCPUs(lsPod("ls", "2"), "full"), "0,16")
      << "an LS pod with whole CPUs gets a cpuset of whole cores there";
  auto fractional = cluster_.filter(lsPod("half", "500m"), "full");
  EXPECT_EQ(fractional.message(), "the requested CPUs must be integer");
  auto odd = cluster_.filter(lsPod("odd", "3"), "full");
  EXPECT_EQ(odd.message(), "node(s) requested cpus not multiple cpus per core");
  auto conflict = cluster_.filter(
      lsrPod("spread", "2", R"({"requiredCPUBindPolicy":"SpreadByPCPUs"})"), "full");
  EXPECT_EQ(conflict.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(conflict.message(),
            "node(s) cpu bind policy conflicts with pod's required cpu bind policy");
}

TEST_F(NodeNUMAResourceTest, KubeletStaticFullPCPUsOnlyActsAsTheLabel) {
  auto nrt = makeNRT("n1");
  nrt->metadata.annotations[std::string(api::kAnnotationKubeletCPUManagerPolicy)] =
      R"({"policy":"static","options":{"full-pcpus-only":"true"},"reservedCPUs":"0,16"})";
  cluster_.setNRT(nrt);
  EXPECT_EQ(cluster_.filter(lsPod("odd", "3"), "n1").message(),
            "node(s) requested cpus not multiple cpus per core");
  EXPECT_EQ(cluster_.bindCPUs(lsPod("ls", "2"), "n1"), "8,24")
      << "the kubelet's reservedCPUs 0,16 are held back, so NUMA node 1 is the emptier one";
}

TEST_F(NodeNUMAResourceTest, ReservedAndPinnedCPUsAreNeverHandedOut) {
  auto nrt = makeNRT("n1");
  nrt->metadata.annotations[std::string(api::kAnnotationNodeCPUAllocs)] =
      R"([{"namespace":"default","name":"guaranteed","uid":"u1","cpuset":"1,17","managedByKubelet":true}])";
  nrt->metadata.annotations[std::string(api::kAnnotationNodeSystemQOSResource)] =
      R"({"cpuset":"2,18"})";
  nrt->metadata.annotations[std::string(api::kAnnotationNodeReservation)] =
      R"({"reservedCPUs":"0,16"})";
  cluster_.setNRT(nrt);
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("a", "2"), "n1"), "8,24")
      << "NUMA node 0 has 6 CPUs left, NUMA node 1 all 16: LeastAllocated takes node 1";
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("big", "24"), "n1"), "3-7,9-15,19-23,25-31")
      << "32 CPUs - 6 held back - 2 taken = the 24 left, and none of the others";
  EXPECT_EQ(cluster_.filter(lsrPod("more", "2"), "n1").message(),
            "not enough cpus available to satisfy request");
}

TEST_F(NodeNUMAResourceTest, CPUsHeldByBoundPodsAreNotGivenAgain) {
  auto holder = lsrPod("holder", "16");
  holder->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"cpuset":"0-7,16-23"})";
  cluster_.addBoundPod(holder, "n1");
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("a", "4"), "n1"), "8-9,24-25");
  auto status = cluster_.filter(lsrPod("b", "14"), "n1");
  EXPECT_EQ(status.code(), Code::kUnschedulable);
  EXPECT_EQ(status.message(), "not enough cpus available to satisfy request")
      << "16 held by the bound pod, 4 in flight: 12 left";
  EXPECT_TRUE(cluster_.filter(lsrPod("c", "12"), "n1").isSuccess());
}

TEST_F(NodeNUMAResourceTest, UnreserveGivesTheCPUsBack) {
  framework::CycleState cycle;
  auto info = podInfo(lsrPod("a", "32"));
  ASSERT_TRUE(cluster_.plugin().preFilter(cycle, *info).isSuccess());
  ASSERT_TRUE(
      cluster_.plugin().reserve(cycle, *info, *cluster_.state().nodeInfo("n1")).isSuccess());
  EXPECT_EQ(cluster_.filter(lsrPod("b", "2"), "n1").message(),
            "not enough cpus available to satisfy request");
  cluster_.plugin().unreserve(cycle, *info, "n1");
  EXPECT_TRUE(cluster_.filter(lsrPod("b", "2"), "n1").isSuccess());
}

TEST_F(NodeNUMAResourceTest, ConcurrentBindsNeverShareACPU) {
  std::vector<std::string> results(17);
  std::vector<std::thread> threads;
  threads.reserve(17);
  for (int t = 0; t < 17; ++t) {
    threads.emplace_back([this, t, &results] {
      results[t] = cluster_.bindCPUs(lsrPod("p" + std::to_string(t), "2"), "n1");
    });
  }
  for (auto& thread : threads)
    thread.join();
  std::set<int> seen;
  int failed = 0;
  for (const auto& r : results) {
    if (r.rfind("error: ", 0) == 0) {
      EXPECT_EQ(r, "error: not enough cpus available to satisfy request");
      ++failed;
      continue;
    }
    auto cpus = cpuset::CpuSet::parse(r);
    ASSERT_TRUE(cpus.ok()) << r;
    EXPECT_EQ(cpus->size(), 2U);
    for (int cpu : cpus->cpus())
      EXPECT_TRUE(seen.insert(cpu).second) << "CPU " << cpu << " given twice";
  }
  EXPECT_EQ(failed, 1) << "16 pods of 2 CPUs fill 32 CPUs; the 17th finds none";
  EXPECT_EQ(seen.size(), 32U);
}

TEST_F(NodeNUMAResourceTest, PCPULevelExclusivePodsAvoidEachOthersCores) {
  const std::string spec =
      R"({"preferredCPUBindPolicy":"SpreadByPCPUs","preferredCPUExclusivePolicy":"PCPULevel"})";
  auto a = cpuset::CpuSet::parse(cluster_.bindCPUs(lsrPod("a", "2", spec), "n1"));
  auto b = cpuset::CpuSet::parse(cluster_.bindCPUs(lsrPod("b", "2", spec), "n1"));
  ASSERT_TRUE(a.ok() && b.ok());
  for (int x : a->cpus()) {
    for (int y : b->cpus())
      EXPECT_NE(x % 16, y % 16) << "CPUs " << x << " and " << y << " share a core";
  }
}

TEST_F(NodeNUMAResourceTest, SingleNUMANodePodStaysOnOneNUMANode) {
  const std::string single = R"({"numaTopologyPolicy":"SingleNUMANode"})";
  const std::string written = cluster_.bind(lsrPod("a", "8", "", single), "n1");
  auto status = api::extension::parseResourceStatus(written);
  ASSERT_TRUE(status.ok()) << written;
  ASSERT_EQ(status->numaNodeResources.size(), 1U) << written;
  const int numa = status->numaNodeResources[0].node;
  auto cpus = cpuset::CpuSet::parse(status->cpuset);
  ASSERT_TRUE(cpus.ok());
  EXPECT_EQ(cpus->size(), 8U);
  for (int cpu : cpus->cpus())
    EXPECT_EQ((cpu % 16) / 8, numa) << "CPU " << cpu << " is not on NUMA node " << numa;
  auto big = cluster_.filter(lsrPod("big", "20", "", single), "n1");
  EXPECT_TRUE(big.isRejected()) << "20 CPUs fit no single 16-CPU NUMA node";
  EXPECT_FALSE(big.message().empty());
}

TEST_F(NodeNUMAResourceTest, NodeAndPodNUMAPoliciesMustAgree) {
  cluster_.addNode("restricted", {}, {{"node.koordinator.sh/numa-topology-policy", "Restricted"}});
  auto status = cluster_.filter(lsrPod("a", "2", "", R"({"numaTopologyPolicy":"SingleNUMANode"})"),
                                "restricted");
  EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.message(), "node(s) NUMA Topology policy not match");
  EXPECT_TRUE(cluster_.filter(lsPod("ls", "2"), "restricted").isSuccess());
}

TEST_F(NodeNUMAResourceTest, RestrictedNodeSplitsALargePodOverNUMANodes) {
  cluster_.addNode("restricted", {}, {{"node.koordinator.sh/numa-topology-policy", "Restricted"}});
  const std::string written = cluster_.bind(lsrPod("a", "24"), "restricted");
  auto status = api::extension::parseResourceStatus(written);
  ASSERT_TRUE(status.ok()) << written;
  ASSERT_EQ(status->numaNodeResources.size(), 2U) << written;
  int64_t cpu = 0;
  for (const auto& share : status->numaNodeResources)
    cpu += share.resources.at("cpu").milliValue();
  EXPECT_EQ(cpu, 24000);
  EXPECT_EQ(cpuset::CpuSet::parse(status->cpuset)->size(), 24U);
}

TEST_F(NodeNUMAResourceTest, MalformedAnnotationsAreRefusedWithTheirName) {
  auto spec = cluster_.filter(lsrPod("a", "2", "{not json"), "n1");
  EXPECT_EQ(spec.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_NE(spec.message().find("scheduling.koordinator.sh/resource-spec"), std::string::npos)
      << spec.message();
  auto numa = cluster_.filter(lsrPod("b", "2", "", R"({"numaTopologyPolicy":"Sometimes"})"), "n1");
  EXPECT_NE(numa.message().find("scheduling.koordinator.sh/numa-topology-spec"), std::string::npos)
      << numa.message();
  auto nrt = makeNRT("n1");
  nrt->metadata.annotations[std::string(api::kAnnotationNodeCPUTopology)] = R"({"detail":[{"id":)";
  cluster_.setNRT(nrt);
  auto topology = cluster_.filter(lsrPod("c", "2"), "n1");
  EXPECT_EQ(topology.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_NE(topology.message().find("node(s) invalid CPU Topology: failed to parse annotation "
                                    "'node.koordinator.sh/cpu-topology'"),
            std::string::npos)
      << topology.message();
}

TEST_F(NodeNUMAResourceTest, ZonesThatDisagreeWithTheCPUsMakeTheTopologyInvalid) {
  auto nrt = makeNRT("n1");
  nrt->zones[1].resources[0].capacity = resource::Quantity::fromInt(8);
  cluster_.setNRT(nrt);
  EXPECT_EQ(cluster_.filter(lsrPod("a", "2"), "n1").message(),
            "node(s) invalid CPU Topology: zone node-1 has cpu capacity 8 but "
            "node.koordinator.sh/cpu-topology puts 16 CPUs on NUMA node 1");
  nrt = makeNRT("n1");
  nrt->zones.pop_back();
  cluster_.setNRT(nrt);
  EXPECT_EQ(cluster_.filter(lsrPod("a", "2"), "n1").message(),
            "node(s) invalid CPU Topology: NUMA node 1 of node.koordinator.sh/cpu-topology has "
            "no zone node-1");
}

TEST_F(NodeNUMAResourceTest, ScorePrefersTheEmptierNodeUnlessMostAllocated) {
  cluster_.addNode("n2");
  auto holder = lsPod("busy", "16");
  cluster_.addBoundPod(holder, "n2");
  EXPECT_GT(cluster_.score(lsrPod("a", "4"), "n1"), cluster_.score(lsrPod("a", "4"), "n2"));
  NUMACluster most(api::Json::parse(R"({"scoringStrategy":{"type":"MostAllocated"}})"));
  most.addNode("n1");
  most.addNode("n2");
  most.addBoundPod(lsPod("busy", "16"), "n2");
  EXPECT_LT(most.score(lsrPod("a", "4"), "n1"), most.score(lsrPod("a", "4"), "n2"));
}

// v1.2: a Reservation whose template got a cpuset holds those CPUs: no other pod gets them, and the
// owner its bind takes them for gets exactly them.
TEST_F(NodeNUMAResourceTest, AReservationsCPUsGoToItsOwnerOnly) {
  auto r = makeReservation({.name = "r1",
                            .requests = {{"cpu", "4"}, {"memory", "1Gi"}},
                            .node = "n1",
                            .owner_app = "web"});
  r->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"cpuset":"0-1,16-17"})";
  ASSERT_TRUE(cluster_.reservations().upsert(r).isOk());
  auto big = cluster_.filter(lsrPod("big", "30"), "n1");
  EXPECT_EQ(big.message(), "not enough cpus available to satisfy request")
      << "32 CPUs, 4 held by r1: 28 for a pod that does not own it";
  auto owner_big = lsrPod("owner-big", "30");
  owner_big->metadata.labels["app"] = "web";
  EXPECT_TRUE(cluster_.filter(owner_big, "n1").isSuccess()) << "an owner may use r1's CPUs";
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("other", "4"), "n1"), "8-9,24-25")
      << "a non-owner goes around r1's CPUs (NUMA node 0 has 12 free, node 1 has 16)";
  auto owner = lsrPod("owner", "4");
  owner->metadata.labels["app"] = "web";
  EXPECT_EQ(cluster_.bindCPUs(owner, "n1", "uid-r1"), "0-1,16-17")
      << "the owner bound into r1 gets exactly the CPUs r1 holds";
}

TEST(NodeNUMAResourceArgsTest, BadArgsAreReportedTogether) {
  FakeClock clock;
  framework::ClusterState state{clock, std::chrono::seconds(30)};
  framework::BasicHandle handle{state, clock};
  auto plugin = plugins::node_numa_resource::create(
      api::Json::parse(R"({"defaultCPUBindPolicy":"Everything","scoringStrategy":{"type":"Random",
        "resources":[{"name":"cpu","weight":0}]},"extra":1})"),
      handle);
  ASSERT_FALSE(plugin.ok());
  const std::string message = plugin.status().message();
  for (const char* field : {"args.defaultCPUBindPolicy", "args.scoringStrategy.type",
                            "args.scoringStrategy.resources[0].weight", "args.extra"})
    EXPECT_NE(message.find(field), std::string::npos) << field << " missing from: " << message;
}

}  // namespace
}  // namespace koord::extender::testing
