// The CPUSuppress strategy over mocks: the exact cgroup updates it hands the executor under each
// policy, the shared decisions, the metrics and debugState, policy switches and turning it off,
// bad settings and vanished cgroups.
#include "agent/qosmanager/strategies/cpu_suppress/cpu_suppress.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "agent/qosmanager/framework/scheduler.hpp"
#include "test/unit/agent/qosmanager/strategies/cpu_suppress/cpu_suppress_test_support.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

using ::testing::_;
using testing::describe;
using ::testing::DoAll;
using ::testing::ElementsAre;
using ::testing::Return;
using ::testing::SaveArg;
using namespace std::chrono_literals;
using Updates = std::vector<resourceexecutor::ResourceUpdate>;
using Policy = api::slo::CPUSuppressPolicy;

// The value of an unlabelled gauge; NaN when absent.
double gauge(const metrics::MetricsRegistry& registry, std::string_view name) {
  std::istringstream lines(registry.serialize());
  const std::string prefix = std::string(name) + " ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) {
      return std::stod(line.substr(prefix.size()));
    }
  }
  return std::nan("");
}

// A 16-CPU node (2 sockets × 4 cores × 2 threads) with a BE pod, an LS pod and an LSR pod pinned
// to core 0 (CPUs 0 and 8); suppress on with the given policy.
class CpuSuppressTest : public ::testing::Test {
 protected:
  void SetUp() override {
    f.topology = testing::smtTopology(2, 4, 2);
    f.cpus.online = cpuset::CpuSet::range(0, 15);
    f.cpus.be_pool = cpuset::CpuSet::range(0, 15);
    f.setPods(
        {testing::lsPod("ls1"), testing::bePod("be1"), testing::pinnedPod("lsr1", "LSR", "0,8")});
    f.slo = testing::makeSlo(true, Policy::kCPUSet);
  }

  // One second later: new samples. LS uses `ls` cores, BE 1.5, the system 0.5.
  void nextSecond(double ls) {
    f.now += 1s;
    f.clock.advance(1s);
    f.usage(ls + 1.5 + 0.5, {{"ls1", ls}, {"be1", 1.5}});
  }

  // Runs once and returns the batch the executor was given (none: empty).
  Updates runOnce(Status want = Status::ok()) {
    Updates got;
    EXPECT_CALL(f.executor, updateBatch(_))
        .Times(::testing::AtMost(1))
        .WillOnce(DoAll(SaveArg<0>(&got), Return(Status::ok())));
    auto context = f.context();
    EXPECT_EQ(strategy.run(context), want);
    ::testing::Mock::VerifyAndClearExpectations(&f.executor);
    return got;
  }

  testing::SuppressFixture f;
  metrics::MetricsRegistry registry;
  CpuSuppress strategy{CpuSuppressOptions{}, log::Logger(), &registry};
};

TEST_F(CpuSuppressTest, NameIntervalAndEnabled) {
  EXPECT_EQ(strategy.name(), "CPUSuppress");
  EXPECT_EQ(strategy.interval(), Clock::Duration(1s));
  EXPECT_FALSE(strategy.runsOnStateChange());
  EXPECT_FALSE(strategy.enabled(nullptr));
  api::slo::NodeSLO without_section;
  EXPECT_TRUE(strategy.enabled(&without_section));  // runs, to reset what it wrote
  EXPECT_TRUE(strategy.enabled(testing::makeSlo(false, Policy::kCPUSet).get()));
}

TEST_F(CpuSuppressTest, CpusetPolicyWritesQosPodAndContainerDirsInOneBatch) {
  nextSecond(6.0);
  // 16 × 65% = 10400m − LS 6000m − system 500m = 3900m: 4 CPUs, among 0-15 less the LSR's 0,8.
  // Socket 1 keeps more candidates, so its first core (4,12) comes first, then socket 0's (1,9).
  const Updates got = runOnce();
  EXPECT_THAT(describe(got), ElementsAre("cpuset_cpus kubepods/besteffort 1,4,9,12",
                                         "cpuset_cpus kubepods/besteffort/podbe1 1,4,9,12",
                                         "cpuset_cpus kubepods/besteffort/podbe1/cbe1 1,4,9,12",
                                         // the first run undoes a quota a previous agent left
                                         "cpu_cfs_quota kubepods/besteffort -1"));
  EXPECT_NE(got[0].reason.find("3900m"), std::string::npos) << got[0].reason;
  ASSERT_TRUE(f.shared.be_cpuset.has_value());
  EXPECT_EQ(f.shared.be_cpuset->toString(), "1,4,9,12");
  EXPECT_FALSE(f.shared.be_cfs_quota_us.has_value());
  EXPECT_EQ(gauge(registry, CpuSuppress::kCpusMetric), 4);
  EXPECT_EQ(gauge(registry, CpuSuppress::kQuotaMetric), -1);
  EXPECT_EQ(gauge(registry, CpuSuppress::kMilliMetric), 3900);

  const api::Json debug = strategy.debugState();
  EXPECT_EQ(debug["policy"], "cpuset");
  EXPECT_EQ(debug["capacity_milli"], 16000);
  EXPECT_EQ(debug["threshold_percent"], 65);
  EXPECT_EQ(debug["ls_usage_milli"], 6000);
  EXPECT_EQ(debug["system_usage_milli"], 500);
  EXPECT_EQ(debug["be_usage_milli"], 1500);
  EXPECT_EQ(debug["suppress_milli"], 3900);
  EXPECT_EQ(debug["be_cpus"], 4);
  EXPECT_EQ(debug["be_cpuset"], "1,4,9,12");
  EXPECT_EQ(debug["candidates"], "1-7,9-15");
  EXPECT_EQ(debug["reset"], true);
  EXPECT_EQ(debug["status"], "ok");
}

TEST_F(CpuSuppressTest, IncreaseIsSteppedAndDecreaseImmediate) {
  nextSecond(6.0);
  EXPECT_EQ(runOnce().size(), 4u);  // 4 CPUs
  struct Step {
    double ls;
    const char* want;
  };
  // LS leaves: 9900m would be 10 CPUs; ceil(10% × 16) = 2 more per second. Then LS is back at
  // 9 cores: 900m, 2 CPUs at once.
  const Step steps[] = {{0, "1,4-5,9,12-13"},
                        {0, "1-2,4-5,9-10,12-13"},
                        {0, "1-2,4-6,9-10,12-14"},
                        {0, "1-2,4-6,9-10,12-14"},
                        {9.0, "4,12"}};
  for (const Step& step : steps) {
    SCOPED_TRACE(step.want);
    nextSecond(step.ls);
    const Updates got = runOnce();
    // The quota was undone on the first run: only the three cpusets now.
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(describe(got[0]), std::string("cpuset_cpus kubepods/besteffort ") + step.want);
    EXPECT_EQ(f.shared.be_cpuset->toString(), step.want);
  }
}

TEST_F(CpuSuppressTest, NodeReservationIsSubtractedWhenAboveSystemUsage) {
  // The annotation reserves 2 cores (above system usage 0.5 and kubelet reservation 1):
  // 10400 − 6000 − 2000 = 2400m: 3 CPUs.
  f.node = testing::makeNode(16000, 15000);
  f.node->metadata.annotations[std::string(api::kAnnotationNodeReservation)] =
      R"({"resources":{"cpu":"2"}})";
  nextSecond(6.0);
  runOnce();
  EXPECT_EQ(strategy.debugState()["suppress_milli"], 2400);
  EXPECT_EQ(strategy.debugState()["node_reserved_milli"]["annotation"], 2000);
  EXPECT_EQ(strategy.debugState()["node_reserved_milli"]["kubelet"], 1000);
  EXPECT_EQ(f.shared.be_cpuset->size(), 3u);

  // Kubelet reservation only (capacity 16, allocatable 14.5): 10400 − 6000 − 1500 = 2900m.
  f.node = testing::makeNode(16000, 14500);
  nextSecond(6.0);
  runOnce();
  EXPECT_EQ(strategy.debugState()["suppress_milli"], 2900);
}

TEST_F(CpuSuppressTest, MinPercentFloorsTheFigure) {
  f.slo = testing::makeSlo(true, Policy::kCPUSet, 65, 30);
  nextSecond(12.0);  // 10400 − 12000 − 500 < 0; floor 30% of 16 = 4800m: 5 CPUs
  runOnce();
  EXPECT_EQ(strategy.debugState()["suppress_milli"], 4800);
  EXPECT_EQ(strategy.debugState()["floored"], true);
  EXPECT_EQ(f.shared.be_cpuset->size(), 5u);
}

TEST_F(CpuSuppressTest, PodsLeftOutOfTheListCountAsLsAndKubeBestEffortAsBe) {
  // "gone" has usage but no pod object: non-BE. "ls-be" is labelled LS but kube BestEffort:
  // koordlet counts it as BE (and its cgroup lives under besteffort, so it is written too).
  f.setPods({testing::bePod("be1"), testing::makePod("lsbe", "LS", "BestEffort")});
  f.now += 1s;
  f.usage(5.0, {{"gone", 2.0}, {"lsbe", 1.0}, {"be1", 1.5}});
  // 10400 − 2000 − 500 = 7900m: 8 CPUs, whole cores alternating between the sockets.
  const Updates got = runOnce();
  EXPECT_EQ(strategy.debugState()["ls_usage_milli"], 2000);
  EXPECT_EQ(strategy.debugState()["be_usage_milli"], 2500);
  EXPECT_EQ(strategy.debugState()["system_usage_milli"], 500);
  EXPECT_THAT(describe(got),
              ElementsAre("cpuset_cpus kubepods/besteffort 0-1,4-5,8-9,12-13",
                          "cpuset_cpus kubepods/besteffort/podbe1 0-1,4-5,8-9,12-13",
                          "cpuset_cpus kubepods/besteffort/podbe1/cbe1 0-1,4-5,8-9,12-13",
                          "cpuset_cpus kubepods/besteffort/podlsbe 0-1,4-5,8-9,12-13",
                          "cpuset_cpus kubepods/besteffort/podlsbe/clsbe 0-1,4-5,8-9,12-13",
                          "cpu_cfs_quota kubepods/besteffort -1"));
}

TEST_F(CpuSuppressTest, CfsQuotaPolicyWritesTheQosQuotaAndResetsCpusetsOnce) {
  f.slo = testing::makeSlo(true, Policy::kCFSQuota);
  nextSecond(6.0);
  // 3900m × 100000/1000 = 390000 on the BE QoS dir; the cpusets go back to the BE pool once.
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpu_cfs_quota kubepods/besteffort 390000",
                                               "cpuset_cpus kubepods/besteffort 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1/cbe1 0-15"));
  EXPECT_EQ(f.shared.be_cfs_quota_us, 390000);
  EXPECT_FALSE(f.shared.be_cpuset.has_value());
  EXPECT_EQ(gauge(registry, CpuSuppress::kCpusMetric), 0);
  EXPECT_EQ(gauge(registry, CpuSuppress::kQuotaMetric), 3.9);
  EXPECT_EQ(strategy.debugState()["be_cfs_quota_us"], 390000);

  // 6.1 cores of LS: 380000, less than 1% of the node (16000) away: nothing written.
  nextSecond(6.1);
  EXPECT_TRUE(runOnce().empty());
  EXPECT_EQ(strategy.debugState()["skipped"],
            "quota change -10000 is below 1% of the node (16000)");
  EXPECT_EQ(f.shared.be_cfs_quota_us, 390000);

  // LS leaves: 990000 wanted, +160000 (10% of 16 cores) per run.
  nextSecond(0);
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpu_cfs_quota kubepods/besteffort 550000"));
  nextSecond(0);
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpu_cfs_quota kubepods/besteffort 710000"));
  // LS is back: down at once, to the 2000 minimum.
  nextSecond(12.0);
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpu_cfs_quota kubepods/besteffort 2000"));
  EXPECT_EQ(f.shared.be_cfs_quota_us, 2000);
  EXPECT_EQ(gauge(registry, CpuSuppress::kQuotaMetric), 0.02);
}

TEST_F(CpuSuppressTest, SwitchingPoliciesUndoesWhatTheOtherWrote) {
  nextSecond(6.0);
  runOnce();  // cpuset: 1,4,9,12 (and the quota undone)
  f.slo = testing::makeSlo(true, Policy::kCFSQuota);
  nextSecond(6.0);
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpu_cfs_quota kubepods/besteffort 390000",
                                               "cpuset_cpus kubepods/besteffort 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1/cbe1 0-15"));
  EXPECT_FALSE(f.shared.be_cpuset.has_value());
  EXPECT_EQ(f.shared.be_cfs_quota_us, 390000);

  f.slo = testing::makeSlo(true, Policy::kCPUSet);
  nextSecond(6.0);
  EXPECT_THAT(describe(runOnce()),
              ElementsAre("cpuset_cpus kubepods/besteffort 1,4,9,12",
                          "cpuset_cpus kubepods/besteffort/podbe1 1,4,9,12",
                          "cpuset_cpus kubepods/besteffort/podbe1/cbe1 1,4,9,12",
                          "cpu_cfs_quota kubepods/besteffort -1"));
  EXPECT_FALSE(f.shared.be_cfs_quota_us.has_value());
  EXPECT_EQ(f.shared.be_cpuset->toString(), "1,4,9,12");
  // Back under cfsQuota, the quota starts from unlimited again: written at once, unstepped.
  f.slo = testing::makeSlo(true, Policy::kCFSQuota);
  nextSecond(0);
  EXPECT_EQ(describe(runOnce()).front(), "cpu_cfs_quota kubepods/besteffort 990000");
}

TEST_F(CpuSuppressTest, TurningItOffResetsOnceAndClearsTheSharedDecisions) {
  nextSecond(6.0);
  runOnce();
  ASSERT_TRUE(f.shared.be_cpuset.has_value());
  f.slo = testing::makeSlo(false, Policy::kCPUSet);
  nextSecond(6.0);
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpuset_cpus kubepods/besteffort 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1/cbe1 0-15"));
  EXPECT_FALSE(f.shared.be_cpuset.has_value());
  EXPECT_FALSE(f.shared.be_cfs_quota_us.has_value());
  EXPECT_EQ(strategy.debugState()["enabled"], false);
  EXPECT_EQ(strategy.debugState()["reset"], true);
  EXPECT_EQ(gauge(registry, CpuSuppress::kCpusMetric), 0);
  EXPECT_EQ(gauge(registry, CpuSuppress::kQuotaMetric), -1);
  // Once: the next runs write nothing.
  nextSecond(6.0);
  EXPECT_TRUE(runOnce().empty());
  EXPECT_EQ(strategy.debugState()["reset"], false);
  // A NodeSLO without the section is off too; nothing left to undo.
  f.slo = std::make_shared<api::slo::NodeSLO>();
  EXPECT_TRUE(runOnce().empty());
}

TEST_F(CpuSuppressTest, OffAtStartUndoesBothPolicies) {
  f.slo = testing::makeSlo(false, Policy::kCFSQuota);
  EXPECT_THAT(describe(runOnce()), ElementsAre("cpuset_cpus kubepods/besteffort 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1 0-15",
                                               "cpuset_cpus kubepods/besteffort/podbe1/cbe1 0-15",
                                               "cpu_cfs_quota kubepods/besteffort -1"));
}

TEST_F(CpuSuppressTest, BadSettingsAreRefusedAndNothingIsWritten) {
  f.shared.be_cpuset = cpuset::CpuSet::parse("4,12").value();
  f.slo = testing::makeSlo(true, Policy::kCPUSet, 65, 80);
  nextSecond(6.0);
  EXPECT_CALL(f.executor, updateBatch(_)).Times(0);
  EXPECT_CALL(f.executor, update(_)).Times(0);
  auto context = f.context();
  Status status = strategy.run(context);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("cpuSuppressMinPercent"), std::string::npos) << status.message();
  EXPECT_EQ(f.shared.be_cpuset->toString(), "4,12");  // untouched
  EXPECT_NE(strategy.debugState()["status"].get<std::string>().find("cpuSuppressMinPercent"),
            std::string::npos);
}

TEST_F(CpuSuppressTest, VanishedPodCgroupIsNotAFailure) {
  nextSecond(6.0);
  EXPECT_CALL(f.executor, updateBatch(_))
      .WillOnce(Return(Status::notFound(
          "failed to apply 1 of 4 updates: failed to write "
          "'/sys/fs/cgroup/cpuset/kubepods/besteffort/podbe1/cbe1/cpuset.cpus': No such file")));
  auto context = f.context();
  EXPECT_TRUE(strategy.run(context).isOk());
  EXPECT_EQ(f.shared.be_cpuset->toString(), "1,4,9,12");
  EXPECT_TRUE(strategy.debugState().contains("vanished"));
}

TEST_F(CpuSuppressTest, OtherExecutorFailuresFailTheRunAndKeepTheDecisions) {
  nextSecond(6.0);
  EXPECT_CALL(f.executor, updateBatch(_))
      .WillOnce(Return(Status::permissionDenied("refusing to write")));
  auto context = f.context();
  EXPECT_EQ(strategy.run(context).code(), StatusCode::kPermissionDenied);
  EXPECT_FALSE(f.shared.be_cpuset.has_value());
  // The next run tries again, the quota reset included.
  nextSecond(6.0);
  EXPECT_EQ(runOnce().size(), 4u);
}

TEST_F(CpuSuppressTest, SkipsWithoutFreshNodeUsageOrNode) {
  EXPECT_TRUE(runOnce().empty());  // no samples at all
  EXPECT_EQ(strategy.debugState()["skipped"], "no node CPU usage sample in the last 2000 ms");
  f.usage(8.0, {{"ls1", 6.0}});
  f.now += 3s;  // the samples are now 3 s old
  EXPECT_TRUE(runOnce().empty());
  EXPECT_TRUE(strategy.debugState().contains("skipped"));
  f.node = nullptr;
  nextSecond(6.0);
  EXPECT_TRUE(runOnce().empty());
  EXPECT_EQ(strategy.debugState()["skipped"], "no Node yet");
}

TEST_F(CpuSuppressTest, NoCandidatesLeftIsASkip) {
  f.setPods({testing::bePod("be1"), testing::pinnedPod("lse1", "LSE", "0-15")});
  nextSecond(6.0);
  EXPECT_TRUE(runOnce().empty());
  EXPECT_EQ(strategy.debugState()["skipped"], "no CPU left for BE outside LSE/LSR pods");
}

// Through the scheduler on the fake clock: every second, not in between.
TEST_F(CpuSuppressTest, RunsEverySecondUnderTheScheduler) {
  std::vector<std::unique_ptr<framework::Strategy>> list;
  list.push_back(std::make_unique<CpuSuppress>(CpuSuppressOptions{}, log::Logger(), nullptr));
  auto scheduler = framework::Scheduler::create(std::move(list), f.clock, {}, nullptr);
  ASSERT_TRUE(scheduler.ok());
  EXPECT_CALL(f.executor, updateBatch(_)).Times(2).WillRepeatedly(Return(Status::ok()));
  nextSecond(6.0);
  auto context = f.context();
  EXPECT_THAT((*scheduler)->runDue(context, false).ran, ElementsAre("CPUSuppress"));
  f.clock.advance(500ms);
  EXPECT_TRUE((*scheduler)->runDue(context, true).ran.empty());
  f.clock.advance(500ms);
  EXPECT_THAT((*scheduler)->runDue(context, false).ran, ElementsAre("CPUSuppress"));
  EXPECT_EQ(f.shared.be_cpuset->size(), 4u);
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
