#include "agent/qosmanager/strategies/cpu_evict/cpu_evict.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

// The BE eviction tests' fixture lives with memory_evict's tests (both strategies share it).
#include "test/unit/agent/qosmanager/strategies/memory_evict/evict_test_support.hpp"

namespace koord::agent::qosmanager::strategies::cpu_evict {
namespace {

using metriccache::MetricKind;
using qosmanager::testing::EvictFixture;
using qosmanager::testing::makeNodeSLO;
using qosmanager::testing::makePod;
using qosmanager::testing::metricLines;
using qosmanager::testing::PodSpec;
using ::testing::_;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::InSequence;
using ::testing::Return;
using namespace std::chrono_literals;

std::shared_ptr<const api::core::Node> makeNode(std::optional<int64_t> batch_cpu_milli = {}) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-1";
  node->status.capacity["cpu"] = resource::Quantity::fromInt(16);
  if (batch_cpu_milli) {
    node->status.allocatable[std::string(api::kResourceBatchCPU)] =
        resource::Quantity::fromInt(*batch_cpu_milli);
  }
  return node;
}

api::slo::ResourceThresholdStrategy satisfactionSection(int64_t window_seconds = 10) {
  api::slo::ResourceThresholdStrategy out;
  out.enable = true;
  out.cpuEvictBESatisfactionLowerPercent = 40;
  out.cpuEvictBESatisfactionUpperPercent = 60;
  out.cpuEvictTimeWindowSeconds = window_seconds;
  return out;
}

struct BEPod {
  PodSpec spec;
  double cores;  // the pod's CPU usage at every sample
};

// A node, its pods and the strategy; CpuEvictTest is this as a fixture, and table cases make
// their own.
struct CpuEvictBench {
  CpuEvictBench() : strategy_({}, log::Logger(), &f_.registry) {
    f_.node = makeNode();
    f_.node_slo = makeNodeSLO(satisfactionSection());
    f_.shared.be_cpuset = cpuset::CpuSet::range(0, 1);  // suppress gave BE 2 CPUs
  }

  void setPods(const std::vector<BEPod>& pods) {
    std::vector<std::shared_ptr<const api::core::Pod>> list;
    for (const BEPod& pod : pods) {
      list.push_back(makePod(pod.spec));
    }
    f_.setPods(list);
    pods_ = pods;
  }

  // `count` samples of every pod, one a second, the newest now; the clock ends `count - 1` s on.
  void sampleFor(size_t count) {
    for (size_t i = 0; i < count; ++i) {
      if (i > 0) {
        f_.clock.advance(1s);
      }
      for (const BEPod& pod : pods_) {
        f_.sample(MetricKind::kPodCpu, "uid-" + pod.spec.name, pod.cores);
      }
    }
  }

  Status run() { return strategy_.run(f_.context()); }

  // Request 8 cores (4 + 2 + 2) against a real limit of 2: satisfaction 0.25 <= 0.40; usage
  // 1.95 of 2 cores (97.5%) >= 90%: release 8 * (0.60 - 0.25) = 2.8 cores of requests.
  void unsatisfiedNode() {
    setPods({{{.name = "a", .priority = 5500, .batch_cpu_request = 4000}, 1.0},
             {{.name = "b", .priority = 5500, .batch_cpu_request = 2000}, 0.5},
             {{.name = "c", .priority = 5000, .batch_cpu_request = 2000}, 0.45},
             {{.name = "ls",
               .priority = 5000,
               .qos = "LS",
               .kube_qos = "Burstable",
               .batch_cpu_request = 8000},
              6.0}});
  }

  EvictFixture f_;
  CpuEvict strategy_;
  std::vector<BEPod> pods_;
};

class CpuEvictTest : public ::testing::Test, public CpuEvictBench {};

TEST_F(CpuEvictTest, EvictsLowestPriorityThenLargestRequestUntilTheReleaseIsMet) {
  unsatisfiedNode();
  sampleFor(10);
  {
    InSequence in_order;
    EXPECT_CALL(f_.client, evict("batch", "c", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(f_.client, evict("batch", "a", _)).WillOnce(Return(Status::ok()));
  }
  EXPECT_CALL(f_.client, evict("batch", "b", _)).Times(0);
  EXPECT_CALL(f_.client, evict("batch", "ls", _)).Times(0);
  ASSERT_TRUE(run().isOk());

  ASSERT_EQ(f_.events.size(), 2u);
  EXPECT_EQ(f_.events[0].reason, "EvictPodByBECPUSatisfaction");
  EXPECT_EQ(f_.events[0].message,
            "Evicted by koord-agent: BE CPU satisfaction 0.25 (real limit 2 cores from the "
            "suppress cpuset / requests 8 cores) <= lower 0.40 and BE uses 97% of the real limit "
            "over 10 s (>= 90%), releasing 2.8 cores of requests to reach 0.60; this pod: "
            "batch-cpu request 2 cores, cpu usage 0.45 cores");
  EXPECT_THAT(metricLines(f_.registry, "koord_agent_evictions_total"),
              ElementsAre(R"(koord_agent_evictions_total{reason="EvictPodByBECPUSatisfaction",)"
                          R"(result="evicted"} 2)"));
  const std::string metrics = f_.registry.serialize();
  EXPECT_THAT(metrics, HasSubstr("koord_agent_be_cpu_satisfaction 0.25"));
  EXPECT_THAT(metrics, HasSubstr("koord_agent_be_cpu_real_limit_cores 2"));
  EXPECT_THAT(metrics, HasSubstr("koord_agent_be_cpu_evict_release_cores 2.8"));

  const api::Json state = strategy_.debugState();
  EXPECT_EQ(state["decision"], "evicted 2 pod(s)");
  EXPECT_EQ(state["request_milli"], 8000);
  EXPECT_EQ(state["real_limit_milli"], 2000);
  EXPECT_EQ(state["usage_window_milli"], 1950);
  EXPECT_EQ(state["usage_window_samples"], 10);
  EXPECT_EQ(state["release_milli"], 2800);
  EXPECT_EQ(state["candidates"].size(), 3u);
  EXPECT_EQ(state["outcomes"].size(), 2u);
  EXPECT_EQ(state["last_eviction"]["released_milli"], 6000);
}

TEST_F(CpuEvictTest, WindowNeedsAThirdOfItsSamples) {
  // A 30 s window needs 10 samples.
  for (size_t samples : {9u, 10u}) {
    SCOPED_TRACE(samples);
    EvictFixture f;
    f.node = makeNode();
    f.node_slo = makeNodeSLO(satisfactionSection(30));
    f.shared.be_cpuset = cpuset::CpuSet::range(0, 1);
    f.setPods({makePod({.name = "a", .batch_cpu_request = 8000})});
    for (size_t i = 0; i < samples; ++i) {
      if (i > 0) {
        f.clock.advance(1s);
      }
      f.sample(MetricKind::kPodCpu, "uid-a", 1.9);
    }
    EXPECT_CALL(f.client, evict("batch", "a", _)).Times(samples >= 10 ? 1 : 0);
    CpuEvict strategy({}, log::Logger(), nullptr);
    ASSERT_TRUE(strategy.run(f.context()).isOk());
    EXPECT_EQ(strategy.debugState()["window_valid"], samples >= 10);
    if (samples < 10) {
      EXPECT_EQ(strategy.debugState()["decision"],
                "skipped: 9 CPU sample(s) in the 30 s window, fewer than a third of it");
    }
  }
}

TEST_F(CpuEvictTest, NothingWhenSatisfiedOrBENotUsingItsLimit) {
  struct Case {
    std::string name;
    std::function<void(CpuEvictBench&)> setup;
    std::string decision;
  };
  const std::vector<Case> cases = {
      {"satisfaction 0.5 above lower 0.4",
       [](CpuEvictBench& t) {
         t.f_.shared.be_cpuset = cpuset::CpuSet::range(0, 3);  // 4 of 8 requested
         t.setPods({{{.name = "a", .batch_cpu_request = 8000}, 3.9}});
         t.sampleFor(10);
       },
       "satisfaction above the lower percent"},
      {"BE uses 75% of its limit over the window",
       [](CpuEvictBench& t) {
         t.setPods({{{.name = "a", .batch_cpu_request = 8000}, 1.5}});
         t.sampleFor(10);
       },
       "BE usage over the window below the usage threshold"},
      {"high over the window, low now",
       [](CpuEvictBench& t) {
         t.setPods({{{.name = "a", .batch_cpu_request = 8000}, 2.0}});
         t.sampleFor(9);
         t.f_.clock.advance(1s);
         t.f_.sample(MetricKind::kPodCpu, "uid-a", 1.0);  // avg 1.9, now 1.0
       },
       "BE usage now below the usage threshold"},
      {"no sample in the last two intervals",
       [](CpuEvictBench& t) {
         t.setPods({{{.name = "a", .batch_cpu_request = 8000}, 2.0}});
         t.sampleFor(8);
         t.f_.clock.advance(3s);
       },
       "skipped: no BE CPU sample in the last 2000 ms"},
      {"no sample at all",
       [](CpuEvictBench& t) {
         t.setPods({{{.name = "a", .batch_cpu_request = 8000}, 2.0}});
       },
       "skipped: 0 CPU sample(s) in the 10 s window, fewer than a third of it"},
      {"no real limit known",
       [](CpuEvictBench& t) {
         t.f_.shared.be_cpuset.reset();
         t.setPods({{{.name = "a", .batch_cpu_request = 8000}, 2.0}});
         t.sampleFor(10);
       },
       "skipped: BE real limit unknown (no suppress decision, no BE pool)"},
      {"no batch-cpu request",
       [](CpuEvictBench& t) {
         t.setPods({{{.name = "a"}, 2.0}});
         t.sampleFor(10);
       },
       "no Running BE pod requests kubernetes.io/batch-cpu"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    CpuEvictBench t;
    c.setup(t);
    EXPECT_CALL(t.f_.client, evict(_, _, _)).Times(0);
    ASSERT_TRUE(t.run().isOk());
    EXPECT_EQ(t.strategy_.debugState()["decision"], c.decision);
  }
}

TEST_F(CpuEvictTest, RealLimitFromQuotaOrPool) {
  struct Case {
    std::string name;
    std::optional<cpuset::CpuSet> be_cpuset;
    std::optional<int64_t> quota;
    cpuset::CpuSet pool;
    double usage;
    bool evicts;
  };
  const std::vector<Case> cases = {
      {"quota 2 cores, used", std::nullopt, 200000, {}, 1.9, true},
      {"quota 2 cores, idle", std::nullopt, 200000, {}, 1.0, false},
      {"quota under a core counts as used whatever the usage", std::nullopt, 50000, {}, 0.01, true},
      {"BE pool of 2", std::nullopt, std::nullopt, cpuset::CpuSet::range(4, 5), 1.9, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    CpuEvictBench t;
    t.f_.shared.be_cpuset = c.be_cpuset;
    t.f_.shared.be_cfs_quota_us = c.quota;
    t.f_.cpus.be_pool = c.pool;
    t.setPods({{{.name = "a", .batch_cpu_request = 8000}, c.usage}});
    t.sampleFor(10);
    EXPECT_CALL(t.f_.client, evict("batch", "a", _)).Times(c.evicts ? 1 : 0);
    ASSERT_TRUE(t.run().isOk());
  }
}

TEST_F(CpuEvictTest, CoolsDownTwentySecondsAfterAnEviction) {
  unsatisfiedNode();
  sampleFor(10);
  EXPECT_CALL(f_.client, evict(_, _, _)).Times(2);
  ASSERT_TRUE(run().isOk());
  ::testing::Mock::VerifyAndClearExpectations(&f_.client);

  // c and a are gone; b alone is still unsatisfied (2 requested of 0.5 core limit).
  f_.shared.be_cpuset.reset();
  f_.shared.be_cfs_quota_us = 50000;
  setPods({{{.name = "b", .priority = 5500, .batch_cpu_request = 2000}, 0.5}});
  sampleFor(19);  // 18 s on
  EXPECT_CALL(f_.client, evict(_, _, _)).Times(0);
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["decision"], "cooling after the last eviction");
  f_.clock.advance(1s);
  f_.sample(MetricKind::kPodCpu, "uid-b", 0.5);
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["cooling_left_ms"], 1000);
  ::testing::Mock::VerifyAndClearExpectations(&f_.client);

  f_.clock.advance(1s);
  f_.sample(MetricKind::kPodCpu, "uid-b", 0.5);
  EXPECT_CALL(f_.client, evict("batch", "b", _)).WillOnce(Return(Status::ok()));
  ASSERT_TRUE(run().isOk());
}

TEST_F(CpuEvictTest, EvictEnabledPriorityThresholdProtectsHigherPriorities) {
  api::slo::ResourceThresholdStrategy section = satisfactionSection();
  section.evictEnabledPriorityThreshold = 5000;
  f_.node_slo = makeNodeSLO(section);
  unsatisfiedNode();
  sampleFor(10);
  // Only c (5000) may go, though 2 cores do not meet the 2.8 to release.
  EXPECT_CALL(f_.client, evict("batch", "c", _)).WillOnce(Return(Status::ok()));
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["candidates"].size(), 1u);
  // The request still counts every Running BE pod.
  EXPECT_EQ(strategy_.debugState()["request_milli"], 8000);
}

TEST_F(CpuEvictTest, BadConfigIsInvalidArgumentAndEvictsNothing) {
  api::slo::ResourceThresholdStrategy section = satisfactionSection();
  section.cpuEvictBESatisfactionUpperPercent = 30;  // below lower 40
  f_.node_slo = makeNodeSLO(section);
  unsatisfiedNode();
  sampleFor(10);
  EXPECT_CALL(f_.client, evict(_, _, _)).Times(0);
  Status status = run();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("cpuEvictBESatisfactionUpperPercent (30)"));
  EXPECT_EQ(strategy_.debugState()["decision"], "invalid configuration: nothing evicted");
}

TEST_F(CpuEvictTest, AllocatablePolicyReleasesBatchRequestsAboveLower) {
  api::slo::ResourceThresholdStrategy section;
  section.enable = true;
  section.cpuEvictPolicy = api::slo::CPUEvictPolicy::kEvictByAllocatable;
  section.cpuAllocatableEvictThresholdPercent = 100;
  section.cpuAllocatableEvictLowerPercent = 90;
  section.allocatableEvictPriorityThreshold = 5999;
  f_.node_slo = makeNodeSLO(section);
  f_.node = makeNode(/*batch_cpu_milli=*/10000);
  // 2 + 6 + 4 + 1 (pending) = 13 cores = 130% of 10; release 13 - 9 = 4 cores.
  f_.setPods(
      {makePod({.name = "two", .priority = 5000, .batch_cpu_request = 2000}),
       makePod({.name = "six", .priority = 5500, .batch_cpu_request = 6000}),
       makePod({.name = "four", .priority = 5500, .batch_cpu_request = 4000}),
       makePod(
           {.name = "pending", .priority = 5000, .phase = "Pending", .batch_cpu_request = 1000}),
       makePod({.name = "done", .phase = "Failed", .batch_cpu_request = 8000}),
       makePod({.name = "mid", .priority = 7000, .batch_cpu_request = 8000})});
  {
    InSequence in_order;
    EXPECT_CALL(f_.client, evict("batch", "two", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(f_.client, evict("batch", "six", _)).WillOnce(Return(Status::ok()));
  }
  ASSERT_TRUE(run().isOk());
  ASSERT_EQ(f_.events.size(), 2u);
  EXPECT_EQ(f_.events[0].reason, "EvictPodByBECPUAllocatable");
  EXPECT_EQ(f_.events[0].message,
            "Evicted by koord-agent: BE batch-cpu requests 130% of allocatable > threshold 100%, "
            "releasing 4 cores of requests to reach 90% (13 cores requested of 10 cores "
            "allocatable); this pod: batch-cpu request 2 cores");
  EXPECT_EQ(strategy_.debugState()["requested_milli"], 13000);
  EXPECT_EQ(strategy_.debugState()["release_milli"], 4000);
  EXPECT_THAT(f_.registry.serialize(), HasSubstr("koord_agent_be_cpu_allocatable_percent 130"));
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_evict
