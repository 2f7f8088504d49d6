#include "manager/descheduler/framework/node_fit.hpp"

#include <gtest/gtest.h>

#include "manager/descheduler/framework/limited_evictor.hpp"
#include "test/unit/manager/descheduler_framework/builders.hpp"

namespace koord::manager::descheduler::framework {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test builders

void labelEast(core::Node& n) {
  n.metadata.labels["datacenter"] = "east";
}
void taintNode(core::Node& n) {
  n.spec.taints = {taint("testTaint", "test", "NoSchedule")};
}

struct PreEvictionCase {
  std::string description;
  std::vector<core::Pod> pods;  // the first is the candidate
  std::vector<core::Node> nodes;
  bool node_fit;
  bool expected;
};

core::Pod candidate(int64_t cpu, int64_t mem, const std::function<void(core::Pod&)>& apply) {
  core::Pod p = buildPod("p1", cpu, mem, "n1");
  setNormalOwnerRef(p);
  if (apply)
    apply(p);
  return p;
}

core::Node node(const std::string& name, int64_t cpu, int64_t mem,
                const std::function<void(core::Node&)>& apply) {
  core::Node n = buildNode(name, cpu, mem, 10);
  if (apply)
    apply(n);
  return n;
}

void eastSelector(core::Pod& p) {
  p.spec.nodeSelector["datacenter"] = "east";
}

TEST(PreEvictionFilter, CommunityNodeFitTable) {
  auto filler = [](const std::string& name, int64_t cpu, int64_t mem, const std::string& on) {
    return buildPod(name, cpu, mem, on);
  };
  const std::vector<PreEvictionCase> cases = {
      {"no tolerations, all other nodes tainted",
       {candidate(100, 0, nullptr)},
       {node("node2", 2000, 3000, taintNode), node("node3", 2000, 3000, taintNode)},
       true,
       false},
      {"correct tolerations, all other nodes tainted",
       {candidate(100, 0,
                  [](core::Pod& p) {
                    p.spec.tolerations = {toleration("testTaint", "test", "NoSchedule")};
                  })},
       {node("node2", 2000, 3000, taintNode), node("node3", 2000, 3000, taintNode)},
       true,
       true},
      {"incorrect node selector",
       {candidate(100, 0, [](core::Pod& p) { p.spec.nodeSelector["datacenter"] = "fail"; })},
       {node("node2", 2000, 3000, labelEast), node("node3", 2000, 3000, labelEast)},
       true,
       false},
      {"correct node selector",
       {candidate(100, 0, eastSelector)},
       {node("node2", 2000, 3000, labelEast), node("node3", 2000, 3000, labelEast)},
       true,
       true},
      {"not enough CPU",
       {candidate(12, 8, eastSelector)},
       {node("node2-TEST", 10, 16, labelEast), node("node3-TEST", 10, 16, labelEast)},
       true,
       false},
      {"one node has enough memory",
       {candidate(12, 8, eastSelector), filler("node2-pod", 20, 10, "node2"),
        filler("node3-pod", 20, 10, "node3")},
       {node("node2", 100, 16, labelEast), node("node3", 100, 20, labelEast)},
       true,
       true},
      {"neither node has enough memory",
       {candidate(12, 8, eastSelector), filler("node2-pod", 10, 10, "node2"),
        filler("node3-pod", 10, 10, "node3")},
       {node("node2", 100, 16, labelEast), node("node3", 100, 16, labelEast)},
       true,
       false},
      {"incorrect node selector, nodeFit off",
       {candidate(100, 0, [](core::Pod& p) { p.spec.nodeSelector["datacenter"] = "fail"; })},
       {node("node2", 2000, 3000, labelEast)},
       false,
       true},
  };
  for (const auto& tc : cases) {
    DefaultEvictorOptions options;
    options.node_fit = tc.node_fit;
    auto snapshot = snapshotOf(tc.nodes, tc.pods);
    LimitedEvictor evictor(DefaultEvictor::create(options).value(), &snapshot, {}, nullptr);
    EXPECT_EQ(evictor.preEvictionFilter(tc.pods[0]), tc.expected) << tc.description;
  }
}

TEST(NodeFit, ReasonsInCommunityOrder) {
  core::Node n2 = buildNode("n2", 1000, 1000, 2);
  core::Pod pod = buildPod("p", 500, 100, "n1");
  auto snapshot = snapshotOf({n2}, {buildPod("a", 100, 0, "n2")});
  EXPECT_EQ(nodeFitFailure(pod, n2, snapshot), std::nullopt);

  core::Node unschedulable = n2;
  unschedulable.spec.unschedulable = true;
  EXPECT_EQ(nodeFitFailure(pod, unschedulable, snapshot), "node is not schedulable");

  core::Node no_execute = n2;
  no_execute.spec.taints = {taint("k", "v", "NoExecute")};
  EXPECT_EQ(nodeFitFailure(pod, no_execute, snapshot), "pod does not tolerate taints on the node");
  core::Node prefer = n2;
  prefer.spec.taints = {taint("k", "v", "PreferNoSchedule")};
  EXPECT_EQ(nodeFitFailure(pod, prefer, snapshot), std::nullopt);

  core::Pod big = buildPod("big", 950, 100, "n1");
  EXPECT_EQ(nodeFitFailure(big, n2, snapshot), "insufficient cpu");
  core::Pod gpu = pod;
  gpu.spec.containers[0].resources.requests["nvidia.com/gpu"] = Quantity::fromInt(1);
  EXPECT_EQ(nodeFitFailure(gpu, n2, snapshot), "insufficient nvidia.com/gpu");
  // The pods count: one pod already there, allocatable 2 -> one free; full with two.
  auto full = snapshotOf({n2}, {buildPod("a", 0, 0, "n2"), buildPod("b", 0, 0, "n2")});
  EXPECT_EQ(nodeFitFailure(pod, n2, full), "insufficient pods");
  // Terminal pods hold nothing.
  core::Pod done = buildPod("b", 900, 0, "n2");
  done.status.phase = "Succeeded";
  auto with_done = snapshotOf({n2}, {done});
  EXPECT_EQ(nodeFitFailure(pod, n2, with_done), std::nullopt);
  // Requests are not checked against the pod's own node.
  core::Pod on_n2 = buildPod("big", 5000, 100, "n2");
  EXPECT_EQ(nodeFitFailure(on_n2, n2, snapshot), std::nullopt);
}

TEST(NodeFit, RequiredPodAntiAffinity) {
  core::Node n2 = buildNode("n2");
  n2.metadata.labels["zone"] = "a";
  core::Pod other = buildPod("db-0", 0, 0, "n2");
  other.metadata.labels["app"] = "db";
  core::Pod pod = buildPod("db-1", 0, 0, "n1");
  pod.spec.affinity = core::Affinity{};
  pod.spec.affinity->podAntiAffinity = nlohmann::json::parse(R"({
    "requiredDuringSchedulingIgnoredDuringExecution": [
      {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "zone"}]})");
  auto snapshot = snapshotOf({n2}, {other});
  EXPECT_EQ(nodeFitFailure(pod, n2, snapshot),
            "pod matches inter-pod anti-affinity rule of other pod on node");
  core::Node no_zone = n2;
  no_zone.metadata.labels.clear();
  EXPECT_EQ(nodeFitFailure(pod, no_zone, snapshot), std::nullopt);
}

TEST(NodeFit, AnyOtherNodeSkipsTheOwnNode) {
  auto n1 = std::make_shared<const core::Node>(buildNode("n1"));
  core::Node tainted = buildNode("n2");
  taintNode(tainted);
  auto n2 = std::make_shared<const core::Node>(tainted);
  core::Pod pod = buildPod("p", 100, 0, "n1");
  auto snapshot = snapshotOf({*n1, *n2}, {pod});
  EXPECT_FALSE(podFitsAnyOtherNode(pod, {n1, n2}, snapshot));
  EXPECT_TRUE(podFitsAnyNode(pod, {n1, n2}, snapshot));
  auto bound = makePodFitsAnyOtherNode(snapshot);
  EXPECT_FALSE(bound(pod, {n1, n2}));
  EXPECT_TRUE(bound(pod, {n1, std::make_shared<const core::Node>(buildNode("n3"))}));
}

TEST(NodeSelectorText, ParsesLabelsParseForms) {
  auto selector = parseNodeSelectorText("pool=a, tier!=db,zone in (x, y),gpu,!spot");
  ASSERT_TRUE(selector.ok()) << selector.status().toString();
  ASSERT_EQ(selector->matchExpressions.size(), 5u);
  EXPECT_EQ(selector->matchExpressions[2].operator_, "In");
  EXPECT_EQ(selector->matchExpressions[2].values, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(selector->matchExpressions[4].operator_, "DoesNotExist");
  EXPECT_FALSE(parseNodeSelectorText("a in x").ok());
  EXPECT_FALSE(parseNodeSelectorText("a>3").ok());

  core::Node ready = buildNode("ready");
  ready.metadata.labels["pool"] = "a";
  core::Node not_ready = ready;
  not_ready.metadata.name = "not-ready";
  not_ready.status.conditions[0].status = "False";
  core::Node other_pool = buildNode("other");
  other_pool.metadata.labels["pool"] = "b";
  auto snapshot = snapshotOf({ready, not_ready, other_pool}, {});
  auto nodes = readyNodes(snapshot, "pool=a");
  ASSERT_TRUE(nodes.ok());
  ASSERT_EQ(nodes->size(), 1u);
  EXPECT_EQ((*nodes)[0]->metadata.name, "ready");
  EXPECT_EQ(readyNodes(snapshot, "")->size(), 2u);
}

}  // namespace
}  // namespace koord::manager::descheduler::framework
