#include "agent/app/daemon.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "test/mocks/agent/mock_states_informer.hpp"
#include "test/mocks/k8s/mock_client.hpp"
#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::app {
namespace {

using ::testing::HasSubstr;
using ::testing::NiceMock;

// The value of the series `series` ("name{labels}") in the registry's text; -1 when absent.
double seriesValue(const metrics::MetricsRegistry& registry, const std::string& series) {
  std::istringstream lines(registry.serialize());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(series + " ", 0) == 0) {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  return -1;
}

// Polls `done` for up to 10 s of real time (the loop runs on its own thread).
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

// A daemon over a temporary host root with no /proc files, so that the node collectors fail on
// every cycle; the informers never sync, so nothing is reported or reconciled.
class DaemonTest : public ::testing::Test {
 protected:
  DaemonTest() {
    options.node_name = "node-1";
    options.paths = system::SysPaths::under(root.path());
    options.kubelet_root_dir = root.path() / "var/lib/kubelet";
    options.collect_interval = std::chrono::seconds(1);
    host.cpus.cpus = {system::CpuInfo{.id = 0, .core = 0, .socket = 0, .node = 0},
                      system::CpuInfo{.id = 1, .core = 1, .socket = 0, .node = 0}};
    host.layout.kubepods = "kubepods";
  }

  Result<std::unique_ptr<Daemon>> create() {
    return Daemon::create(options, log::Logger(), host,
                          DaemonDeps{client, states, registry, clock,
                                     [](const api::core::ObjectReference&, k8s::EventType,
                                        std::string, std::string) {}});
  }

  system::testing::FakeRoot root;
  DaemonOptions options;
  Host host;
  NiceMock<k8s::testing::MockClient> client;
  NiceMock<testing::MockStatesInformer> states;
  metrics::MetricsRegistry registry;
  FakeClock clock;
};

TEST_F(DaemonTest, CreateRefusesAnEmptyNodeName) {
  options.node_name.clear();
  auto daemon = create();
  ASSERT_FALSE(daemon.ok());
  EXPECT_EQ(daemon.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(daemon.status().message(), HasSubstr("--node-name"));
}

TEST_F(DaemonTest, CreateRefusesAnIntervalThatIsNotPositive) {
  options.reconcile_interval = std::chrono::milliseconds(0);
  auto daemon = create();
  ASSERT_FALSE(daemon.ok());
  EXPECT_THAT(daemon.status().message(), HasSubstr("--reconcile-interval must be positive"));
}

TEST_F(DaemonTest, CreateFailsWhenTheExecutorRefusesTheKubepodsFolder) {
  host.layout.kubepods = "/kubepods";
  auto daemon = create();
  ASSERT_FALSE(daemon.ok());
  EXPECT_THAT(daemon.status().message(), HasSubstr("failed to create resource executor"));
}

TEST_F(DaemonTest, RegistersEveryCollectorAtZeroAndIsNotHealthyBeforeItsFirstCycle) {
  auto daemon = create();
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  for (const char* collector : {"node_cpu", "node_memory", "system_cpu", "system_memory", "pod_cpu",
                                "pod_memory", "container_cpu", "container_memory"}) {
    EXPECT_EQ(seriesValue(registry, std::string("koord_agent_collect_errors_total{collector=\"") +
                                        collector + "\"}"),
              0)
        << collector;
  }
  EXPECT_FALSE((*daemon)->healthy());
}

TEST_F(DaemonTest, AFailingCollectorIncrementsItsErrorCounterOnEveryCycle) {
  const std::string node_cpu = "koord_agent_collect_errors_total{collector=\"node_cpu\"}";
  const std::string node_memory = "koord_agent_collect_errors_total{collector=\"node_memory\"}";
  auto created = create();
  ASSERT_TRUE(created.ok()) << created.status();
  Daemon& daemon = **created;
  daemon.start();
  // The first pass collects at once: /proc/stat and /proc/meminfo are missing.
  ASSERT_TRUE(eventually([&] { return seriesValue(registry, node_cpu) == 1; }));
  EXPECT_TRUE(daemon.healthy());
  ASSERT_TRUE(eventually([&] { return seriesValue(registry, node_memory) == 1; }));
  ASSERT_TRUE(eventually([&] { return clock.waiterCount() == 1; }));
  // Nothing more until the next collect interval.
  EXPECT_EQ(seriesValue(registry, node_cpu), 1);
  clock.advance(options.collect_interval);
  ASSERT_TRUE(eventually([&] { return seriesValue(registry, node_cpu) == 2; }));
  ASSERT_TRUE(eventually([&] { return seriesValue(registry, node_memory) == 2; }));
  // The pods' collectors read nothing (no pods) and so fail nothing.
  EXPECT_EQ(seriesValue(registry, "koord_agent_collect_errors_total{collector=\"pod_cpu\"}"), 0);
  daemon.stop();
}

TEST_F(DaemonTest, IsUnhealthyWhenTheLoopHasNotCollectedForTenIntervalsAndThirtySeconds) {
  auto created = create();
  ASSERT_TRUE(created.ok()) << created.status();
  Daemon& daemon = **created;
  daemon.start();
  ASSERT_TRUE(eventually([&] { return daemon.healthy(); }));
  daemon.stop();  // the loop no longer collects
  clock.advance(options.collect_interval * 10 + std::chrono::seconds(29));
  EXPECT_TRUE(daemon.healthy());
  clock.advance(std::chrono::seconds(1));
  EXPECT_FALSE(daemon.healthy());
}

TEST_F(DaemonTest, StopIsIdempotentAndNeedsNoStart) {
  auto created = create();
  ASSERT_TRUE(created.ok()) << created.status();
  (*created)->stop();
  (*created)->stop();
}

}  // namespace
}  // namespace koord::agent::app
