#include "manager/noderesource/explain.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/noderesource/fixture.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::at;
using fixture::baseMetric;
using fixture::baseNode;
using fixture::basePods;
using fixture::enabled;
using fixture::kNowText;

using Lines = std::vector<std::string>;

const std::string kCPUSystemLine =
    "  system used 2000m = NodeMetric systemUsage 2000m + host applications 0m; node reserved "
    "1000m = max(kubelet reserved 1000m, annotation reserved 0m)";
const std::string kCPUPodsLine =
    "  high-priority pods 3 (1 without metric: request counted), dangling metrics 2 (800m): used "
    "9800m, requested 10000m, max(used, requested) 10800m";
const std::string kMemorySystemLine =
    "  system used 6Gi = NodeMetric systemUsage 6Gi + host applications 0; node reserved 4Gi = "
    "max(kubelet reserved 4Gi, annotation reserved 0)";
const std::string kMemoryPodsLine =
    "  high-priority pods 3 (1 without metric: request counted), dangling metrics 2 (1536Mi): "
    "used 17920Mi, requested 16Gi, max(used, requested) 19968Mi";

TEST(ExplainBatch, UsagePolicy) {
  api::slo::NodeMetric metric = baseMetric();
  BatchResult r = calculateBatch(baseNode(), basePods(), &metric, enabled(), at(kNowText));
  Lines want = {
      "batch-cpu = capacity 32000m - safety margin 12800m - system used 2000m - high-priority "
      "used 9800m = 7400m (policy usage)",
      kCPUSystemLine,
      kCPUPodsLine,
      "  => kubernetes.io/batch-cpu: 7400",
      "batch-memory = capacity 100Gi - safety margin 35Gi - system used 6Gi - high-priority used "
      "17920Mi = 42496Mi (policy usage)",
      kMemorySystemLine,
      kMemoryPodsLine,
      "  => kubernetes.io/batch-memory: 42496Mi",
  };
  EXPECT_EQ(explainBatch(r), want);
}

TEST(ExplainBatch, EveryStep) {
  api::core::Node node = baseNode();
  node.metadata.annotations["node.koordinator.sh/cpu-normalization-ratio"] = "1.5";
  node.metadata.annotations["node.koordinator.sh/thirdPartyAllocations"] =
      R"({"allocations":[{"name":"yarn","priority":"koord-batch",)"
      R"("resources":{"kubernetes.io/batch-cpu":"1000"}}]})";
  ColocationStrategy strategy = enabled();
  strategy.cpuCalculatePolicy = CalculatePolicy::kMaxUsageRequest;
  strategy.batchCPUThresholdPercent = 20;
  strategy.memoryCalculatePolicy = CalculatePolicy::kRequest;
  strategy.memoryReclaimThresholdPercent = 40;  // margin 60Gi: 100 - 60 - 4 - 16 = 20Gi
  api::slo::NodeMetric metric = baseMetric();
  BatchResult r = calculateBatch(node, basePods(), &metric, strategy, at(kNowText));
  Lines want = {
      "batch-cpu = capacity 32000m - safety margin 12800m - system used 2000m - high-priority "
      "max(used, requested) 10800m = 6400m (policy maxUsageRequest)",
      "  batchCPUThresholdPercent 20: min(6400m, 6400m) = 6400m",
      "  cpu-normalization-ratio 1.5: 6400m x 1.5 = 9600m",
      "  third-party koord-batch allocations: max(9600m - 1000m, 0) = 8600m",
      kCPUSystemLine,
      kCPUPodsLine,
      "  => kubernetes.io/batch-cpu: 8600",
      "batch-memory = capacity 100Gi - safety margin 60Gi - node reserved 4Gi - high-priority "
      "requested 16Gi = 20Gi (policy request)",
      kMemorySystemLine,
      kMemoryPodsLine,
      "  => kubernetes.io/batch-memory: 20Gi",
  };
  EXPECT_EQ(explainBatch(r), want);
}

TEST(ExplainBatch, BelowZeroNodeReservedAndNotes) {
  api::core::Node node = baseNode();
  node.metadata.annotations["node.koordinator.sh/reservation"] = R"({"reservedCPUs":"0-3"})";
  node.metadata.annotations["node.koordinator.sh/cpu-normalization-ratio"] = "abc";
  ColocationStrategy strategy = enabled();
  strategy.cpuReclaimThresholdPercent = 30;  // 32000 - 22400 - 4000 - 9800 = -4200
  api::slo::NodeMetric metric = baseMetric();
  BatchResult r = calculateBatch(node, basePods(), &metric, strategy, at(kNowText));
  Lines lines = explainBatch(r);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            "batch-cpu = capacity 32000m - safety margin 22400m - node reserved 4000m - "
            "high-priority used 9800m = -4200m (policy usage)");
  EXPECT_EQ(lines[1], "  below zero: 0m");
  EXPECT_EQ(lines[2],
            "  system used 2000m = NodeMetric systemUsage 2000m + host applications 0m; node "
            "reserved 4000m = max(kubelet reserved 1000m, annotation reserved 4000m)");
  EXPECT_EQ(lines.back(),
            "note: node annotation node.koordinator.sh/cpu-normalization-ratio: \"abc\" is not a "
            "number (batch-cpu not normalized)");
}

TEST(ExplainBatch, Degraded) {
  api::slo::NodeMetric metric = baseMetric();
  metric.status.updateTime = "2026-01-01T11:40:00Z";
  BatchResult r = calculateBatch(baseNode(), basePods(), &metric, enabled(), at(kNowText));
  Lines want = {
      "batch-cpu: removed (NodeMetric stale: updated 20m ago, degradeTimeMinutes 15)",
      "batch-memory: removed (NodeMetric stale: updated 20m ago, degradeTimeMinutes 15)",
  };
  EXPECT_EQ(explainBatch(r), want);
  r = calculateBatch(baseNode(), basePods(), nullptr, enabled(), at(kNowText));
  EXPECT_EQ(explainBatch(r)[0], "batch-cpu: removed (NodeMetric missing)");
}

TEST(ExplainMid, DynamicAndStatic) {
  auto pods = basePods();
  pods.push_back(fixture::makePod("mid-a", "Running", 7500, "3", "2Gi"));
  api::slo::NodeMetric metric = baseMetric();
  api::slo::ReclaimableMetric reclaimable;
  reclaimable.resource.resources = fixture::cpuMem("4", "20Gi");
  metric.status.prodReclaimableMetric = reclaimable;
  ColocationStrategy strategy = enabled();
  strategy.midUnallocatedPercent = 50;
  strategy.midMemoryThresholdPercent = 50;
  MidResult r = calculateMid(baseNode(), pods, &metric, strategy, at(kNowText));
  Lines want = {
      "mid-cpu = min(min(prod reclaimable 4000m, node unused 18000m) + 50% of unallocated 20000m "
      "= 10000m, threshold 100% of capacity = 32000m) = 14000m (mode dynamic)",
      "  node unused 18000m = capacity 32000m - node usage 14000m",
      "  unallocated 20000m = max(capacity 32000m - max(system used, node reserved) 2000m - prod "
      "requests 10000m, 0)",
      "  => kubernetes.io/mid-cpu: 14000",
      "mid-memory = min(min(prod reclaimable 20Gi, node unused 60Gi) + 50% of unallocated 78Gi = "
      "39Gi, threshold 50% of capacity = 50Gi) = 50Gi (mode dynamic)",
      "  node unused 60Gi = capacity 100Gi - node usage 40Gi",
      "  unallocated 78Gi = max(capacity 100Gi - max(system used, node reserved) 6Gi - prod "
      "requests 16Gi, 0)",
      "  => kubernetes.io/mid-memory: 50Gi",
  };
  EXPECT_EQ(explainMid(r), want);

  strategy.midReclaimMode = MidReclaimMode::kStatic;
  strategy.midStaticCPUReservedPercent = 20;
  r = calculateMid(baseNode(), pods, &metric, strategy, at(kNowText));
  Lines lines = explainMid(r);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "mid-cpu = min(static reserved 20% of capacity 32000m = 6400m, threshold 100% of "
            "capacity = 32000m) = 6400m (mode static)");
  EXPECT_EQ(lines[1], "  => kubernetes.io/mid-cpu: 6400");

  metric.status.prodReclaimableMetric.reset();
  strategy.midReclaimMode.reset();
  r = calculateMid(baseNode(), pods, &metric, strategy, at(kNowText));
  EXPECT_EQ(explainMid(r)[0],
            "mid-cpu = min(min(prod reclaimable 0m (not reported), node unused 18000m) + 50% of "
            "unallocated 20000m = 10000m, threshold 100% of capacity = 32000m) = 10000m (mode "
            "dynamic)");
}

}  // namespace
}  // namespace koord::manager::noderesource
