#include "agent/qosmanager/strategies/builtin.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "agent/qosmanager/framework/scheduler.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::strategies {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

TEST(BuiltinStrategies, ListsEveryStrategyInRunOrderWithItsInterval) {
  StrategyArgs args;
  args.reconcile_interval = 7s;
  auto strategies = builtinStrategies(args);
  std::vector<std::string> names;
  for (const auto& strategy : strategies) {
    names.emplace_back(strategy->name());
  }
  EXPECT_THAT(names, ElementsAre("RuntimeReconcile", "CPUSuppress", "CPUBurst", "MemoryQOS",
                                 "BEMemoryEvict", "BECPUEvict", "SystemConfig"));
  EXPECT_EQ(strategies[0]->interval(), Clock::Duration(7s));  // the reconciler's flag
  EXPECT_TRUE(strategies[0]->runsOnStateChange());
  EXPECT_TRUE(strategies[0]->enabled(nullptr));
  EXPECT_EQ(strategies[1]->interval(), Clock::Duration(1s));  // koordlet's suppress interval
  EXPECT_EQ(strategies[4]->interval(), Clock::Duration(1s));  // and its eviction intervals
  EXPECT_EQ(strategies[5]->interval(), Clock::Duration(1s));
  // Without a NodeSLO only the reconciler runs: every other strategy is tuned by it.
  for (size_t i = 1; i < strategies.size(); ++i) {
    EXPECT_FALSE(strategies[i]->enabled(nullptr)) << names[i];
  }
  // Every gate names a registered strategy (a typo would leave one always on).
  for (const StrategyGate& gate : kStrategyGates) {
    EXPECT_THAT(names, ::testing::Contains(std::string(gate.strategy))) << gate.gate;
  }
}

TEST(FeatureGates, DefaultsAreKoordletsAndEachGateTurnsItsStrategyOnOrOff) {
  EXPECT_THAT(strategiesOffByGates({}),
              ElementsAre("BECPUEvict", "BEMemoryEvict", "MemoryQOS", "SystemConfig"));
  auto gates = parseFeatureGates("BEMemoryEvict=true, CPUBurst=false,CgroupReconcile=true");
  ASSERT_TRUE(gates.ok()) << gates.status();
  EXPECT_THAT(strategiesOffByGates(*gates), ElementsAre("BECPUEvict", "CPUBurst", "SystemConfig"));
  EXPECT_TRUE(parseFeatureGates("").ok());
  EXPECT_TRUE(parseFeatureGates(",").ok());
}

TEST(FeatureGates, MalformedOrUnknownGatesAreRefusedByName) {
  for (const auto& [text, want] : std::vector<std::pair<std::string, std::string>>{
           {"BEMemoryEvict", "invalid --feature-gates entry 'BEMemoryEvict'"},
           {"BEMemoryEvict=yes", "want <gate>=true or <gate>=false"},
           {"CPUEvict=true", "unknown feature gate 'CPUEvict'"},
           {"RdtResctrl=true", "known gates are BECPUSuppress, CPUBurst"},
       }) {
    auto gates = parseFeatureGates(text);
    ASSERT_FALSE(gates.ok()) << text;
    EXPECT_EQ(gates.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(gates.status().message(), HasSubstr(want)) << text;
  }
}

// The scheduler made from the built-in list and the default gates runs only the strategies the
// gates leave on, and only once the node has a NodeSLO.
TEST(FeatureGates, TheDefaultGatesLeaveEvictionAndMemoryQosOffInTheScheduler) {
  testing::ContextFixture fixture;
  framework::SchedulerOptions options;
  options.disabled = strategiesOffByGates({});
  auto scheduler =
      framework::Scheduler::create(builtinStrategies({}), fixture.clock, options, nullptr).value();
  framework::SchedulerPass pass = scheduler->runDue(fixture.context(), false);
  EXPECT_THAT(pass.ran, ElementsAre("RuntimeReconcile"));
  EXPECT_THAT(pass.disabled, ElementsAre("CPUSuppress", "CPUBurst", "MemoryQOS", "BEMemoryEvict",
                                         "BECPUEvict", "SystemConfig"));
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies
