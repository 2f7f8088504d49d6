// The CPUBurst strategy over mocks: what it hands the executor run after run (values and order),
// how throttling, the share pool and the limiter steer the quota, resets, the annotation, bad
// configuration, vanished cgroups, metrics and debugState.
#include "agent/qosmanager/strategies/cpu_burst/cpu_burst.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/agent/qosmanager/strategies/cpu_burst/cpu_burst_test_support.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {
namespace {

using api::slo::CPUBurstPolicy;
using ::testing::ElementsAre;
using testing::Harness;
using ::testing::IsEmpty;
using testing::makeNodeSLO;
using testing::makePod;
using testing::PodSpec;
using testing::strategyOf;

std::string podDir() {
  return "kubepods/burstable/poduid-web";
}
std::string c1Dir() {
  return podDir() + "/c1";
}
std::string c2Dir() {
  return podDir() + "/c2";
}

PodSpec onePod(int64_t limit_milli = 200) {
  PodSpec spec;
  spec.containers = {{"app", limit_milli, "c1"}};
  return spec;
}

TEST(CpuBurstTest, NameIntervalAndEnabled) {
  Harness h;
  EXPECT_EQ(h.strategy().name(), "CPUBurst");
  EXPECT_EQ(h.strategy().interval(), std::chrono::seconds(1));
  EXPECT_FALSE(h.strategy().runsOnStateChange());
  EXPECT_FALSE(h.strategy().enabled(nullptr));
  // Enabled under policy none too: a run then resets what earlier runs changed.
  auto slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kNone));
  EXPECT_TRUE(h.strategy().enabled(slo.get()));
  EXPECT_TRUE(h.strategy().debugState().is_null());
}

TEST(CpuBurstTest, CpuBurstOnlySetsContainerAndPodBurst) {
  Harness h;
  auto strategy = strategyOf(CPUBurstPolicy::kCPUBurstOnly);
  strategy.cpuBurstPercent = 50;
  h.slo = makeNodeSLO(strategy);
  PodSpec spec;
  // 0.5 and 1.5 cores: 25000 and 75000 us of burst; one not started yet gets nothing.
  spec.containers = {{"app", 500, "c1"}, {"side", 1500, "c2"}, {"later", 1000, ""}};
  h.setPods({makePod(spec)});
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + podDir() + " 100000", "burst " + c1Dir() + " 25000",
                          "burst " + c2Dir() + " 75000"));
  ASSERT_EQ(h.batches.size(), 1U);  // one batch per pod
  // Same again next run (the executor's cache skips unchanged values).
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.lastValue("burst", c1Dir()), "25000");
}

TEST(CpuBurstTest, BurstIsCappedAtTheQuotaAndContainersWithoutLimitGetNothing) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCPUBurstOnly));  // 1000%
  PodSpec spec;
  spec.containers = {{"app", 500, "c1"}, {"side", 1500, "c2"}};
  PodSpec open;
  open.name = "open";
  open.uid = "uid-open";
  open.containers = {{"free", 0, "c9"}};
  h.setPods({makePod(spec), makePod(open)});
  ASSERT_TRUE(h.runOnce().isOk());
  // 10 × the limit would be 500000 and 1500000; the kernel allows at most the quota.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + podDir() + " 200000", "burst " + c1Dir() + " 50000",
                          "burst " + c2Dir() + " 150000"));
}

TEST(CpuBurstTest, WithoutKernelSupportTheBurstPartIsSkippedAndReportedOnce) {
  Harness h;
  h.fixture.facts.cfs_burst = false;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCPUBurstOnly));
  h.setPods({makePod(onePod())});
  EXPECT_CALL(h.fixture.executor, updateBatch(::testing::_)).Times(0);
  ASSERT_TRUE(h.runOnce().isOk());
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_unsupported"), 1);
  EXPECT_EQ(h.strategy().debugState()["cfs_burst_supported"], false);
}

// Quota burst while the share pool is idle: up ×1.2 each throttled run to the 300% ceiling.
TEST(CpuBurstTest, ThrottledContainersScaleUpToTheCeilingWhileIdle) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  h.setPods({makePod(onePod())});
  h.throttled[c1Dir()] = 10;
  h.nodeUsage(0.4);  // 0.4 of 4 cores: idle
  ASSERT_TRUE(h.runOnce().isOk());
  // First run: no earlier cpu.stat to compare with: the base, pod before container.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 20000", "quota " + c1Dir() + " 20000"));
  std::vector<std::string> quotas;
  for (int i = 0; i < 8; ++i) {
    h.throttled[c1Dir()] += 5;
    h.nodeUsage(0.4);
    ASSERT_TRUE(h.runOnce().isOk());
    ASSERT_EQ(h.lastValue("quota", podDir()), h.lastValue("quota", c1Dir()));
    quotas.push_back(h.lastValue("quota", c1Dir()));
  }
  EXPECT_THAT(quotas,
              ElementsAre("24000", "28800", "34560", "41472", "49766", "59719", "60000", "60000"));
  // Raising: the pod first, so the child never exceeds its parent.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 60000", "quota " + c1Dir() + " 60000"));
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_scaled_total{direction=\"up\"}"), 7);
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_throttled_containers"), 1);
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_share_pool_state"), 0);
  // No longer throttled: it keeps what it has.
  h.nodeUsage(0.4);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.lastValue("quota", c1Dir()), "60000");
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_throttled_containers"), 0);
}

// The share pool's usage is averaged over the last 5 s (koordlet's min(5 × interval, 10 s)).
TEST(CpuBurstTest, CoolingHoldsAndOverloadScalesDownToTheBase) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  h.setPods({makePod(onePod())});
  h.throttled[c1Dir()] = 0;
  for (int i = 0; i < 4; ++i) {  // base, then 3 ups while idle
    h.throttled[c1Dir()] += 1;
    h.nodeUsage(0.1);
    ASSERT_TRUE(h.runOnce().isOk());
  }
  ASSERT_EQ(h.lastValue("quota", c1Dir()), "34560");
  // 1.9 of 4 cores = 0.475: cooling (>= 0.45, < 0.5). Let the 5 s average settle there while
  // not throttled (remain either way).
  for (int i = 0; i < 5; ++i) {
    h.nodeUsage(1.9);
    ASSERT_TRUE(h.runOnce().isOk());
    ASSERT_EQ(h.lastValue("quota", c1Dir()), "34560");
  }
  // Throttled, yet no higher.
  h.throttled[c1Dir()] += 1;
  h.nodeUsage(1.9);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.lastValue("quota", c1Dir()), "34560");
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_share_pool_state"), 1);
  EXPECT_EQ(h.strategy().debugState()["containers"][0]["action"], "remain");
  EXPECT_EQ(h.strategy().debugState()["containers"][0]["throttled"], true);
  // 4 cores busy: the average is (5 × 1.9 + 4) / 6 = 2.25 cores, 0.5625: overload at once:
  // down ×0.8 per run, even while throttled, to the base.
  std::vector<std::string> quotas;
  for (int i = 0; i < 4; ++i) {
    h.throttled[c1Dir()] += 1;
    h.nodeUsage(4);
    ASSERT_TRUE(h.runOnce().isOk());
    quotas.push_back(h.lastValue("quota", c1Dir()));
    if (i == 0) {
      // Lowering: the container first, then its pod.
      EXPECT_THAT(h.lastUpdates(),
                  ElementsAre("quota " + c1Dir() + " 27648", "quota " + podDir() + " 27648"));
    }
  }
  EXPECT_THAT(quotas, ElementsAre("27648", "22118", "20000", "20000"));
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_share_pool_state"), 2);
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_scaled_total{direction=\"down\"}"), 3);
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_scaled_total{direction=\"up\"}"), 3);
}

TEST(CpuBurstTest, TheSharePoolLeavesOutLseLsrAndBePods) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  PodSpec lsr;
  lsr.name = "db";
  lsr.uid = "uid-db";
  lsr.qos_label = "LSR";
  lsr.kube_qos = "Guaranteed";
  lsr.containers = {{"db", 4000, "d1"}};  // requests 2 cores: the pool is 4 - 2
  PodSpec be;
  be.name = "batch";
  be.uid = "uid-batch";
  be.qos_label = "BE";
  be.kube_qos = "BestEffort";
  be.containers = {{"job", 0, "b1"}};
  h.setPods({makePod(onePod()), makePod(lsr), makePod(be)});
  h.throttled[c1Dir()] = 1;
  h.nodeUsage(1.3125);
  h.podUsage("uid-db", 0.25);
  h.podUsage("uid-batch", 0.125);
  ASSERT_TRUE(h.runOnce().isOk());
  // (1.3125 - 0.25 - 0.125) / (4 - 2) = 0.46875: cooling.
  const api::Json pool = h.strategy().debugState()["share_pool"];
  EXPECT_DOUBLE_EQ(pool["usage_ratio"].get<double>(), 0.46875);
  EXPECT_EQ(pool["excluded_used_cores"], 0.375);
  EXPECT_EQ(pool["state"], "cooling");
  EXPECT_EQ(pool["node_cores"], 4.0);
  EXPECT_EQ(pool["excluded_request_cores"], 2.0);
  // Only the LS pod was written.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 20000", "quota " + c1Dir() + " 20000"));
}

TEST(CpuBurstTest, WithoutNodeUsageTheSharePoolIsUnknownAndNothingScalesUp) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  h.setPods({makePod(onePod())});
  for (int i = 0; i < 3; ++i) {
    h.throttled[c1Dir()] = static_cast<uint64_t>(i);
    ASSERT_TRUE(h.runOnce().isOk());
    EXPECT_EQ(h.lastValue("quota", c1Dir()), "20000");
  }
  EXPECT_EQ(h.strategy().debugState()["share_pool"]["state"], "unknown");
  EXPECT_TRUE(h.strategy().debugState()["share_pool"]["usage_ratio"].is_null());
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_share_pool_state"), 3);
}

TEST(CpuBurstTest, APercentOfAtMostHundredNeverRaisesTheQuota) {
  Harness h;
  auto strategy = strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly);
  strategy.cfsQuotaBurstPercent = 100;
  h.slo = makeNodeSLO(strategy);
  h.setPods({makePod(onePod())});
  for (int i = 0; i < 3; ++i) {
    h.throttled[c1Dir()] = static_cast<uint64_t>(i) * 10;
    h.nodeUsage(0.1);
    ASSERT_TRUE(h.runOnce().isOk());
    EXPECT_EQ(h.lastValue("quota", c1Dir()), "20000");
  }
}

// cfsQuotaBurstPeriodSeconds 10 at 300%: a budget of 2000 percent-seconds, half of it at start.
TEST(CpuBurstTest, TheLimiterStopsALongBurstAndLetsItBurstAgainAfterRest) {
  Harness h;
  auto strategy = strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly);
  strategy.cfsQuotaBurstPeriodSeconds = 10;
  h.slo = makeNodeSLO(strategy);
  h.setPods({makePod(onePod())});
  struct Step {
    double usage_cores;  // of a 0.2-core limit
    std::string quota;
  };
  std::vector<Step> steps = {
      {0.6, "20000"},  // 1000 tokens; first run: no baseline
      {0.6, "24000"},  // 800
      {0.6, "28800"},  // 600
      {0.6, "34560"},  // 400
      {0.6, "41472"},  // 200
      {0.6, "33177"},  // 0: spent: down, though throttled
      {0.6, "26541"},  // -200
      {0.6, "21232"},  // -400
      {0.6, "20000"},  // -600
  };
  // Then it rests at 10% of its limit: 90 tokens a second back; allowed again above 0.
  for (int i = 0; i < 6; ++i) {
    steps.push_back({0.02, "20000"});  // -510 ... -60
  }
  steps.push_back({0.02, "24000"});  // +30: allowed, still throttled: up again
  int step = 0;
  for (const Step& s : steps) {
    h.throttled[c1Dir()] += 3;
    h.nodeUsage(0.1);
    h.containerUsage("c1", s.usage_cores);
    ASSERT_TRUE(h.runOnce().isOk());
    EXPECT_EQ(h.lastValue("quota", c1Dir()), s.quota) << "step " << step;
    ++step;
  }
}

TEST(CpuBurstTest, PolicyNoneResetsWhatWasChangedOnce) {
  Harness h;
  auto strategy = strategyOf(CPUBurstPolicy::kAuto);
  strategy.cpuBurstPercent = 50;  // 10000 us for 0.2 core
  h.slo = makeNodeSLO(strategy);
  h.setPods({makePod(onePod())});
  for (int i = 0; i < 2; ++i) {
    h.throttled[c1Dir()] += 1;
    h.nodeUsage(0.1);
    ASSERT_TRUE(h.runOnce().isOk());
  }
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 24000", "burst " + podDir() + " 10000",
                          "quota " + c1Dir() + " 24000", "burst " + c1Dir() + " 10000"));
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kNone));
  h.throttled[c1Dir()] += 1;
  ASSERT_TRUE(h.runOnce().isOk());
  // Lowering: the bursts before the quotas, the container before the pod.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + c1Dir() + " 0", "quota " + c1Dir() + " 20000",
                          "burst " + podDir() + " 0", "quota " + podDir() + " 20000"));
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_scaled_total{direction=\"down\"}"), 1);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(), IsEmpty());
  EXPECT_THAT(h.strategy().debugState()["containers"], IsEmpty());
}

TEST(CpuBurstTest, SwitchingOffOnePartResetsOnlyThatPart) {
  Harness h;
  auto strategy = strategyOf(CPUBurstPolicy::kAuto);
  strategy.cpuBurstPercent = 50;
  h.slo = makeNodeSLO(strategy);
  h.setPods({makePod(onePod())});
  for (int i = 0; i < 2; ++i) {
    h.throttled[c1Dir()] += 1;
    h.nodeUsage(0.1);
    ASSERT_TRUE(h.runOnce().isOk());
  }
  ASSERT_EQ(h.lastValue("quota", c1Dir()), "24000");
  // cpuBurstOnly: the quota goes back to the base once; the burst stays.
  auto only_burst = strategyOf(CPUBurstPolicy::kCPUBurstOnly);
  only_burst.cpuBurstPercent = 50;
  h.slo = makeNodeSLO(only_burst);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + c1Dir() + " 10000", "quota " + c1Dir() + " 20000",
                          "burst " + podDir() + " 10000", "quota " + podDir() + " 20000"));
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + podDir() + " 10000", "burst " + c1Dir() + " 10000"));
  // cfsQuotaBurstOnly: the burst goes to 0 once.
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 20000", "burst " + podDir() + " 0",
                          "quota " + c1Dir() + " 20000", "burst " + c1Dir() + " 0"));
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 20000", "quota " + c1Dir() + " 20000"));
}

TEST(CpuBurstTest, ThePodAnnotationOverridesTheNodePolicy) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kNone));
  PodSpec asked = onePod();
  asked.burst_annotation = R"({"policy":"cpuBurstOnly","cpuBurstPercent":20})";
  PodSpec plain;
  plain.name = "plain";
  plain.uid = "uid-plain";
  plain.containers = {{"app", 1000, "p1"}};
  h.setPods({makePod(asked), makePod(plain)});
  ASSERT_TRUE(h.runOnce().isOk());
  // 0.2 core × 20% = 4000 us; the other pod follows the node: nothing.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + podDir() + " 4000", "burst " + c1Dir() + " 4000"));
  EXPECT_EQ(h.strategy().debugState()["containers"][0]["from_annotation"], true);
  EXPECT_EQ(h.strategy().debugState()["policy"], "none");

  // An annotation saying none under a node policy of cpuBurstOnly: that pod is left alone.
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCPUBurstOnly));
  asked.burst_annotation = R"({"policy":"none"})";
  h.setPods({makePod(asked), makePod(plain)});
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("burst " + podDir() + " 0", "burst " + c1Dir() + " 0",  // reset once
                          "burst kubepods/burstable/poduid-plain 100000",
                          "burst kubepods/burstable/poduid-plain/p1 100000"));
}

TEST(CpuBurstTest, AMalformedAnnotationFallsBackToTheNodePolicy) {
  Harness h;
  auto strategy = strategyOf(CPUBurstPolicy::kCPUBurstOnly);
  strategy.cpuBurstPercent = 50;
  h.slo = makeNodeSLO(strategy);
  for (const std::string bad : {"{oops", R"({"policy":"turbo"})", R"({"cpuBurstPercent":0})"}) {
    PodSpec spec = onePod();
    spec.burst_annotation = bad;
    h.setPods({makePod(spec)});
    ASSERT_TRUE(h.runOnce().isOk()) << bad;
    EXPECT_THAT(h.lastUpdates(),
                ElementsAre("burst " + podDir() + " 10000", "burst " + c1Dir() + " 10000"))
        << bad;
    EXPECT_EQ(h.strategy().debugState()["containers"][0]["from_annotation"], false);
  }
}

TEST(CpuBurstTest, BadNodeConfigIsInvalidArgumentAndWritesNothing) {
  struct Case {
    std::optional<api::slo::CPUBurstStrategy> strategy;
    std::string field;
  };
  auto zero_percent = strategyOf(CPUBurstPolicy::kAuto);
  zero_percent.cpuBurstPercent = 0;
  auto negative_quota = strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly);
  negative_quota.cfsQuotaBurstPercent = -10;
  auto threshold = strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly);
  threshold.sharePoolThresholdPercent = 0;
  for (const Case& c :
       {Case{zero_percent, "cpuBurstPercent"}, Case{negative_quota, "cfsQuotaBurstPercent"},
        Case{threshold, "sharePoolThresholdPercent"}}) {
    Harness h;
    h.slo = makeNodeSLO(c.strategy);
    h.setPods({makePod(onePod())});
    h.throttled[c1Dir()] = 1;
    h.nodeUsage(0.1);
    EXPECT_CALL(h.fixture.executor, updateBatch(::testing::_)).Times(0);
    Status status = h.runOnce();
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.field;
    EXPECT_NE(status.message().find(c.field), std::string::npos) << status.message();
    EXPECT_EQ(h.strategy().debugState()["error"], status.message());
  }
}

TEST(CpuBurstTest, OnlyLsSystemAndUnlabelledPendingOrRunningPodsQualify) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCPUBurstOnly));
  std::vector<std::shared_ptr<const api::core::Pod>> pods;
  int n = 0;
  auto add = [&](std::optional<std::string> label, std::string kube_qos, std::string phase) {
    PodSpec spec;
    spec.name = "p" + std::to_string(n);
    spec.uid = "u" + std::to_string(n);
    spec.qos_label = std::move(label);
    spec.kube_qos = std::move(kube_qos);
    spec.phase = std::move(phase);
    spec.containers = {{"app", 100, "c" + std::to_string(n)}};
    ++n;
    pods.push_back(makePod(spec));
  };
  add("LSR", "Guaranteed", "Running");         // u0: no
  add("LSE", "Guaranteed", "Running");         // u1: no
  add("BE", "BestEffort", "Running");          // u2: no
  add("LS", "Burstable", "Succeeded");         // u3: no
  add("LS", "Burstable", "Pending");           // u4: yes
  add("SYSTEM", "Burstable", "Running");       // u5: yes
  add(std::nullopt, "Guaranteed", "Running");  // u6: yes, though kube QoS would say LSR
  h.setPods(pods);
  ASSERT_TRUE(h.runOnce().isOk());
  // 0.1 core: 10 × 10000 us of burst, capped at the 10000 us quota.
  EXPECT_THAT(
      h.lastUpdates(),
      ElementsAre("burst kubepods/burstable/podu4 10000", "burst kubepods/burstable/podu4/c4 10000",
                  "burst kubepods/burstable/podu5 10000", "burst kubepods/burstable/podu5/c5 10000",
                  "burst kubepods/podu6 10000", "burst kubepods/podu6/c6 10000"));
}

TEST(CpuBurstTest, AVanishedContainerIsSkippedWithoutFailingTheRun) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  PodSpec spec;
  spec.containers = {{"app", 200, "c1"}, {"side", 500, "c2"}};
  h.setPods({makePod(spec)});
  h.throttled[c2Dir()] = 1;  // c1's cpu.stat is gone (kNotFound)
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  h.throttled[c2Dir()] = 2;
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  // c2 scaled (50000 → 60000); the pod is its base 70000 plus c2's 10000; c1 untouched.
  EXPECT_THAT(h.lastUpdates(),
              ElementsAre("quota " + podDir() + " 80000", "quota " + c2Dir() + " 60000"));
  EXPECT_EQ(h.strategy().debugState()["containers"][0]["action"], "skipped");
}

TEST(CpuBurstTest, APodWhoseCgroupVanishedIsSkippedAndItsStateNotAdvanced) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  PodSpec other;
  other.name = "other";
  other.uid = "uid-other";
  other.containers = {{"app", 1000, "o1"}};
  h.setPods({makePod(onePod()), makePod(other)});
  const std::string other_pod = "kubepods/burstable/poduid-other";
  h.throttled[c1Dir()] = 1;
  h.throttled[other_pod + "/o1"] = 1;
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  h.batch_results[podDir()] = Status::notFound("no such cgroup");
  h.throttled[c1Dir()] = 2;
  h.throttled[other_pod + "/o1"] = 2;
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.lastValue("quota", c1Dir()), "24000");
  EXPECT_EQ(h.lastValue("quota", other_pod + "/o1"), "120000");
  EXPECT_EQ(h.metric("koord_agent_cpu_burst_scaled_total{direction=\"up\"}"), 1);
  // The write did not happen: the next run starts again from 20000.
  h.batch_results.clear();
  h.throttled[c1Dir()] = 3;
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.lastValue("quota", c1Dir()), "24000");
}

TEST(CpuBurstTest, AFailedBatchFailsTheRunButTheOtherPodsAreWritten) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCPUBurstOnly));
  PodSpec other;
  other.name = "other";
  other.uid = "uid-other";
  other.containers = {{"app", 1000, "o1"}};
  h.setPods({makePod(onePod()), makePod(other)});
  h.batch_results[podDir()] =
      Status(StatusCode::kPermissionDenied, "failed to apply 1 of 2 updates: denied");
  Status status = h.runOnce();
  EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
  EXPECT_NE(status.message().find("default/web"), std::string::npos) << status.message();
  EXPECT_EQ(h.batches.size(), 2U);
  EXPECT_EQ(h.strategy().debugState()["errors"].size(), 1U);
}

TEST(CpuBurstTest, ContainersThatLeftAreForgotten) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  h.setPods({makePod(onePod())});
  for (int i = 0; i < 3; ++i) {
    h.throttled[c1Dir()] += 1;
    h.nodeUsage(0.1);
    ASSERT_TRUE(h.runOnce().isOk());
  }
  ASSERT_EQ(h.lastValue("quota", c1Dir()), "28800");
  h.setPods({});
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_THAT(h.lastUpdates(), IsEmpty());
  // Back with the same id (a restored snapshot): starts from the base, without a baseline.
  h.setPods({makePod(onePod())});
  h.throttled[c1Dir()] += 1;
  h.nodeUsage(0.1);
  ASSERT_TRUE(h.runOnce().isOk());
  EXPECT_EQ(h.lastValue("quota", c1Dir()), "20000");
}

TEST(CpuBurstTest, DebugStateTellsWhy) {
  Harness h;
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kCFSQuotaBurstOnly));
  h.setPods({makePod(onePod())});
  h.throttled[c1Dir()] = 1;
  h.nodeUsage(0.4);
  ASSERT_TRUE(h.runOnce().isOk());
  h.throttled[c1Dir()] = 2;
  h.nodeUsage(0.4);
  ASSERT_TRUE(h.runOnce().isOk());
  const api::Json state = h.strategy().debugState();
  EXPECT_EQ(state["policy"], "cfsQuotaBurstOnly");
  EXPECT_EQ(state["config"]["cfsQuotaBurstPercent"], 300);
  EXPECT_NEAR(state["share_pool"]["usage_ratio"].get<double>(), 0.1, 1e-9);
  EXPECT_EQ(state["share_pool"]["state"], "idle");
  ASSERT_EQ(state["containers"].size(), 1U);
  const api::Json& c = state["containers"][0];
  EXPECT_EQ(c["pod"], "default/web");
  EXPECT_EQ(c["container"], "app");
  EXPECT_EQ(c["id"], "c1");
  EXPECT_EQ(c["base"], 20000);
  EXPECT_EQ(c["ceil"], 60000);
  EXPECT_EQ(c["quota"], 24000);
  EXPECT_EQ(c["throttled"], true);
  EXPECT_EQ(c["action"], "up");
  EXPECT_EQ(c["applied"], true);
}

TEST(CpuBurstTest, WorksWithoutARegistry) {
  Harness h(/*with_registry=*/false);
  h.slo = makeNodeSLO(strategyOf(CPUBurstPolicy::kAuto));
  h.setPods({makePod(onePod())});
  h.throttled[c1Dir()] = 1;
  h.nodeUsage(0.1);
  EXPECT_TRUE(h.runOnce().isOk());
  EXPECT_FALSE(h.lastUpdates().empty());
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_burst
