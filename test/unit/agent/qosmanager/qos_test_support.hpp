// Shared pieces of the qosmanager tests: a StrategyContext over mocks and a FakeClock, and the
// samples of one metric from a registry.
#pragma once

#include <gmock/gmock.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "agent/qosmanager/framework/evictor.hpp"
#include "agent/qosmanager/framework/strategy.hpp"
#include "koord/common/clock.hpp"
#include "koord/metrics/registry.hpp"
#include "test/mocks/agent/mock_cgroup_reader.hpp"
#include "test/mocks/agent/mock_resource_executor.hpp"
#include "test/mocks/agent/mock_states_informer.hpp"
#include "test/mocks/k8s/mock_client.hpp"

namespace koord::agent::qosmanager::testing {

// The lines of `metric`'s samples ("name{labels} value"), sorted.
inline std::vector<std::string> metricLines(const metrics::MetricsRegistry& registry,
                                            std::string_view metric) {
  std::vector<std::string> out;
  std::istringstream lines(registry.serialize());
  const std::string prefix = std::string(metric) + "{";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) {
      out.push_back(line);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A StrategyContext whose parts are nice mocks (the evictor's client included), on a FakeClock.
struct ContextFixture {
  ContextFixture() {
    evictor =
        framework::Evictor::create(
            client, clock,
            [](const api::core::ObjectReference&, k8s::EventType, std::string, std::string) {}, {},
            log::Logger(), nullptr)
            .value();
  }

  framework::StrategyContext context() {
    return framework::StrategyContext{states, windows, executor, *evictor, pods,
                                      cpus,   clock,   facts,    shared};
  }

  FakeClock clock;
  ::testing::NiceMock<agent::testing::MockStatesInformer> states;
  metriccache::MetricCache cache;
  framework::MetricWindows windows{cache, metriccache::TimePoint{}};
  ::testing::NiceMock<agent::testing::MockResourceExecutor> executor;
  ::testing::NiceMock<k8s::testing::MockClient> client;
  std::unique_ptr<framework::Evictor> evictor;
  resourceexecutor::PodCgroups pods;  // the pass's pods with their cgroup folders
  framework::NodeCpus cpus;
  system::CpuTopology topology;  // set before facts is read (a test's own topology)
  ::testing::NiceMock<agent::testing::MockCgroupReader> reader;
  framework::NodeFacts facts{topology, {}, system::CgroupVersion::kV1, true, reader};
  framework::SharedDecisions shared;
};

}  // namespace koord::agent::qosmanager::testing
