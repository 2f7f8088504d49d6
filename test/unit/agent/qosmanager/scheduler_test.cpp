#include "agent/qosmanager/framework/scheduler.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>

#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::framework {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Return;
using namespace std::chrono_literals;

// A strategy whose behaviour each test scripts; it counts its runs in `runs` (shared, so that the
// test keeps it after the scheduler took the strategy).
class FakeStrategy final : public Strategy {
 public:
  FakeStrategy(std::string name, Clock::Duration interval, bool on_change = false)
      : name_(std::move(name)), interval_(interval), on_change_(on_change) {}

  std::string_view name() const override { return name_; }
  Clock::Duration interval() const override { return interval_; }
  bool runsOnStateChange() const override { return on_change_; }
  bool enabled(const api::slo::NodeSLO* node_slo) const override {
    return enabled_ ? enabled_(node_slo) : true;
  }
  Status run(const StrategyContext& /*context*/) override {
    ++*runs;
    return run_ ? run_() : Status::ok();
  }
  api::Json debugState() const override { return api::Json{{"runs", *runs}}; }

  std::function<bool(const api::slo::NodeSLO*)> enabled_;
  std::function<Status()> run_;
  std::shared_ptr<int> runs = std::make_shared<int>(0);

 private:
  std::string name_;
  Clock::Duration interval_;
  bool on_change_;
};

std::vector<std::unique_ptr<Strategy>> list(std::vector<std::unique_ptr<FakeStrategy>> fakes) {
  std::vector<std::unique_ptr<Strategy>> out;
  for (auto& fake : fakes) {
    out.push_back(std::move(fake));
  }
  return out;
}

TEST(Scheduler, RunsEachStrategyAtItsOwnIntervalAsTheClockAdvances) {
  testing::ContextFixture fixture;
  std::vector<std::unique_ptr<FakeStrategy>> fakes;
  fakes.push_back(std::make_unique<FakeStrategy>("Every1s", 1s));
  fakes.push_back(std::make_unique<FakeStrategy>("Every3s", 3s));
  fakes.push_back(std::make_unique<FakeStrategy>("OnChange10s", 10s, /*on_change=*/true));
  auto scheduler = Scheduler::create(list(std::move(fakes)), fixture.clock, {}, nullptr).value();
  EXPECT_THAT(scheduler->names(), ElementsAre("Every1s", "Every3s", "OnChange10s"));

  struct Step {
    Clock::Duration advance;
    bool changed;
    std::vector<std::string> ran;
    Clock::Duration next_due;  // from the start
  };
  const std::vector<Step> steps = {
      {0s, false, {"Every1s", "Every3s", "OnChange10s"}, 1s},  // everything is due at first
      {500ms, false, {}, 1s},
      {500ms, false, {"Every1s"}, 2s},
      {1s, false, {"Every1s"}, 3s},
      {1s, false, {"Every1s", "Every3s"}, 4s},
      {500ms, true, {"OnChange10s"}, 4s},  // a state change: only OnChange10s runs early
      {500ms, false, {"Every1s"}, 5s},
      {2s, false, {"Every1s", "Every3s"}, 7s},  // late: due from now, not caught up
      {6500ms, false, {"Every1s", "Every3s"}, 13500ms},
      {1s, false, {"Every1s", "OnChange10s"}, 14500ms},
  };
  const Clock::TimePoint start = fixture.clock.now();
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    fixture.clock.advance(steps[i].advance);
    SchedulerPass pass = scheduler->runDue(fixture.context(), steps[i].changed);
    EXPECT_EQ(pass.ran, steps[i].ran);
    EXPECT_THAT(pass.disabled, IsEmpty());
    EXPECT_EQ(pass.next_due - start, steps[i].next_due);
  }
}

TEST(Scheduler, SkipsDisabledStrategies) {
  testing::ContextFixture fixture;
  std::vector<std::unique_ptr<FakeStrategy>> fakes;
  fakes.push_back(std::make_unique<FakeStrategy>("Always", 1s));
  fakes.push_back(std::make_unique<FakeStrategy>("TurnedOff", 1s));
  fakes.push_back(std::make_unique<FakeStrategy>("NeedsNodeSLO", 2s));
  fakes[2]->enabled_ = [](const api::slo::NodeSLO* slo) { return slo != nullptr; };
  std::vector<std::shared_ptr<int>> runs;
  for (const auto& fake : fakes) {
    runs.push_back(fake->runs);
  }
  SchedulerOptions options;
  options.disabled = {"TurnedOff"};
  auto scheduler =
      Scheduler::create(list(std::move(fakes)), fixture.clock, std::move(options), nullptr).value();

  struct Step {
    bool has_slo;
    Clock::Duration advance;
    std::vector<std::string> ran;
    std::vector<std::string> disabled;
  };
  const std::vector<Step> steps = {
      {false, 0s, {"Always"}, {"TurnedOff", "NeedsNodeSLO"}},
      {true, 1s, {"Always"}, {"TurnedOff"}},  // NeedsNodeSLO is asked again only at 2 s
      {true, 1s, {"Always", "NeedsNodeSLO"}, {"TurnedOff"}},
      {false, 2s, {"Always"}, {"TurnedOff", "NeedsNodeSLO"}},  // the NodeSLO went away
  };
  auto slo = std::make_shared<const api::slo::NodeSLO>();
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    ON_CALL(fixture.states, nodeSLO())
        .WillByDefault(Return(steps[i].has_slo ? slo : std::shared_ptr<const api::slo::NodeSLO>()));
    fixture.clock.advance(steps[i].advance);
    SchedulerPass pass = scheduler->runDue(fixture.context(), false);
    EXPECT_EQ(pass.ran, steps[i].ran);
    EXPECT_EQ(pass.disabled, steps[i].disabled);
  }
  EXPECT_EQ(*runs[0], 4);
  EXPECT_EQ(*runs[1], 0);
  EXPECT_EQ(*runs[2], 1);
}

TEST(Scheduler, SurvivesStrategiesThatFailOrThrow) {
  testing::ContextFixture fixture;
  metrics::MetricsRegistry registry;
  std::vector<std::unique_ptr<FakeStrategy>> fakes;
  fakes.push_back(std::make_unique<FakeStrategy>("Fails", 1s));
  fakes[0]->run_ = [] { return Status::unavailable("failed to apply 1 of 2 updates: EIO"); };
  fakes.push_back(std::make_unique<FakeStrategy>("Throws", 1s));
  fakes[1]->run_ = []() -> Status { throw std::runtime_error("boom"); };
  fakes.push_back(std::make_unique<FakeStrategy>("ThrowsInEnabled", 1s));
  fakes[2]->enabled_ = [](const api::slo::NodeSLO*) -> bool { throw std::logic_error("bad"); };
  fakes.push_back(std::make_unique<FakeStrategy>("Works", 1s));
  std::vector<std::shared_ptr<int>> runs;
  for (const auto& fake : fakes) {
    runs.push_back(fake->runs);
  }
  std::vector<std::string> warnings;
  SchedulerOptions options;
  options.logger =
      log::Logger(log::LogSink::toCallback([&](log::LogLevel level, std::string_view line) {
                    if (level >= log::LogLevel::kWarn) {
                      warnings.emplace_back(line);
                    }
                  }),
                  {}, "qos");
  auto scheduler =
      Scheduler::create(list(std::move(fakes)), fixture.clock, std::move(options), &registry)
          .value();

  for (int pass = 0; pass < 2; ++pass) {
    SchedulerPass result = scheduler->runDue(fixture.context(), false);
    EXPECT_THAT(result.ran, ElementsAre("Fails", "Throws", "Works"));
    EXPECT_THAT(result.disabled, ElementsAre("ThrowsInEnabled"));
    fixture.clock.advance(1s);
  }
  EXPECT_EQ(*runs[0], 2);
  EXPECT_EQ(*runs[1], 2);
  EXPECT_EQ(*runs[2], 0);
  EXPECT_EQ(*runs[3], 2);
  EXPECT_THAT(
      testing::metricLines(registry, kStrategyRunsMetric),
      ElementsAre(
          R"(koord_agent_strategy_runs_total{result="exception",strategy="Fails"} 0)",
          R"(koord_agent_strategy_runs_total{result="exception",strategy="Throws"} 2)",
          R"(koord_agent_strategy_runs_total{result="exception",strategy="ThrowsInEnabled"} 2)",
          R"(koord_agent_strategy_runs_total{result="exception",strategy="Works"} 0)",
          R"(koord_agent_strategy_runs_total{result="failed",strategy="Fails"} 2)",
          R"(koord_agent_strategy_runs_total{result="failed",strategy="Throws"} 0)",
          R"(koord_agent_strategy_runs_total{result="failed",strategy="ThrowsInEnabled"} 0)",
          R"(koord_agent_strategy_runs_total{result="failed",strategy="Works"} 0)",
          R"(koord_agent_strategy_runs_total{result="ok",strategy="Fails"} 0)",
          R"(koord_agent_strategy_runs_total{result="ok",strategy="Throws"} 0)",
          R"(koord_agent_strategy_runs_total{result="ok",strategy="ThrowsInEnabled"} 0)",
          R"(koord_agent_strategy_runs_total{result="ok",strategy="Works"} 2)"));

  ASSERT_EQ(warnings.size(), 6u);
  EXPECT_THAT(warnings[0], HasSubstr("a QoS strategy failed"));
  EXPECT_THAT(warnings[0], HasSubstr("EIO"));
  EXPECT_THAT(warnings[1], HasSubstr("a QoS strategy threw"));
  EXPECT_THAT(warnings[1], HasSubstr("boom"));
  EXPECT_THAT(warnings[2], HasSubstr("ThrowsInEnabled"));
}

TEST(Scheduler, CreateReportsEveryProblemAtOnce) {
  FakeClock clock;
  std::vector<std::unique_ptr<Strategy>> strategies;
  strategies.push_back(std::make_unique<FakeStrategy>("Twice", 1s));
  strategies.push_back(std::make_unique<FakeStrategy>("Twice", 1s));
  strategies.push_back(std::make_unique<FakeStrategy>("Zero", 0s));
  strategies.push_back(nullptr);
  SchedulerOptions options;
  options.disabled = {"Unknown"};
  auto scheduler = Scheduler::create(std::move(strategies), clock, std::move(options), nullptr);
  ASSERT_FALSE(scheduler.ok());
  EXPECT_EQ(scheduler.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(scheduler.status().message(),
            "failed to create the QoS strategy scheduler: strategy 'Twice' is registered twice; "
            "strategy 'Zero' has an interval that is not positive; strategy 3 is null; cannot "
            "disable 'Unknown': no such strategy");
}

TEST(Scheduler, DebugJsonShowsEachStrategysLastRunAndDecision) {
  testing::ContextFixture fixture;
  std::vector<std::unique_ptr<FakeStrategy>> fakes;
  fakes.push_back(std::make_unique<FakeStrategy>("Works", 1s));
  fakes.push_back(std::make_unique<FakeStrategy>("Fails", 1s));
  fakes.push_back(std::make_unique<FakeStrategy>("Off", 1s));
  fakes.push_back(std::make_unique<FakeStrategy>("Flagged", 1s));
  fakes[1]->run_ = [] { return Status::unavailable("cgroup gone"); };
  fakes[2]->enabled_ = [](const api::slo::NodeSLO*) { return false; };
  SchedulerOptions options;
  options.disabled.insert("Flagged");
  auto scheduler =
      Scheduler::create(list(std::move(fakes)), fixture.clock, options, nullptr).value();
  api::Json before = scheduler->debugJson();
  ASSERT_EQ(before["strategies"].size(), 4u);
  EXPECT_EQ(before["strategies"][0]["state"], "never run");
  EXPECT_TRUE(before["strategies"][0]["decision"].is_null());

  scheduler->runDue(fixture.context(), false);
  fixture.clock.advance(500ms);
  api::Json after = scheduler->debugJson();
  const api::Json& list = after["strategies"];
  EXPECT_EQ(list[0]["name"], "Works");
  EXPECT_EQ(list[0]["state"], "ok");
  EXPECT_EQ(list[0]["decision"]["runs"], 1);
  EXPECT_DOUBLE_EQ(list[0]["last_run_seconds_ago"].get<double>(), 0.5);
  EXPECT_EQ(list[1]["state"], "failed");
  EXPECT_THAT(list[1]["error"].get<std::string>(), HasSubstr("cgroup gone"));
  EXPECT_EQ(list[2]["state"], "disabled");
  EXPECT_EQ(list[3]["state"], "disabled by flag");
}

TEST(Scheduler, WithoutStrategiesNothingIsEverDue) {
  testing::ContextFixture fixture;
  auto scheduler = Scheduler::create({}, fixture.clock, {}, nullptr).value();
  SchedulerPass pass = scheduler->runDue(fixture.context(), true);
  EXPECT_THAT(pass.ran, IsEmpty());
  EXPECT_EQ(pass.next_due, Clock::TimePoint::max());
}

}  // namespace
}  // namespace koord::agent::qosmanager::framework
