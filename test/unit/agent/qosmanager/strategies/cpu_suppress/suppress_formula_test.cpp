// Tables for CPU suppress's pure parts: the suppress figure, the node reservation, the cpuset size
// with its step limit, the cfs quota decision, the CPU choice, and the NodeSLO settings.
#include "agent/qosmanager/strategies/cpu_suppress/suppress_formula.hpp"

#include <gtest/gtest.h>

#include "agent/qosmanager/strategies/cpu_suppress/be_cpu_choice.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/suppress_config.hpp"
#include "test/unit/agent/qosmanager/strategies/cpu_suppress/cpu_suppress_test_support.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

using testing::smtTopology;

struct FigureCase {
  const char* name;
  SuppressInputs in;
  int64_t want_milli;
  int64_t want_system_milli;
  bool want_floored;
};

TEST(SuppressFigure, Table) {
  const FigureCase cases[] = {
      // 16 cores × 65% = 10400m; − LS 6000m − system 500m.
      {"no reservation", {16000, 65, {}, 6.0, 0, 0.5, 0}, 3900, 500, false},
      // The reservation (1 core) is above the system usage: it is subtracted instead.
      {"reservation above system usage", {16000, 65, {}, 6.0, 0, 0.5, 1000}, 3400, 1000, false},
      // System usage above the reservation wins.
      {"system usage above reservation", {16000, 65, {}, 6.0, 0, 2.25, 1000}, 2150, 2250, false},
      // Host applications' usage is subtracted too.
      {"host applications", {16000, 65, {}, 6.0, 1.0, 0.5, 0}, 2900, 500, false},
      // LS above the threshold: negative without a floor...
      {"negative", {16000, 65, {}, 12.0, 0, 0.5, 0}, -2100, 500, false},
      // ... and the floor (10% of 16 cores) with cpuSuppressMinPercent.
      {"min percent floor", {16000, 65, 10, 12.0, 0, 0.5, 0}, 1600, 500, true},
      {"min percent below figure", {16000, 65, 10, 6.0, 0, 0.5, 0}, 3900, 500, false},
      // Usages are truncated to milli-cores as koordlet does.
      {"truncation", {2000, 100, {}, 0.3337, 0, 0.0009, 0}, 1667, 0, false},
  };
  for (const FigureCase& c : cases) {
    SCOPED_TRACE(c.name);
    const SuppressFigure figure = suppressFigure(c.in);
    EXPECT_EQ(figure.milli, c.want_milli);
    EXPECT_EQ(figure.system_milli, c.want_system_milli);
    EXPECT_EQ(figure.floored, c.want_floored);
  }
}

TEST(NodeReservedCpu, AnnotationAndKubeletTakeTheLarger) {
  struct Case {
    const char* name;
    const char* annotation;  // nullptr: none
    int64_t capacity, allocatable;
    int64_t want_annotation, want_kubelet, want;
    bool want_problem;
  };
  const Case cases[] = {
      {"none", nullptr, 16000, 16000, 0, 0, 0, false},
      {"kubelet only", nullptr, 16000, 15000, 0, 1000, 1000, false},
      {"annotation cpu", R"({"resources":{"cpu":"1500m"}})", 16000, 16000, 1500, 0, 1500, false},
      {"annotation reservedCPUs wins over its cpu",
       R"({"resources":{"cpu":"1"},"reservedCPUs":"0-2"})", 16000, 16000, 3000, 0, 3000, false},
      {"both: the larger", R"({"resources":{"cpu":"500m"}})", 16000, 14000, 500, 2000, 2000, false},
      {"allocatable above capacity", nullptr, 16000, 17000, 0, 0, 0, false},
      {"malformed annotation ignored", "{not json", 16000, 15500, 0, 500, 500, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto node = testing::makeNode(c.capacity, c.allocatable);
    if (c.annotation != nullptr) {
      node->metadata.annotations[std::string(api::kAnnotationNodeReservation)] = c.annotation;
    }
    const NodeReservedCpu reserved = nodeReservedCpu(*node);
    EXPECT_EQ(reserved.annotation_milli, c.want_annotation);
    EXPECT_EQ(reserved.kubelet_milli, c.want_kubelet);
    EXPECT_EQ(reserved.milli(), c.want);
    EXPECT_EQ(!reserved.problem.empty(), c.want_problem) << reserved.problem;
  }
}

TEST(CpusetTarget, AtLeastTwoStepsUpAndDropsAtOnce) {
  struct Case {
    const char* name;
    int64_t suppress, current, num_cpus, candidates, want;
  };
  const Case cases[] = {
      {"ceil", 3900, 16, 16, 16, 4},
      {"exact cores", 4000, 16, 16, 16, 4},
      {"at least 2", 900, 16, 16, 16, 2},
      {"negative figure: 2", -2100, 16, 16, 16, 2},
      // ceil(10% × 16) = 2 more per run.
      {"increase stepped", 9900, 4, 16, 16, 6},
      {"increase within the step", 5500, 4, 16, 16, 6},
      // ceil(10% × 2) = 1.
      {"small node step", 2000, 1, 2, 2, 2},
      {"decrease immediate", 2000, 16, 16, 16, 2},
      {"never more than the candidates", 16000, 12, 16, 13, 13},
      {"fewer candidates than 2", 900, 16, 16, 1, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(cpusetTarget(c.suppress, c.current, c.num_cpus, c.candidates), c.want);
  }
}

TEST(CfsQuotaDecision, SkipsSmallChangesAndStepsIncreases) {
  struct Case {
    const char* name;
    int64_t suppress, current, cores;
    std::optional<int64_t> want_write;
    bool want_step_limited;
  };
  const Case cases[] = {
      {"from unlimited: at once", 3900, -1, 16, 390000, false},
      {"minimum 2000", -2100, 390000, 16, 2000, false},
      {"minimum even when close", 10, 3000, 16, 2000, false},
      // 1% × 16 × 100000 = 16000.
      {"small change skipped", 4000, 390000, 16, std::nullopt, false},
      {"unchanged skipped", 3900, 390000, 16, std::nullopt, false},
      {"decrease at once", 1000, 390000, 16, 100000, false},
      // +10% × 16 × 100000 = 160000 at most.
      {"increase stepped", 9900, 390000, 16, 550000, true},
      {"increase within the step", 5000, 390000, 16, 500000, false},
      {"2-core node step", 1300, 40000, 2, 60000, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const QuotaDecision decision = cfsQuotaDecision(c.suppress, c.current, c.cores);
    EXPECT_EQ(decision.write, c.want_write) << decision.skipped;
    EXPECT_EQ(decision.step_limited, c.want_step_limited);
    EXPECT_EQ(decision.skipped.empty(), c.want_write.has_value());
  }
}

TEST(ChooseBeCpus, TwoSocketSmtSpreadsWholeCoresAcrossSockets) {
  // Socket 0: cores 0-3 = CPUs {0,8} {1,9} {2,10} {3,11}; socket 1: {4,12} ... {7,15}.
  const system::CpuTopology topology = smtTopology(2, 4, 2);
  const cpuset::CpuSet all = cpuset::CpuSet::range(0, 15);
  struct Case {
    int64_t count;
    const char* want;
  };
  const Case cases[] = {
      {2, "0,8"},           // one whole core
      {3, "0,4,8"},         // a pair on socket 0, a single on socket 1
      {4, "0,4,8,12"},      // a pair on each socket
      {5, "0-1,4,8,12"},    // then a single, round-robin from socket 0
      {6, "0-1,4,8-9,12"},  // three pairs: socket 0 gets the third
      {8, "0-1,4-5,8-9,12-13"},
      {16, "0-15"},
      {20, "0-15"},
      {0, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.count);
    EXPECT_EQ(chooseBeCpus(c.count, all, topology).toString(), c.want);
  }
}

TEST(ChooseBeCpus, BucketsOrderedBySizeWhenSomeCpusAreTaken) {
  // CPU 8 is an LSR pod's: socket 0 keeps 7 candidates, socket 1 (8) comes first; core 0 on
  // socket 0 is no longer a whole pair.
  const system::CpuTopology topology = smtTopology(2, 4, 2);
  const cpuset::CpuSet candidates = cpuset::CpuSet::parse("0-7,9-15").value();
  EXPECT_EQ(chooseBeCpus(2, candidates, topology).toString(), "4,12");
  EXPECT_EQ(chooseBeCpus(4, candidates, topology).toString(), "1,4,9,12");
  // 9 = 4 pairs alternating from socket 1, then one single from where the pairs stopped
  // (socket 1 again): CPU 6, not socket 0's lone thread 0.
  EXPECT_EQ(chooseBeCpus(9, candidates, topology).toString(), "1-2,4-6,9-10,12-13");
}

TEST(ChooseBeCpus, SingleNodeTopology) {
  // One socket, 4 cores × 2 threads: core k is CPUs k and k+4.
  const system::CpuTopology topology = smtTopology(1, 4, 2);
  const cpuset::CpuSet all = cpuset::CpuSet::range(0, 7);
  EXPECT_EQ(chooseBeCpus(2, all, topology).toString(), "0,4");
  EXPECT_EQ(chooseBeCpus(3, all, topology).toString(), "0-1,4");
  EXPECT_EQ(chooseBeCpus(4, all, topology).toString(), "0-1,4-5");
  EXPECT_EQ(chooseBeCpus(7, all, topology).toString(), "0-6");
}

TEST(ChooseBeCpus, WithoutSmtOrTopologyTakesSingles) {
  // No topology known: every CPU is a core of its own in one bucket.
  EXPECT_EQ(chooseBeCpus(2, cpuset::CpuSet::range(0, 3), system::CpuTopology{}).toString(), "0-1");
  // 2 sockets × 2 cores × 1 thread: singles round-robin across sockets.
  EXPECT_EQ(chooseBeCpus(2, cpuset::CpuSet::range(0, 3), smtTopology(2, 2, 1)).toString(), "0,2");
  EXPECT_EQ(chooseBeCpus(3, cpuset::CpuSet::range(0, 3), smtTopology(2, 2, 1)).toString(), "0-2");
}

TEST(SuppressConfig, DefaultsFromTheManager) {
  api::slo::NodeSLO slo;
  auto off = suppressConfigFrom(slo);
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->enabled);  // no section: off

  slo.spec.resourceUsedThresholdWithBE.emplace();
  slo.spec.resourceUsedThresholdWithBE->enable = true;
  auto on = suppressConfigFrom(slo);
  ASSERT_TRUE(on.ok());
  EXPECT_TRUE(on->enabled);
  EXPECT_EQ(on->threshold_percent, 65);
  EXPECT_FALSE(on->min_percent.has_value());
  EXPECT_EQ(on->policy, api::slo::CPUSuppressPolicy::kCPUSet);

  slo.spec.resourceUsedThresholdWithBE->enable.reset();
  EXPECT_FALSE(suppressConfigFrom(slo)->enabled);  // enable unset reads as false
}

TEST(SuppressConfig, RejectsOutOfRangeNamingTheField) {
  struct Case {
    std::optional<int64_t> threshold, min;
    const char* want;
  };
  const Case cases[] = {
      {101, {}, "spec.resourceUsedThresholdWithBE.cpuSuppressThresholdPercent: 101"},
      {-1, {}, "spec.resourceUsedThresholdWithBE.cpuSuppressThresholdPercent: -1"},
      {65, -5, "spec.resourceUsedThresholdWithBE.cpuSuppressMinPercent: -5"},
      {65, 70, "cpuSuppressMinPercent: 70 is above cpuSuppressThresholdPercent 65"},
      {{}, 66, "cpuSuppressMinPercent: 66 is above cpuSuppressThresholdPercent 65"},
  };
  for (const Case& c : cases) {
    auto slo = testing::makeSlo(true, api::slo::CPUSuppressPolicy::kCPUSet, c.threshold, c.min);
    auto config = suppressConfigFrom(*slo);
    ASSERT_FALSE(config.ok()) << c.want;
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(config.status().message().find(c.want), std::string::npos)
        << config.status().message();
  }
}

TEST(SuppressConfig, UnknownPolicyIsRefusedByTheDecoder) {
  auto decoded = api::decode<api::slo::NodeSLO>(
      R"({"spec":{"resourceUsedThresholdWithBE":{"enable":true,"cpuSuppressPolicy":"cpushare"}}})");
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(decoded.status().message().find("cpuSuppressPolicy"), std::string::npos)
      << decoded.status().message();
  auto good = api::decode<api::slo::NodeSLO>(
      R"({"spec":{"resourceUsedThresholdWithBE":{"enable":true,"cpuSuppressPolicy":"cfsQuota"}}})");
  ASSERT_TRUE(good.ok()) << good.status().toString();
  EXPECT_EQ(suppressConfigFrom(*good)->policy, api::slo::CPUSuppressPolicy::kCFSQuota);
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
