// Mid resources, worked by hand from koordinator-reference §3(c) on the fixture node
// (fixture.hpp) plus a koord-mid pod (requests 3 / 2Gi, not counted as prod):
//   prodRequest = prod-a + prod-b + lse = 10000m / 16Gi (done is Succeeded)
//   max(systemUsed, nodeReserved) = max(2000m, 1000m) = 2000m; max(6Gi, 4Gi) = 6Gi
//   unallocated = 32000 - 2000 - 10000 = 20000m; 100 - 6 - 16 = 78Gi
//   nodeUnused  = 32000 - 14000 = 18000m; 100 - 40 = 60Gi
#include "manager/noderesource/mid.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/noderesource/fixture.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::at;
using fixture::baseMetric;
using fixture::baseNode;
using fixture::enabled;
using fixture::kGi;
using fixture::kMi;
using fixture::kNowText;

std::vector<api::core::Pod> midPods() {
  auto pods = fixture::basePods();
  pods.push_back(fixture::makePod("mid-a", "Running", 7500, "3", "2Gi"));
  return pods;
}

api::slo::NodeMetric midMetric() {
  api::slo::NodeMetric metric = baseMetric();
  api::slo::ReclaimableMetric reclaimable;
  reclaimable.resource.resources = fixture::cpuMem("4", "20Gi");
  metric.status.prodReclaimableMetric = reclaimable;
  return metric;
}

TEST(CalculateMid, Static) {
  ColocationStrategy strategy = enabled();
  strategy.midReclaimMode = MidReclaimMode::kStatic;
  strategy.midStaticCPUReservedPercent = 20;     // 6400m, below the 100% threshold
  strategy.midStaticMemoryReservedPercent = 10;  // 10Gi, above the 5% threshold (5Gi)
  strategy.midMemoryThresholdPercent = 5;
  api::slo::NodeMetric metric = baseMetric();
  MidResult r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
  ASSERT_FALSE(r.degradeReason);
  EXPECT_EQ(r.cpu.mode, MidReclaimMode::kStatic);
  EXPECT_EQ(r.cpu.staticReserved, 6400);
  EXPECT_EQ(r.cpu.thresholdCap, 32000);
  EXPECT_EQ(r.cpu.value, 6400);
  EXPECT_EQ(r.memory.staticReserved, 10 * kGi);
  EXPECT_EQ(r.memory.thresholdCap, 5 * kGi);
  EXPECT_EQ(r.memory.value, 5 * kGi);
  resource::ResourceList want = {{"kubernetes.io/mid-cpu", fixture::q("6400")},
                                 {"kubernetes.io/mid-memory", fixture::q("5Gi")}};
  EXPECT_EQ(r.resources(), want);
}

TEST(CalculateMid, Dynamic) {
  struct Case {
    std::string name;
    int64_t unallocated_percent;
    int64_t memory_threshold_percent;
    int64_t want_cpu;
    int64_t want_memory;
  };
  const std::vector<Case> cases = {
      // min(4000, 18000) + 0; min(20Gi, 60Gi) + 0
      {"no unallocated share", 0, 100, 4000, 20 * kGi},
      // 4000 + 20000 * 50%; min(20Gi + 39Gi, 50Gi)
      {"half the unallocated", 50, 50, 14000, 50 * kGi},
  };
  for (const auto& tc : cases) {
    ColocationStrategy strategy = enabled();
    strategy.midUnallocatedPercent = tc.unallocated_percent;
    strategy.midMemoryThresholdPercent = tc.memory_threshold_percent;
    api::slo::NodeMetric metric = midMetric();
    MidResult r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
    ASSERT_FALSE(r.degradeReason) << tc.name;
    EXPECT_EQ(r.cpu.prodRequest, 10000) << tc.name;
    EXPECT_EQ(r.cpu.systemUsedOrReserved, 2000) << tc.name;
    EXPECT_EQ(r.cpu.unallocated, 20000) << tc.name;
    EXPECT_EQ(r.cpu.nodeUnused, 18000) << tc.name;
    EXPECT_EQ(r.memory.prodRequest, 16 * kGi) << tc.name;
    EXPECT_EQ(r.memory.unallocated, 78 * kGi) << tc.name;
    EXPECT_EQ(r.memory.nodeUnused, 60 * kGi) << tc.name;
    EXPECT_EQ(r.cpu.value, tc.want_cpu) << tc.name;
    EXPECT_EQ(r.memory.value, tc.want_memory) << tc.name;
  }
}

TEST(CalculateMid, MissingInputs) {
  ColocationStrategy strategy = enabled();
  strategy.midUnallocatedPercent = 10;
  // No prodReclaimable: only the unallocated share, 20000 * 10% = 2000m.
  api::slo::NodeMetric metric = baseMetric();
  MidResult r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
  EXPECT_FALSE(r.cpu.prodReclaimableReported);
  EXPECT_EQ(r.cpu.value, 2000);
  // No node usage: nothing counts as unused, so min(4000, 0) + 2000.
  metric = midMetric();
  metric.status.nodeMetric->nodeUsage.resources.clear();
  r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
  EXPECT_FALSE(r.cpu.nodeUsageReported);
  EXPECT_EQ(r.cpu.nodeUnused, 0);
  EXPECT_EQ(r.cpu.value, 2000);
  // Usage above capacity: min(4000, -8000) + 0 < 0, raised to 0.
  strategy.midUnallocatedPercent = 0;
  metric = midMetric();
  metric.status.nodeMetric->nodeUsage.resources = fixture::cpuMem("40", "40Gi");
  r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
  EXPECT_EQ(r.cpu.reclaimable, -8000);
  EXPECT_EQ(r.cpu.value, 0);
}

TEST(CalculateMid, HostApplicationsOfMidPriorityAreNotSystem) {
  api::slo::NodeMetric metric = midMetric();
  api::slo::HostApplicationMetricInfo prod;
  prod.priority = "koord-prod";
  prod.usage.resources = fixture::cpuMem("500m", "0");
  api::slo::HostApplicationMetricInfo mid = prod;
  mid.priority = "koord-mid";
  mid.usage.resources = fixture::cpuMem("300m", "0");
  metric.status.hostApplicationMetric = {prod, mid};
  ColocationStrategy strategy = enabled();
  strategy.midUnallocatedPercent = 100;
  MidResult r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
  EXPECT_EQ(r.cpu.systemUsed, 2500);
  EXPECT_EQ(r.cpu.unallocated, 32000 - 2500 - 10000);
  EXPECT_EQ(r.cpu.value, 4000 + 19500);
}

TEST(CalculateMid, Degrade) {
  ColocationStrategy strategy = enabled();
  strategy.midReclaimMode = MidReclaimMode::kStatic;
  strategy.midStaticCPUReservedPercent = 20;
  MidResult r = calculateMid(baseNode(), midPods(), nullptr, strategy, at(kNowText));
  EXPECT_EQ(r.degradeReason, "NodeMetric missing");
  EXPECT_TRUE(r.resources().empty());
  strategy.enable = false;
  api::slo::NodeMetric metric = midMetric();
  r = calculateMid(baseNode(), midPods(), &metric, strategy, at(kNowText));
  EXPECT_EQ(r.degradeReason, "colocation disabled");
}

}  // namespace
}  // namespace koord::manager::noderesource
