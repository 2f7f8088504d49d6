#include "agent/qosmanager/strategies/system_config/system_config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "agent/resourceexecutor/proc_sys_config_executor.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"
#include "test/unit/agent/qosmanager/strategies/system_config/mock_system_config_executor.hpp"
#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::qosmanager::strategies::system_config {
namespace {

using resourceexecutor::SystemSetting;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::Return;
using ::testing::StrictMock;
using namespace std::chrono_literals;

std::shared_ptr<const api::slo::NodeSLO> nodeSLO(std::optional<int64_t> factor,
                                                 std::optional<int64_t> watermark,
                                                 bool with_section = true) {
  auto slo = std::make_shared<api::slo::NodeSLO>();
  if (with_section) {
    api::slo::SystemStrategy strategy;
    strategy.minFreeKbytesFactor = factor;
    strategy.watermarkScaleFactor = watermark;
    slo->spec.systemStrategy = strategy;
  }
  return slo;
}

std::shared_ptr<const api::core::Node> nodeWithCapacity(const std::string& memory) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "n1";
  if (!memory.empty()) {
    node->status.capacity["memory"] = resource::Quantity::parse(memory).value();
  }
  // Allocatable is smaller; koordlet uses the capacity.
  node->status.allocatable["memory"] = resource::Quantity::parse("1Gi").value();
  return node;
}

std::vector<std::string> valueLines(const metrics::MetricsRegistry& registry) {
  return testing::metricLines(registry, "koord_agent_system_config_value");
}

struct SystemConfigFixture {
  SystemConfigFixture(std::optional<int64_t> factor, std::optional<int64_t> watermark,
                      const std::string& capacity = "8Gi", bool with_section = true) {
    ON_CALL(fixture.states, nodeSLO())
        .WillByDefault(Return(nodeSLO(factor, watermark, with_section)));
    ON_CALL(fixture.states, node()).WillByDefault(Return(nodeWithCapacity(capacity)));
  }
  framework::StrategyContext context() {
    framework::StrategyContext context = fixture.context();
    context.system_config = &system;
    return context;
  }

  testing::ContextFixture fixture;
  StrictMock<agent::testing::MockSystemConfigExecutor> system;
};

TEST(SystemConfig, NameIntervalAndEnabled) {
  SystemConfig strategy(1s, log::Logger(), nullptr);
  EXPECT_EQ(strategy.name(), "SystemConfig");
  EXPECT_EQ(strategy.interval(), Clock::Duration(1s));
  EXPECT_FALSE(strategy.runsOnStateChange());
  EXPECT_FALSE(strategy.enabled(nullptr));
  EXPECT_FALSE(strategy.enabled(nodeSLO(100, 150, false).get()));
  EXPECT_TRUE(strategy.enabled(nodeSLO(std::nullopt, std::nullopt).get()));
}

// 8 GiB at factor 100: 8388608 KiB × 100 / 10000 = 83886 KiB; the watermark as configured.
TEST(SystemConfig, WritesBothSettings) {
  SystemConfigFixture f(100, 150);
  EXPECT_CALL(f.system, get(SystemSetting::kMinFreeKbytes)).WillOnce(Return(int64_t{67584}));
  EXPECT_CALL(f.system, get(SystemSetting::kWatermarkScaleFactor)).WillOnce(Return(int64_t{10}));
  EXPECT_CALL(f.system, set(SystemSetting::kMinFreeKbytes, 83886,
                            "system_config: minFreeKbytesFactor 100 of 8388608 KiB"))
      .WillOnce(Return(Status::ok()));
  EXPECT_CALL(f.system, set(SystemSetting::kWatermarkScaleFactor, 150,
                            "system_config: watermarkScaleFactor 150"))
      .WillOnce(Return(Status::ok()));
  metrics::MetricsRegistry registry;
  SystemConfig strategy(1s, log::Logger(), &registry);
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  EXPECT_THAT(valueLines(registry),
              ::testing::ElementsAre(
                  R"(koord_agent_system_config_value{setting="min_free_kbytes"} 83886)",
                  R"(koord_agent_system_config_value{setting="watermark_scale_factor"} 150)"));
  const api::Json state = strategy.debugState();
  EXPECT_EQ(state["memory_capacity_bytes"], int64_t{8} << 30);
  const api::Json& min_free = state["settings"]["min_free_kbytes"];
  EXPECT_EQ(min_free["factor"], 100);
  EXPECT_EQ(min_free["computed"], 83886);
  EXPECT_EQ(min_free["current"], 67584);
  EXPECT_EQ(min_free["action"], "written");
  EXPECT_EQ(state["settings"]["watermark_scale_factor"]["configured"], 150);
  EXPECT_EQ(state["settings"]["watermark_scale_factor"]["current"], 10);
  EXPECT_EQ(state["settings"]["watermark_scale_factor"]["action"], "written");
}

TEST(SystemConfig, ValuesAlreadyThereAreNotWrittenAgain) {
  SystemConfigFixture f(100, 150);
  EXPECT_CALL(f.system, get(SystemSetting::kMinFreeKbytes)).WillOnce(Return(int64_t{83886}));
  EXPECT_CALL(f.system, get(SystemSetting::kWatermarkScaleFactor)).WillOnce(Return(int64_t{150}));
  metrics::MetricsRegistry registry;
  SystemConfig strategy(1s, log::Logger(), &registry);
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  EXPECT_EQ(strategy.debugState()["settings"]["min_free_kbytes"]["action"], "unchanged");
  EXPECT_EQ(valueLines(registry).size(), 2u);
}

TEST(SystemConfig, OnlyConfiguredSettingsAreTouched) {
  SystemConfigFixture f(std::nullopt, 200);
  EXPECT_CALL(f.system, get(SystemSetting::kWatermarkScaleFactor)).WillOnce(Return(int64_t{10}));
  EXPECT_CALL(f.system, set(SystemSetting::kWatermarkScaleFactor, 200, _))
      .WillOnce(Return(Status::ok()));
  SystemConfig strategy(1s, log::Logger(), nullptr);
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  EXPECT_EQ(strategy.debugState()["settings"]["min_free_kbytes"]["action"], "not configured");
}

// 512 MiB at 1% is 5242 KiB, below koordlet's 10 MiB floor: not written; the watermark still is.
TEST(SystemConfig, ComputedMinFreeOutOfRangeIsNotWritten) {
  SystemConfigFixture f(100, 150, "512Mi");
  EXPECT_CALL(f.system, get(SystemSetting::kMinFreeKbytes)).WillOnce(Return(int64_t{22528}));
  EXPECT_CALL(f.system, get(SystemSetting::kWatermarkScaleFactor)).WillOnce(Return(int64_t{10}));
  EXPECT_CALL(f.system, set(SystemSetting::kWatermarkScaleFactor, 150, _))
      .WillOnce(Return(Status::ok()));
  metrics::MetricsRegistry registry;
  SystemConfig strategy(1s, log::Logger(), &registry);
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  const api::Json state = strategy.debugState();
  const api::Json& min_free = state["settings"]["min_free_kbytes"];
  EXPECT_EQ(min_free["computed"], 5242);
  EXPECT_EQ(min_free["action"], "out of range");
  EXPECT_THAT(min_free["why"].get<std::string>(), HasSubstr("outside [10240, 10485760] KiB"));
  EXPECT_THAT(
      valueLines(registry),
      ::testing::Contains(R"(koord_agent_system_config_value{setting="min_free_kbytes"} 22528)"));
}

TEST(SystemConfig, MissingSectionWritesNothing) {
  SystemConfigFixture f(100, 150, "8Gi", false);
  SystemConfig strategy(1s, log::Logger(), nullptr);
  ASSERT_TRUE(strategy.run(f.context()).isOk());  // StrictMock: no call at all
  EXPECT_THAT(strategy.debugState()["reason"].get<std::string>(), HasSubstr("no systemStrategy"));
}

TEST(SystemConfig, NullExecutorIsASkip) {
  SystemConfigFixture f(100, 150);
  SystemConfig strategy(1s, log::Logger(), nullptr);
  ASSERT_TRUE(strategy.run(f.fixture.context()).isOk());  // context.system_config is null
  EXPECT_THAT(strategy.debugState()["reason"].get<std::string>(),
              HasSubstr("no system config executor"));
}

TEST(SystemConfig, BadConfigIsInvalidAndNothingIsWritten) {
  for (const auto& [factor, watermark] :
       {std::pair<std::optional<int64_t>, std::optional<int64_t>>{0, 150},
        {100, 1001},
        {-5, std::nullopt},
        {std::nullopt, 5}}) {
    SystemConfigFixture f(factor, watermark);
    SystemConfig strategy(1s, log::Logger(), nullptr);
    const Status status = strategy.run(f.context());  // StrictMock: no call at all
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("systemStrategy."));
  }
}

TEST(SystemConfig, UnknownNodeMemoryWritesNothing) {
  SystemConfigFixture f(100, 150, "");
  SystemConfig strategy(1s, log::Logger(), nullptr);
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  EXPECT_THAT(strategy.debugState()["reason"].get<std::string>(),
              HasSubstr("memory capacity is not known"));
}

// A kernel without the file is a skip; another error is returned after both were tried.
TEST(SystemConfig, WriteErrors) {
  SystemConfigFixture f(100, 150);
  EXPECT_CALL(f.system, get(SystemSetting::kMinFreeKbytes))
      .WillOnce(Return(Status::permissionDenied("read-only")));
  EXPECT_CALL(f.system, get(SystemSetting::kWatermarkScaleFactor))
      .WillOnce(Return(Status::notFound("no such file")));
  EXPECT_CALL(f.system, set(SystemSetting::kMinFreeKbytes, 83886, _))
      .WillOnce(Return(Status::permissionDenied("failed to write: read-only file system")));
  EXPECT_CALL(f.system, set(SystemSetting::kWatermarkScaleFactor, 150, _))
      .WillOnce(Return(Status::notFound("failed to write: no such file")));
  SystemConfig strategy(1s, log::Logger(), nullptr);
  const Status status = strategy.run(f.context());
  EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
  const api::Json state = strategy.debugState();
  EXPECT_EQ(state["settings"]["min_free_kbytes"]["action"], "failed");
  EXPECT_EQ(state["settings"]["watermark_scale_factor"]["action"], "failed");
  EXPECT_THAT(state["settings"]["watermark_scale_factor"]["why"].get<std::string>(),
              HasSubstr("no such file"));
  EXPECT_TRUE(state["settings"]["min_free_kbytes"]["current"].is_null());

  SystemConfigFixture only_missing(std::nullopt, 150);
  EXPECT_CALL(only_missing.system, get(SystemSetting::kWatermarkScaleFactor))
      .WillOnce(Return(Status::notFound("no such file")));
  EXPECT_CALL(only_missing.system, set(SystemSetting::kWatermarkScaleFactor, 150, _))
      .WillOnce(Return(Status::notFound("failed to write: no such file")));
  EXPECT_TRUE(strategy.run(only_missing.context()).isOk());
}

// End to end with the real executor on a temporary proc tree: the files change, then a second
// run finds them as wanted.
TEST(SystemConfig, AppliesThroughProcSysConfigExecutor) {
  system::testing::FakeRoot root;
  root.write("proc/sys/vm/min_free_kbytes", "67584\n");
  root.write("proc/sys/vm/watermark_scale_factor", "10\n");
  SystemConfigFixture f(150, 200, "16Gi");
  auto executor = resourceexecutor::ProcSysConfigExecutor::create(
                      system::SysPaths::under(root.path()), f.fixture.clock)
                      .value();
  framework::StrategyContext context = f.fixture.context();
  context.system_config = executor.get();
  SystemConfig strategy(1s, log::Logger(), nullptr);
  ASSERT_TRUE(strategy.run(context).isOk());
  auto read = [&](const std::string& name) {
    std::ifstream in(root.path() / "proc/sys/vm" / name);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
  };
  EXPECT_EQ(read("min_free_kbytes"), "251658");  // 16777216 KiB × 150 / 10000
  EXPECT_EQ(read("watermark_scale_factor"), "200");
  EXPECT_EQ(executor->auditLog().size(), 2u);
  f.fixture.clock.advance(1s);
  ASSERT_TRUE(strategy.run(context).isOk());
  EXPECT_EQ(executor->auditLog().size(), 2u);  // nothing written again
  EXPECT_EQ(strategy.debugState()["settings"]["watermark_scale_factor"]["action"], "unchanged");
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::system_config
