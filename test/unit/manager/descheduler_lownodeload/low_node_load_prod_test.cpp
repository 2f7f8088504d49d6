// Koordinator v1.6 low_node_load_test.go TestLowNodeLoad: the prod-threshold cases.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lownodeload_test_support.hpp"

namespace koord::manager::descheduler::lownodeload::testing {
namespace {

using ::testing::ElementsAre;
using Json = nlohmann::json;

Json pair(int cpu, int pods) {
  return {{"cpu", cpu}, {"pods", pods}};
}

void setBatch(api::core::Pod& pod) {
  pod.metadata.labels["koordinator.sh/priority-class"] = "koord-batch";
}

// p1..p5 on n1 (those in `batch` labelled koord-batch), then the never-evictable p6..p8 and p9 on
// n2; n3 is unschedulable.
struct Cluster {
  std::vector<NodePtr> nodes;
  std::vector<PodPtr> pods;
};
Cluster usualCluster(const std::set<std::string>& batch) {
  Cluster c;
  c.nodes = {buildNode("n1", 4000, 3000, 9), buildNode("n2", 4000, 3000, 10),
             buildNode("n3", 4000, 3000, 10, setUnschedulable)};
  for (const char* name : {"p1", "p2", "p3", "p4", "p5"}) {
    c.pods.push_back(buildPod(name, 400, 0, "n1", [&](api::core::Pod& pod) {
      setRSOwner(pod);
      if (batch.contains(name)) {
        setBatch(pod);
      }
    }));
  }
  c.pods.push_back(buildPod("p6", 400, 0, "n1", setDSOwner));
  c.pods.push_back(buildPod("p7", 400, 0, "n1", [](api::core::Pod& pod) {
    setNormalOwner(pod);
    setMirror(pod);
  }));
  c.pods.push_back(buildPod("p8", 400, 0, "n1", setCritical));
  c.pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  return c;
}

std::vector<std::string> runCase(const Cluster& c, const Json& args) {
  Harness h(c.nodes, c.pods, nodeMetrics(c.nodes, c.pods));
  h.create(args);
  h.run();
  return h.evictor.evicted;
}

TEST(LowNodeLoadProdTest, NodeUnderThresholdsButProdOver) {
  // n1: 80% cpu is below the node high (90%), but its prod pods use 50% > 40%: prod pods move.
  const Cluster c = usualCluster({"p3", "p4", "p5"});
  EXPECT_THAT(runCase(c, poolArgs(pair(30, 30), pair(90, 90), pair(20, 20), pair(40, 40))),
              ElementsAre("p1", "p2"));
}

TEST(LowNodeLoadProdTest, NodeAndProdOverOnlyNodeUsageIsEvicted) {
  // The batch pod goes first; after it n1 is no longer above the node thresholds.
  const Cluster c = usualCluster({"p4", "p5"});
  EXPECT_THAT(runCase(c, poolArgs(pair(30, 30), pair(70, 80), pair(20, 20), pair(40, 40))),
              ElementsAre("p4"));
}

TEST(LowNodeLoadProdTest, ProdPodsOnly) {
  const Cluster c = usualCluster({});
  EXPECT_THAT(runCase(c, poolArgs(pair(0, 0), pair(100, 100), pair(30, 30), pair(50, 50))),
              ElementsAre("p1", "p2", "p3", "p4"));
}

TEST(LowNodeLoadProdTest, BothLowHeadroomUsedByTheHighNodeFirst) {
  Cluster c;
  c.nodes = {buildNode("n1", 4000, 3000, 20), buildNode("n2", 4000, 3000, 20),
             buildNode("n3", 4000, 3000, 20)};
  for (const char* name : {"p1", "p2", "p3", "p4", "p5", "p16", "p17"}) {
    c.pods.push_back(buildPod(name, 400, 0, "n1", setRSOwner));
  }
  c.pods.push_back(buildPod("p6", 400, 0, "n1", setDSOwner));
  c.pods.push_back(buildPod("p7", 400, 0, "n1", [](api::core::Pod& pod) {
    setNormalOwner(pod);
    setMirror(pod);
  }));
  c.pods.push_back(buildPod("p8", 400, 0, "n1", setCritical));
  c.pods.push_back(buildPod("p9", 400, 0, "n2", setRSOwner));
  for (const char* name : {"p10", "p11", "p12", "p13", "p14", "p15"}) {
    c.pods.push_back(buildPod(name, 400, 0, "n3", setRSOwner));
  }
  // n1 (node-high) gives four pods to n2; n3 (prod-high) then has 400m of n2's prod headroom.
  EXPECT_THAT(runCase(c, poolArgs(pair(30, 50), pair(60, 80), pair(20, 30), pair(30, 50))),
              ElementsAre("p1", "p2", "p3", "p4", "p10"));
}

TEST(LowNodeLoadProdTest, ProdReasonNamesProdUsage) {
  const Cluster c = usualCluster({"p3", "p4", "p5"});
  Harness h(c.nodes, c.pods, nodeMetrics(c.nodes, c.pods));
  h.create(poolArgs(pair(30, 30), pair(90, 90), pair(20, 20), pair(40, 40)));
  h.run();
  ASSERT_EQ(h.evictor.options.size(), 2U);
  // Prod: p1, p2, p6, p7, p8 (2000m of 4000m, 5 of 9 pods).
  EXPECT_EQ(h.evictor.options[0].reason,
            "node is overutilized, prod cpu usage(50.00%)>threshold(40.00%), "
            "prod pods usage(55.56%)>threshold(40.00%)");
}

}  // namespace
}  // namespace koord::manager::descheduler::lownodeload::testing
