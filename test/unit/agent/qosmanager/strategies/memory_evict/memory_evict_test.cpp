#include "agent/qosmanager/strategies/memory_evict/memory_evict.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "koord/k8s/errors.hpp"
#include "test/unit/agent/qosmanager/strategies/memory_evict/evict_test_support.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {
namespace {

using metriccache::MetricKind;
using qosmanager::testing::EvictFixture;
using qosmanager::testing::kGiB;
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

std::shared_ptr<const api::core::Node> makeNode(int64_t memory_capacity,
                                                std::optional<int64_t> batch_memory = {}) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-1";
  node->status.capacity["memory"] =
      resource::Quantity::fromInt(memory_capacity, resource::QuantityFormat::kBinarySI);
  if (batch_memory) {
    node->status.allocatable[std::string(api::kResourceBatchMemory)] =
        resource::Quantity::fromInt(*batch_memory, resource::QuantityFormat::kBinarySI);
  }
  return node;
}

api::slo::ResourceThresholdStrategy usageSection(int64_t threshold,
                                                 std::optional<int64_t> lower = std::nullopt) {
  api::slo::ResourceThresholdStrategy out;
  out.enable = true;
  out.memoryEvictThresholdPercent = threshold;
  out.memoryEvictLowerPercent = lower;
  return out;
}

class MemoryEvictTest : public ::testing::Test {
 protected:
  MemoryEvictTest() : strategy_({}, log::Logger(), &f_.registry) {
    f_.node = makeNode(100 * kGiB);
    f_.node_slo = makeNodeSLO(usageSection(70));
  }

  // Pods with their working sets (a negative value: no sample).
  void pods(const std::vector<std::pair<PodSpec, double>>& pods) {
    std::vector<std::shared_ptr<const api::core::Pod>> list;
    for (const auto& [spec, working_set] : pods) {
      list.push_back(makePod(spec));
      if (working_set >= 0) {
        f_.sample(MetricKind::kPodMemory, "uid-" + spec.name, working_set);
      }
    }
    f_.setPods(list);
  }

  Status run() { return strategy_.run(f_.context()); }

  EvictFixture f_;
  MemoryEvict strategy_;
};

TEST_F(MemoryEvictTest, EvictsLowestPriorityThenLargestUntilTheReleaseIsMet) {
  // 92 GiB of 100 GiB used, threshold 70%, lower 68%: release 100 GiB * 24% = 24 GiB.
  f_.sample(MetricKind::kNodeMemory, "", 92.0 * kGiB);
  pods({{{.name = "mid", .priority = 5500}, 10.0 * kGiB},
        {{.name = "big", .priority = 5500}, 20.0 * kGiB},
        {{.name = "free", .priority = 3000}, 1.0 * kGiB},
        {{.name = "small", .priority = 5500}, 5.0 * kGiB},
        {{.name = "ls-hog", .priority = 5500, .qos = "LS", .kube_qos = "Burstable"}, 40.0 * kGiB},
        {{.name = "pending", .priority = 1000, .phase = "Pending"}, 30.0 * kGiB}});
  {
    InSequence in_order;
    EXPECT_CALL(f_.client, evict("batch", "free", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(f_.client, evict("batch", "big", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(f_.client, evict("batch", "mid", _)).WillOnce(Return(Status::ok()));
  }
  EXPECT_CALL(f_.client, evict("batch", "small", _)).Times(0);
  EXPECT_CALL(f_.client, evict("batch", "ls-hog", _)).Times(0);
  EXPECT_CALL(f_.client, evict("batch", "pending", _)).Times(0);

  ASSERT_TRUE(run().isOk());

  ASSERT_EQ(f_.events.size(), 3u);
  EXPECT_EQ(f_.events[0].pod, "batch/free");
  EXPECT_EQ(f_.events[0].reason, "EvictPodByNodeMemoryUsage");
  EXPECT_EQ(f_.events[0].message,
            "Evicted by koord-agent: node memory usage 92% >= threshold 70%, releasing 24 GiB "
            "to reach 68% (92 GiB used of 100 GiB); this pod: memory working set 1 GiB");
  EXPECT_THAT(f_.events[1].message, HasSubstr("this pod: memory working set 20 GiB"));
  EXPECT_THAT(metricLines(f_.registry, "koord_agent_evictions_total"),
              ElementsAre(R"(koord_agent_evictions_total{reason="EvictPodByNodeMemoryUsage",)"
                          R"(result="evicted"} 3)"));
  EXPECT_THAT(f_.registry.serialize(), HasSubstr("koord_agent_be_memory_usage_percent 92"));
  EXPECT_THAT(f_.registry.serialize(),
              HasSubstr(R"(koord_agent_be_memory_evict_release_bytes{variant="usage"} )" +
                        std::to_string(24 * kGiB)));

  const api::Json state = strategy_.debugState();
  EXPECT_EQ(state["decision"], "evicted 3 pod(s)");
  EXPECT_EQ(state["usage"]["usage_percent"], 92);
  EXPECT_EQ(state["usage"]["release_bytes"], 24 * kGiB);
  EXPECT_EQ(state["usage"]["candidates"].size(), 4u);  // the BE Running ones
  EXPECT_EQ(state["usage"]["candidates"][0]["pod"], "batch/free");
  EXPECT_EQ(state["usage"]["outcomes"].size(), 3u);
  EXPECT_EQ(state["last_eviction"]["reason"], "EvictPodByNodeMemoryUsage");
  EXPECT_EQ(state["last_eviction"]["released_bytes"], 31 * kGiB);
}

TEST_F(MemoryEvictTest, ThresholdBoundary) {
  struct Case {
    double used;
    bool evicts;
  };
  // 70% is the threshold: reaching it evicts, 69.99% (floored to 69) does not.
  const std::vector<Case> cases = {
      {70.0 * kGiB, true}, {70.0 * kGiB - 1, false}, {50.0 * kGiB, false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.used));
    EvictFixture f;
    f.node = makeNode(100 * kGiB);
    f.node_slo = makeNodeSLO(usageSection(70));
    f.sample(MetricKind::kNodeMemory, "", c.used);
    f.setPods({makePod({.name = "job"})});
    f.sample(MetricKind::kPodMemory, "uid-job", 3.0 * kGiB);
    EXPECT_CALL(f.client, evict("batch", "job", _)).Times(c.evicts ? 1 : 0);
    MemoryEvict strategy({}, log::Logger(), nullptr);
    ASSERT_TRUE(strategy.run(f.context()).isOk());
    EXPECT_EQ(strategy.debugState()["usage"]["decision"],
              c.evicts ? "over the threshold: evicting" : "below the threshold");
  }
}

TEST_F(MemoryEvictTest, CoolsDownFourSecondsAfterAnEviction) {
  // 70% used, lower 68%: 2 GiB to release; each pod alone is enough.
  f_.sample(MetricKind::kNodeMemory, "", 70.0 * kGiB);
  pods({{{.name = "a"}, 3.0 * kGiB}, {{.name = "b"}, 2.5 * kGiB}});
  EXPECT_CALL(f_.client, evict("batch", "a", _)).WillOnce(Return(Status::ok()));
  ASSERT_TRUE(run().isOk());
  ::testing::Mock::VerifyAndClearExpectations(&f_.client);

  // Pod a is gone but the node is still over the threshold: within 4 s nothing more goes.
  f_.clock.advance(3s);
  f_.sample(MetricKind::kNodeMemory, "", 70.0 * kGiB);
  pods({{{.name = "b"}, 2.5 * kGiB}});
  EXPECT_CALL(f_.client, evict(_, _, _)).Times(0);
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["decision"], "cooling after the last eviction");
  EXPECT_EQ(strategy_.debugState()["cooling_left_ms"], 1000);
  ::testing::Mock::VerifyAndClearExpectations(&f_.client);

  f_.clock.advance(1s);
  f_.sample(MetricKind::kNodeMemory, "", 70.0 * kGiB);
  pods({{{.name = "b"}, 2.5 * kGiB}});
  EXPECT_CALL(f_.client, evict("batch", "b", _)).WillOnce(Return(Status::ok()));
  ASSERT_TRUE(run().isOk());
}

TEST_F(MemoryEvictTest, NoCoolingWhenNothingWasEvicted) {
  f_.sample(MetricKind::kNodeMemory, "", 80.0 * kGiB);
  pods({{{.name = "a"}, 3.0 * kGiB}});
  // The eviction is refused (a PodDisruptionBudget): no cooling starts.
  EXPECT_CALL(f_.client, evict("batch", "a", _))
      .WillOnce(
          Return(k8s::apiErrorStatus(429, "", "POST", "/api/v1/namespaces/batch/pods/a/eviction")));
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["usage"]["outcomes"][0]["result"], "refused");

  f_.clock.advance(1s);
  f_.sample(MetricKind::kNodeMemory, "", 80.0 * kGiB);
  pods({{{.name = "a"}, 3.0 * kGiB}, {{.name = "b"}, 2.0 * kGiB}});
  EXPECT_CALL(f_.client, evict("batch", "b", _)).WillOnce(Return(Status::ok()));
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["usage"]["outcomes"][0]["result"], "backing_off");
}

TEST_F(MemoryEvictTest, PodsWithoutASampleGoLastAndReleaseNothing) {
  f_.sample(MetricKind::kNodeMemory, "", 72.0 * kGiB);  // 4 GiB to release
  pods({{{.name = "unmeasured"}, -1}, {{.name = "measured"}, 1.0 * kGiB}});
  {
    InSequence in_order;
    EXPECT_CALL(f_.client, evict("batch", "measured", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(f_.client, evict("batch", "unmeasured", _)).WillOnce(Return(Status::ok()));
  }
  ASSERT_TRUE(run().isOk());
  ASSERT_EQ(f_.events.size(), 2u);
  EXPECT_THAT(f_.events[1].message, HasSubstr("this pod: no recent memory sample"));
}

TEST_F(MemoryEvictTest, EvictEnabledPriorityThresholdProtectsHigherPriorities) {
  api::slo::ResourceThresholdStrategy section = usageSection(70);
  section.evictEnabledPriorityThreshold = 5999;
  f_.node_slo = makeNodeSLO(section);
  f_.sample(MetricKind::kNodeMemory, "", 90.0 * kGiB);  // 22 GiB: more than both pods
  pods({{{.name = "batch", .priority = 5999}, 1.0 * kGiB},
        {{.name = "prod-be", .priority = 9000}, 30.0 * kGiB}});
  EXPECT_CALL(f_.client, evict("batch", "batch", _)).WillOnce(Return(Status::ok()));
  EXPECT_CALL(f_.client, evict("batch", "prod-be", _)).Times(0);
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["usage"]["candidates"].size(), 1u);
}

TEST_F(MemoryEvictTest, BadConfigIsInvalidArgumentAndEvictsNothing) {
  f_.node_slo = makeNodeSLO(usageSection(70, 75));
  f_.sample(MetricKind::kNodeMemory, "", 99.0 * kGiB);
  pods({{{.name = "a"}, 30.0 * kGiB}});
  EXPECT_CALL(f_.client, evict(_, _, _)).Times(0);
  Status status = run();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("memoryEvictLowerPercent (75)"));
  EXPECT_THAT(strategy_.debugState()["status"].get<std::string>(),
              HasSubstr("memoryEvictLowerPercent"));
  EXPECT_EQ(strategy_.debugState()["decision"], "invalid configuration: nothing evicted");
}

TEST_F(MemoryEvictTest, MissingInputsSkipWithoutEvicting) {
  struct Case {
    std::string name;
    std::function<void(EvictFixture&)> setup;
    std::string decision;  // debugState's, or usage's when the run got that far
  };
  const std::vector<Case> cases = {
      {"no node sample", [](EvictFixture&) {},
       "skipped: no node memory sample in the last 2000 ms"},
      {"stale node sample",
       [](EvictFixture& f) { f.sample(MetricKind::kNodeMemory, "", 99.0 * kGiB, 3s); },
       "skipped: no node memory sample in the last 2000 ms"},
      {"no Node",
       [](EvictFixture& f) {
         f.sample(MetricKind::kNodeMemory, "", 99.0 * kGiB);
         f.node = nullptr;
       },
       "skipped: no Node yet"},
      {"no capacity",
       [](EvictFixture& f) {
         f.sample(MetricKind::kNodeMemory, "", 99.0 * kGiB);
         f.node = std::make_shared<api::core::Node>();
       },
       "skipped: the Node has no memory capacity"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EvictFixture f;
    f.node = makeNode(100 * kGiB);
    f.node_slo = makeNodeSLO(usageSection(70));
    f.setPods({makePod({.name = "job"})});
    f.sample(MetricKind::kPodMemory, "uid-job", 50.0 * kGiB);
    c.setup(f);
    EXPECT_CALL(f.client, evict(_, _, _)).Times(0);
    MemoryEvict strategy({}, log::Logger(), nullptr);
    ASSERT_TRUE(strategy.run(f.context()).isOk());
    const api::Json state = strategy.debugState();
    const api::Json decision =
        state.contains("usage") ? state["usage"]["decision"] : state["decision"];
    EXPECT_EQ(decision, c.decision);
  }
}

TEST_F(MemoryEvictTest, AllocatableVariantReleasesBatchRequestsAboveLower) {
  api::slo::ResourceThresholdStrategy section;
  section.enable = true;
  section.memoryAllocatableEvictThresholdPercent = 100;
  section.memoryAllocatableEvictLowerPercent = 90;
  section.allocatableEvictPriorityThreshold = 5999;
  f_.node_slo = makeNodeSLO(section);
  f_.node = makeNode(100 * kGiB, /*batch_memory=*/10 * kGiB);
  // Summed: 2 + 6 + 4 + 1 (pending) = 13 GiB = 130% of 10 GiB; release 13 - 9 = 4 GiB.
  // Not summed: the finished pod, the pod above the priority threshold, the LS pod.
  f_.setPods({makePod({.name = "two", .priority = 5000, .batch_memory_request = 2 * kGiB}),
              makePod({.name = "six", .priority = 5500, .batch_memory_request = 6 * kGiB}),
              makePod({.name = "four", .priority = 5500, .batch_memory_request = 4 * kGiB}),
              makePod({.name = "pending",
                       .priority = 5000,
                       .phase = "Pending",
                       .batch_memory_request = 1 * kGiB}),
              makePod({.name = "done",
                       .priority = 5000,
                       .phase = "Succeeded",
                       .batch_memory_request = 8 * kGiB}),
              makePod({.name = "mid", .priority = 7000, .batch_memory_request = 8 * kGiB}),
              makePod({.name = "ls",
                       .priority = 5000,
                       .qos = "LS",
                       .kube_qos = "Burstable",
                       .batch_memory_request = 8 * kGiB})});
  {
    InSequence in_order;
    EXPECT_CALL(f_.client, evict("batch", "two", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(f_.client, evict("batch", "six", _)).WillOnce(Return(Status::ok()));
  }
  ASSERT_TRUE(run().isOk());
  ASSERT_EQ(f_.events.size(), 2u);
  EXPECT_EQ(f_.events[0].reason, "EvictPodByBEMemoryAllocatable");
  EXPECT_EQ(f_.events[0].message,
            "Evicted by koord-agent: BE batch-memory requests 130% of allocatable > threshold "
            "100%, releasing 4 GiB of requests to reach 90% (13 GiB requested of 10 GiB "
            "allocatable); this pod: batch-memory request 2 GiB");
  const api::Json state = strategy_.debugState();
  EXPECT_EQ(state["allocatable"]["requested_bytes"], 13 * kGiB);
  EXPECT_EQ(state["allocatable"]["release_bytes"], 4 * kGiB);
  EXPECT_EQ(state["allocatable"]["candidates"].size(), 3u);
  EXPECT_FALSE(state.contains("usage"));
  EXPECT_THAT(f_.registry.serialize(), HasSubstr("koord_agent_be_memory_allocatable_percent 130"));
}

TEST_F(MemoryEvictTest, AllocatableVariantWithoutBatchAllocatableSkips) {
  api::slo::ResourceThresholdStrategy section;
  section.enable = true;
  section.memoryAllocatableEvictThresholdPercent = 100;
  f_.node_slo = makeNodeSLO(section);
  f_.setPods({makePod({.name = "a", .batch_memory_request = 2 * kGiB})});
  EXPECT_CALL(f_.client, evict(_, _, _)).Times(0);
  ASSERT_TRUE(run().isOk());
  EXPECT_EQ(strategy_.debugState()["allocatable"]["decision"],
            "skipped: the Node has no kubernetes.io/batch-memory allocatable");
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_evict
