// Batch resources, worked by hand from koordinator-reference §3(c) on the fixture node
// (fixture.hpp). Base terms:
//   CPU:    capacity 32000m, safety margin 32000 * 40% = 12800m, systemUsed 2000m > nodeReserved
//           1000m; hpUsed = 3000 (prod-a) + 2000 (prod-b, request) + 4000 (lse, CPU request) +
//           500 (done, dangling) + 300 (old, dangling) = 9800m; hpRequest = 4000 + 2000 + 4000 =
//           10000m; hpMaxUsedReq = 4000 + 2000 + 4000 + 800 = 10800m.
//   Memory: capacity 100Gi, safety margin 35Gi, systemUsed 6Gi > nodeReserved 4Gi;
//           hpUsed = 10 + 4 + 2 + 1 + 0.5 = 17.5Gi; hpRequest = 8 + 4 + 4 = 16Gi;
//           hpMaxUsedReq = 10 + 4 + 4 + 1.5 = 19.5Gi.
#include "manager/noderesource/batch.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/noderesource/fixture.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::at;
using fixture::baseMetric;
using fixture::baseNode;
using fixture::basePods;
using fixture::enabled;
using fixture::kGi;
using fixture::kMi;
using fixture::kNowText;
using fixture::q;

BatchResult run(const api::core::Node& node, const std::vector<api::core::Pod>& pods,
                const api::slo::NodeMetric& metric, const ColocationStrategy& strategy) {
  return calculateBatch(node, pods, &metric, strategy, at(kNowText));
}

TEST(CalculateBatch, BaseTerms) {
  BatchResult r = run(baseNode(), basePods(), baseMetric(), enabled());
  ASSERT_FALSE(r.degradeReason) << *r.degradeReason;
  EXPECT_EQ(r.hpPods, 3);
  EXPECT_EQ(r.hpPodsWithoutMetric, 1);
  EXPECT_EQ(r.danglingMetrics, 2);
  EXPECT_TRUE(r.notes.empty());

  EXPECT_EQ(r.cpu.capacity, 32000);
  EXPECT_EQ(r.cpu.safetyMargin, 12800);
  EXPECT_EQ(r.cpu.kubeletReserved, 1000);
  EXPECT_EQ(r.cpu.annoReserved, 0);
  EXPECT_EQ(r.cpu.nodeReserved, 1000);
  EXPECT_EQ(r.cpu.systemUsed, 2000);
  EXPECT_EQ(r.cpu.systemUsedOrReserved, 2000);
  EXPECT_EQ(r.cpu.hpUsed, 9800);
  EXPECT_EQ(r.cpu.hpRequest, 10000);
  EXPECT_EQ(r.cpu.hpMaxUsedReq, 10800);
  EXPECT_EQ(r.cpu.hpDanglingUsed, 800);
  EXPECT_EQ(r.cpu.value, 7400);

  EXPECT_EQ(r.memory.capacity, 100 * kGi);
  EXPECT_EQ(r.memory.safetyMargin, 35 * kGi);
  EXPECT_EQ(r.memory.kubeletReserved, 4 * kGi);
  EXPECT_EQ(r.memory.systemUsedOrReserved, 6 * kGi);
  EXPECT_EQ(r.memory.hpUsed, 17 * kGi + 512 * kMi);
  EXPECT_EQ(r.memory.hpRequest, 16 * kGi);
  EXPECT_EQ(r.memory.hpMaxUsedReq, 19 * kGi + 512 * kMi);
  EXPECT_EQ(r.memory.hpDanglingUsed, kGi + 512 * kMi);
  EXPECT_EQ(r.memory.value, 41 * kGi + 512 * kMi);

  resource::ResourceList want = {{"kubernetes.io/batch-cpu", q("7400")},
                                 {"kubernetes.io/batch-memory", q("42496Mi")}};
  EXPECT_EQ(r.resources(), want);
}

TEST(CalculateBatch, Policies) {
  struct Case {
    std::string name;
    CalculatePolicy cpu_policy;
    CalculatePolicy memory_policy;
    CalculatePolicy want_cpu_policy;
    int64_t want_cpu;
    int64_t want_memory;
  };
  const std::vector<Case> cases = {
      // 32000 - 12800 - 2000 - 9800; 100 - 35 - 6 - 17.5 Gi
      {"usage", CalculatePolicy::kUsage, CalculatePolicy::kUsage, CalculatePolicy::kUsage, 7400,
       41 * kGi + 512 * kMi},
      // 32000 - 12800 - 2000 - 10800; 100 - 35 - 6 - 19.5 Gi
      {"maxUsageRequest", CalculatePolicy::kMaxUsageRequest, CalculatePolicy::kMaxUsageRequest,
       CalculatePolicy::kMaxUsageRequest, 6400, 39 * kGi + 512 * kMi},
      // memory: 100 - 35 - nodeReserved 4 - hpRequest 16 Gi
      {"memory request", CalculatePolicy::kUsage, CalculatePolicy::kRequest,
       CalculatePolicy::kUsage, 7400, 45 * kGi},
      // CPU does not support "request": computed as usage
      {"cpu request reads as usage", CalculatePolicy::kRequest, CalculatePolicy::kUsage,
       CalculatePolicy::kUsage, 7400, 41 * kGi + 512 * kMi},
  };
  for (const auto& tc : cases) {
    ColocationStrategy strategy = enabled();
    strategy.cpuCalculatePolicy = tc.cpu_policy;
    strategy.memoryCalculatePolicy = tc.memory_policy;
    BatchResult r = run(baseNode(), basePods(), baseMetric(), strategy);
    EXPECT_EQ(r.cpu.policy, tc.want_cpu_policy) << tc.name;
    EXPECT_EQ(r.memory.policy, tc.memory_policy) << tc.name;
    EXPECT_EQ(r.cpu.value, tc.want_cpu) << tc.name;
    EXPECT_EQ(r.memory.value, tc.want_memory) << tc.name;
  }
}

TEST(CalculateBatch, NodeReservationAnnotation) {
  struct Case {
    std::string name;
    std::string annotation;
    int64_t want_cpu_anno;
    int64_t want_memory_anno;
    int64_t want_cpu;
    int64_t want_memory;
    size_t want_notes;
  };
  const std::vector<Case> cases = {
      // 2500m rounds up to 3 cores; 3000m > systemUsed 2000m: 32000 - 12800 - 3000 - 9800.
      // memory 10Gi > systemUsed 6Gi: 100 - 35 - 10 - 17.5 Gi.
      {"cpu quantity rounded up", R"({"resources":{"cpu":"2500m","memory":"10Gi"}})", 3000,
       10 * kGi, 6400, 37 * kGi + 512 * kMi, 0},
      // reservedCPUs overrides the quantity: 4 CPUs. 32000 - 12800 - 4000 - 9800.
      {"reservedCPUs count", R"({"reservedCPUs":"0-3","resources":{"cpu":"1"}})", 4000, 0, 5400,
       41 * kGi + 512 * kMi, 0},
      // 1 core < systemUsed: unchanged.
      {"small reservation", R"({"resources":{"cpu":"1"}})", 1000, 0, 7400, 41 * kGi + 512 * kMi, 0},
      {"not JSON", "{", 0, 0, 7400, 41 * kGi + 512 * kMi, 1},
      {"bad reservedCPUs", R"({"reservedCPUs":"0-a"})", 0, 0, 7400, 41 * kGi + 512 * kMi, 1},
  };
  for (const auto& tc : cases) {
    api::core::Node node = baseNode();
    node.metadata.annotations["node.koordinator.sh/reservation"] = tc.annotation;
    BatchResult r = run(node, basePods(), baseMetric(), enabled());
    EXPECT_EQ(r.cpu.annoReserved, tc.want_cpu_anno) << tc.name;
    EXPECT_EQ(r.memory.annoReserved, tc.want_memory_anno) << tc.name;
    EXPECT_EQ(r.cpu.value, tc.want_cpu) << tc.name;
    EXPECT_EQ(r.memory.value, tc.want_memory) << tc.name;
    EXPECT_EQ(r.notes.size(), tc.want_notes) << tc.name;
  }
}

TEST(CalculateBatch, KubeletReserved) {
  // allocatable 28 cores / 90Gi: kubelet reserves 4000m (> systemUsed 2000m) and 10Gi.
  api::core::Node node = baseNode();
  node.status.allocatable = fixture::cpuMem("28", "90Gi");
  ColocationStrategy strategy = enabled();
  strategy.memoryCalculatePolicy = CalculatePolicy::kRequest;
  BatchResult r = run(node, basePods(), baseMetric(), strategy);
  EXPECT_EQ(r.cpu.kubeletReserved, 4000);
  EXPECT_EQ(r.cpu.nodeReserved, 4000);
  EXPECT_EQ(r.cpu.systemUsedOrReserved, 4000);
  EXPECT_EQ(r.cpu.value, 32000 - 12800 - 4000 - 9800);
  EXPECT_EQ(r.memory.nodeReserved, 10 * kGi);
  EXPECT_EQ(r.memory.value, (100 - 35 - 10 - 16) * kGi);

  // allocatable above capacity reserves nothing.
  node.status.allocatable = fixture::cpuMem("40", "200Gi");
  r = run(node, basePods(), baseMetric(), strategy);
  EXPECT_EQ(r.cpu.kubeletReserved, 0);
  EXPECT_EQ(r.memory.kubeletReserved, 0);
  EXPECT_EQ(r.memory.value, (100 - 35 - 0 - 16) * kGi);
}

TEST(CalculateBatch, ThresholdCaps) {
  ColocationStrategy strategy = enabled();
  strategy.batchCPUThresholdPercent = 20;     // 6400m < 7400m: capped
  strategy.batchMemoryThresholdPercent = 50;  // 50Gi > 41.5Gi: not capped
  BatchResult r = run(baseNode(), basePods(), baseMetric(), strategy);
  EXPECT_EQ(r.cpu.thresholdCap, 6400);
  EXPECT_EQ(r.cpu.value, 6400);
  EXPECT_EQ(r.memory.thresholdCap, 50 * kGi);
  EXPECT_EQ(r.memory.value, 41 * kGi + 512 * kMi);
}

TEST(CalculateBatch, NegativeRaisedToZero) {
  ColocationStrategy strategy = enabled();
  strategy.cpuReclaimThresholdPercent = 30;     // margin 22400m: 32000 - 22400 - 2000 - 9800 < 0
  strategy.memoryReclaimThresholdPercent = 20;  // margin 80Gi: 100 - 80 - 6 - 17.5 < 0
  BatchResult r = run(baseNode(), basePods(), baseMetric(), strategy);
  EXPECT_EQ(r.cpu.byPolicy, -2200);
  EXPECT_EQ(r.cpu.value, 0);
  EXPECT_EQ(r.memory.byPolicy, -(3 * kGi + 512 * kMi));
  EXPECT_EQ(r.memory.value, 0);
}

TEST(CalculateBatch, ReclaimPercentAbove100GivesNegativeMargin) {
  ColocationStrategy strategy = enabled();
  strategy.cpuReclaimThresholdPercent = 110;  // margin -3200m: 32000 + 3200 - 2000 - 9800
  BatchResult r = run(baseNode(), basePods(), baseMetric(), strategy);
  EXPECT_EQ(r.cpu.safetyMargin, -3200);
  EXPECT_EQ(r.cpu.value, 23400);
}

TEST(CalculateBatch, LSEPodsAreChargedTheirCPURequest) {
  struct Case {
    std::string qos;
    int64_t want_hp_used_cpu;
    int64_t want_hp_used_memory;
  };
  // lse: request 4000m / 4Gi, usage 1000m / 2Gi. Memory always counts the usage.
  const std::vector<Case> cases = {
      {"LSE", 9800, 17 * kGi + 512 * kMi},
      {"LS", 9800 - 4000 + 1000, 17 * kGi + 512 * kMi},
  };
  for (const auto& tc : cases) {
    auto pods = basePods();
    pods[2].metadata.labels["koordinator.sh/qosClass"] = tc.qos;
    BatchResult r = run(baseNode(), pods, baseMetric(), enabled());
    EXPECT_EQ(r.cpu.hpUsed, tc.want_hp_used_cpu) << tc.qos;
    EXPECT_EQ(r.memory.hpUsed, tc.want_hp_used_memory) << tc.qos;
    EXPECT_EQ(r.cpu.value, 32000 - 12800 - 2000 - tc.want_hp_used_cpu) << tc.qos;
  }
}

TEST(CalculateBatch, PodsWithoutMetricCountTheirRequest) {
  // Base: prod-b has no metric and counts its request 2000m / 4Gi. With a metric of 500m / 1Gi:
  api::slo::NodeMetric metric = baseMetric();
  metric.status.podsMetric.push_back(fixture::podMetric("prod-b", "koord-prod", "500m", "1Gi"));
  BatchResult r = run(baseNode(), basePods(), metric, enabled());
  EXPECT_EQ(r.hpPodsWithoutMetric, 0);
  EXPECT_EQ(r.cpu.hpUsed, 9800 - 2000 + 500);
  EXPECT_EQ(r.cpu.hpMaxUsedReq, 10800);  // max(2000, 500) = 2000 either way
  EXPECT_EQ(r.memory.hpUsed, 17 * kGi + 512 * kMi - 3 * kGi);
  EXPECT_EQ(r.cpu.value, 32000 - 12800 - 2000 - 8300);
}

TEST(CalculateBatch, DanglingPodMetrics) {
  // Without the dangling metrics (done: 500m / 1Gi, old: 300m / 512Mi; gone is koord-batch).
  api::slo::NodeMetric metric = baseMetric();
  metric.status.podsMetric.resize(3);  // prod-a, lse, batch-a
  BatchResult r = run(baseNode(), basePods(), metric, enabled());
  EXPECT_EQ(r.danglingMetrics, 0);
  EXPECT_EQ(r.cpu.hpDanglingUsed, 0);
  EXPECT_EQ(r.cpu.hpUsed, 9000);
  EXPECT_EQ(r.cpu.value, 8200);

  // A Running pod whose metric exists is not dangling; a Succeeded one is.
  auto pods = basePods();
  pods[4].status.phase = "Running";  // done: now HP with metric 500m, request 1000m
  r = run(baseNode(), pods, baseMetric(), enabled());
  EXPECT_EQ(r.danglingMetrics, 1);
  EXPECT_EQ(r.cpu.hpDanglingUsed, 300);
  EXPECT_EQ(r.cpu.hpUsed, 9800);
  EXPECT_EQ(r.cpu.hpRequest, 11000);
  EXPECT_EQ(r.cpu.hpMaxUsedReq, 10800 - 500 + 1000);
}

TEST(CalculateBatch, BestEffortPodsWithoutPriorityAreBatch) {
  // No priority, no labels, no requests: BestEffort -> BE -> koord-batch, not high-priority.
  auto pods = basePods();
  pods.push_back(fixture::makePod("be", "Running", std::nullopt, "", ""));
  api::slo::NodeMetric metric = baseMetric();
  metric.status.podsMetric.push_back(fixture::podMetric("be", "", "2", "2Gi"));
  BatchResult r = run(baseNode(), pods, metric, enabled());
  EXPECT_EQ(r.hpPods, 3);
  EXPECT_EQ(r.cpu.value, 7400);
}

TEST(CalculateBatch, HostApplications) {
  api::slo::NodeMetric metric = baseMetric();
  api::slo::HostApplicationMetricInfo prod;
  prod.name = "nginx";
  prod.priority = "koord-prod";
  prod.usage.resources = fixture::cpuMem("500m", "0");
  api::slo::HostApplicationMetricInfo batch = prod;
  batch.name = "yarn";
  batch.priority = "koord-batch";
  metric.status.hostApplicationMetric = {prod, batch};
  BatchResult r = run(baseNode(), basePods(), metric, enabled());
  EXPECT_EQ(r.cpu.hostAppUsed, 500);
  EXPECT_EQ(r.cpu.systemUsed, 2500);
  EXPECT_EQ(r.cpu.value, 32000 - 12800 - 2500 - 9800);
}

TEST(CalculateBatch, CPUNormalization) {
  struct Case {
    std::string ratio;
    int64_t want_cpu;
    size_t want_notes;
  };
  const std::vector<Case> cases = {
      {"1.5", 11100, 0},  // 7400 x 1.5
      {"1.00", 7400, 0},  // not above 1
      {"0.8", 7400, 0},
      {"abc", 7400, 1},
  };
  for (const auto& tc : cases) {
    api::core::Node node = baseNode();
    node.metadata.annotations["node.koordinator.sh/cpu-normalization-ratio"] = tc.ratio;
    BatchResult r = run(node, basePods(), baseMetric(), enabled());
    EXPECT_EQ(r.cpu.value, tc.want_cpu) << tc.ratio;
    EXPECT_EQ(r.memory.value, 41 * kGi + 512 * kMi) << tc.ratio;  // memory is never normalized
    EXPECT_EQ(r.notes.size(), tc.want_notes) << tc.ratio;
  }
  // Koordinator's rounding: 7401 x 1.25 = 9251.25 -> 9252.
  EXPECT_EQ(normalizeBatchCPU(7401, 1.25), 9252);
  EXPECT_EQ(normalizeBatchCPU(7401, 1.0), 7401);
}

TEST(CalculateBatch, ThirdPartyAllocations) {
  api::core::Node node = baseNode();
  node.metadata.annotations["node.koordinator.sh/thirdPartyAllocations"] =
      R"({"allocations":[{"name":"hadoop-yarn","priority":"koord-batch",)"
      R"("resources":{"kubernetes.io/batch-cpu":"1000","kubernetes.io/batch-memory":"2Gi"}},)"
      R"({"name":"other","priority":"koord-mid","resources":{"kubernetes.io/batch-cpu":"500"}}]})";
  BatchResult r = run(node, basePods(), baseMetric(), enabled());
  EXPECT_EQ(r.cpu.thirdPartyAllocated, 1000);
  EXPECT_EQ(r.cpu.value, 6400);
  EXPECT_EQ(r.memory.thirdPartyAllocated, 2 * kGi);
  EXPECT_EQ(r.memory.value, 39 * kGi + 512 * kMi);

  // Normalization first, then the allocations: 7400 x 1.5 - 1000.
  node.metadata.annotations["node.koordinator.sh/cpu-normalization-ratio"] = "1.5";
  r = run(node, basePods(), baseMetric(), enabled());
  EXPECT_EQ(r.cpu.value, 10100);

  node.metadata.annotations["node.koordinator.sh/thirdPartyAllocations"] = "[";
  r = run(node, basePods(), baseMetric(), enabled());
  EXPECT_EQ(r.cpu.thirdPartyAllocated, 0);
  EXPECT_EQ(r.notes.size(), 1u);
}

TEST(CalculateBatch, Degrade) {
  struct Case {
    std::string name;
    bool enable;
    bool has_metric;
    std::optional<std::string> update_time;
    std::optional<std::string> want;
  };
  const std::vector<Case> cases = {
      {"fresh", true, true, "2026-01-01T11:59:00Z", std::nullopt},
      {"exactly degradeTimeMinutes", true, true, "2026-01-01T11:45:00Z", std::nullopt},
      {"missing", true, false, std::nullopt, "NodeMetric missing"},
      {"no updateTime", true, true, std::nullopt,
       "NodeMetric missing: status.updateTime is not set"},
      {"stale", true, true, "2026-01-01T11:40:00Z",
       "NodeMetric stale: updated 20m ago, degradeTimeMinutes 15"},
      {"stale by a second", true, true, "2026-01-01T11:44:59Z",
       "NodeMetric stale: updated 15m1s ago, degradeTimeMinutes 15"},
      {"bad updateTime", true, true, "yesterday",
       "NodeMetric updateTime \"yesterday\" is not RFC 3339"},
      {"disabled", false, true, "2026-01-01T11:59:00Z", "colocation disabled"},
  };
  for (const auto& tc : cases) {
    ColocationStrategy strategy = enabled();
    strategy.enable = tc.enable;
    api::slo::NodeMetric metric = baseMetric();
    metric.status.updateTime = tc.update_time;
    BatchResult r = calculateBatch(baseNode(), basePods(), tc.has_metric ? &metric : nullptr,
                                   strategy, at(kNowText));
    EXPECT_EQ(r.degradeReason, tc.want) << tc.name;
    EXPECT_EQ(r.resources().empty(), tc.want.has_value()) << tc.name;
    if (tc.want) {
      EXPECT_EQ(r.cpu.value, 0) << tc.name;
    }
  }
}

TEST(CalculateBatch, DegradeWithoutNodeMetricInfo) {
  api::slo::NodeMetric metric = baseMetric();
  metric.status.nodeMetric.reset();
  BatchResult r = run(baseNode(), basePods(), metric, enabled());
  EXPECT_EQ(r.degradeReason, "NodeMetric missing: status.nodeMetric is not set");
}

TEST(Strategy, DefaultsAndValidation) {
  ColocationStrategy d;
  EXPECT_FALSE(d.enable);
  EXPECT_EQ(d.cpuReclaimThresholdPercent, 60);
  EXPECT_EQ(d.memoryReclaimThresholdPercent, 65);
  EXPECT_EQ(d.degradeTimeMinutes, 15);
  EXPECT_EQ(d.updateTimeThresholdSeconds, 300);
  EXPECT_DOUBLE_EQ(d.resourceDiffThreshold, 0.1);
  EXPECT_EQ(d.midCPUThresholdPercent, 100);
  EXPECT_EQ(d.midUnallocatedPercent, 0);
  EXPECT_FALSE(d.midReclaimMode);
  EXPECT_FALSE(d.batchCPUThresholdPercent);
  EXPECT_TRUE(validate(d).isOk());

  d.degradeTimeMinutes = 0;
  d.midUnallocatedPercent = 200;
  d.resourceDiffThreshold = 0;
  Status s = validate(d);
  EXPECT_EQ(s.message(),
            "invalid colocation strategy: degradeTimeMinutes 0 must be > 0; "
            "resourceDiffThreshold 0 must be in (0, 1]; "
            "midUnallocatedPercent 200 must be in [0, 100]");

  EXPECT_EQ(parseCalculatePolicy("maxUsageRequest"), CalculatePolicy::kMaxUsageRequest);
  EXPECT_EQ(parseCalculatePolicy("Usage"), std::nullopt);
  EXPECT_EQ(parseMidReclaimMode("static"), MidReclaimMode::kStatic);
}

}  // namespace
}  // namespace koord::manager::noderesource
