// Pieces of the CPU burst tests: pods with limits and started containers, a NodeSLO with a
// cpuBurstStrategy, and a harness that runs the strategy once per simulated second over the
// shared ContextFixture, recording every batch the executor got and serving cpu.stat from the
// MockCgroupReader.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/qosmanager/strategies/cpu_burst/cpu_burst.hpp"
#include "koord/api/well_known.hpp"
#include "koord/metrics/registry.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst::testing {

struct ContainerSpec {
  std::string name;
  int64_t limit_milli = 0;  // 0: no cpu limit
  std::string id;           // "" : not started
};

struct PodSpec {
  std::string name = "web";
  std::string uid = "uid-web";
  std::optional<std::string> qos_label = "LS";
  std::string kube_qos = "Burstable";
  std::string phase = "Running";
  std::vector<ContainerSpec> containers;
  std::optional<std::string> burst_annotation;
};

inline std::shared_ptr<const api::core::Pod> makePod(const PodSpec& spec) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "default";
  pod->metadata.name = spec.name;
  pod->metadata.uid = spec.uid;
  if (spec.qos_label) {
    pod->metadata.labels[std::string(api::kLabelPodQoS)] = *spec.qos_label;
  }
  if (spec.burst_annotation) {
    pod->metadata.annotations[std::string(api::kAnnotationCPUBurst)] = *spec.burst_annotation;
  }
  pod->status.qosClass = spec.kube_qos;
  pod->status.phase = spec.phase;
  api::Json statuses = api::Json::array();
  for (const ContainerSpec& c : spec.containers) {
    api::core::Container container;
    container.name = c.name;
    if (c.limit_milli > 0) {
      container.resources.limits[std::string(api::kResourceCPU)] =
          resource::Quantity::fromMilli(c.limit_milli);
      container.resources.requests[std::string(api::kResourceCPU)] =
          resource::Quantity::fromMilli(c.limit_milli / 2);
    }
    pod->spec.containers.push_back(container);
    if (!c.id.empty()) {
      statuses.push_back({{"name", c.name}, {"containerID", "containerd://" + c.id}});
    }
  }
  pod->status.containerStatuses = statuses;
  return pod;
}

inline std::shared_ptr<const api::slo::NodeSLO> makeNodeSLO(
    std::optional<api::slo::CPUBurstStrategy> strategy) {
  auto slo = std::make_shared<api::slo::NodeSLO>();
  slo->metadata.name = "node-1";
  slo->spec.cpuBurstStrategy = std::move(strategy);
  return slo;
}

inline api::slo::CPUBurstStrategy strategyOf(api::slo::CPUBurstPolicy policy) {
  api::slo::CPUBurstStrategy s;
  s.policy = policy;
  return s;
}

// "<quota|burst> <dir> <value>" per update, in order.
inline std::vector<std::string> render(const std::vector<resourceexecutor::ResourceUpdate>& batch) {
  std::vector<std::string> out;
  for (const auto& u : batch) {
    const char* kind = u.resource == resourceexecutor::CgroupResource::kCpuCfsQuota ? "quota"
                       : u.resource == resourceexecutor::CgroupResource::kCpuBurst  ? "burst"
                                                                                    : "other";
    out.push_back(std::string(kind) + " " + u.dir.string() + " " + u.value);
  }
  return out;
}

class Harness {
 public:
  explicit Harness(bool with_registry = true)
      : strategy_(std::chrono::seconds(1), log::Logger(), with_registry ? &registry : nullptr) {
    fixture.topology.cpus.resize(4);
    for (int32_t i = 0; i < 4; ++i) {
      fixture.topology.cpus[static_cast<size_t>(i)].id = i;
    }
    ON_CALL(fixture.states, nodeSLO()).WillByDefault([this] { return slo; });
    ON_CALL(fixture.executor, updateBatch(::testing::_))
        .WillByDefault([this](std::vector<resourceexecutor::ResourceUpdate> updates) {
          batches.push_back(updates);
          auto it = batch_results.find(updates.front().dir.string());
          return it == batch_results.end() ? Status::ok() : it->second;
        });
    ON_CALL(fixture.reader, cpuThrottling(::testing::_))
        .WillByDefault([this](std::string_view dir) -> Result<metricsadvisor::CpuThrottlingStats> {
          auto it = throttled.find(std::string(dir));
          if (it == throttled.end()) {
            return Status::notFound("no cgroup " + std::string(dir));
          }
          metricsadvisor::CpuThrottlingStats stats;
          stats.nr_throttled = it->second;
          stats.nr_periods = it->second * 2;
          return stats;
        });
  }

  void setPods(const std::vector<std::shared_ptr<const api::core::Pod>>& pods) {
    fixture.pods = resourceexecutor::PodCgroups::resolve(naming, pods);
  }

  // The wall-clock time of the current pass (what MetricWindows sees).
  [[nodiscard]] metriccache::TimePoint wallNow() const { return wall_; }

  // Node CPU usage (cores) sampled now, for the share pool.
  void nodeUsage(double cores) {
    ASSERT_TRUE(fixture.cache.append(metriccache::MetricKind::kNodeCpu, "", wall_, cores).isOk());
  }
  void podUsage(const std::string& uid, double cores) {
    ASSERT_TRUE(fixture.cache.append(metriccache::MetricKind::kPodCpu, uid, wall_, cores).isOk());
  }
  void containerUsage(const std::string& id, double cores) {
    ASSERT_TRUE(
        fixture.cache.append(metriccache::MetricKind::kContainerCpu, id, wall_, cores).isOk());
  }

  // One run at the current time; then both clocks move one second on.
  Status runOnce() {
    framework::MetricWindows windows(fixture.cache, wall_);
    framework::StrategyContext context{fixture.states,   windows,       fixture.executor,
                                       *fixture.evictor, fixture.pods,  fixture.cpus,
                                       fixture.clock,    fixture.facts, fixture.shared};
    batches.clear();
    Status status = strategy_.run(context);
    wall_ += std::chrono::seconds(1);
    fixture.clock.advance(std::chrono::seconds(1));
    return status;
  }

  // Every update of the last run, rendered, batches concatenated.
  [[nodiscard]] std::vector<std::string> lastUpdates() const {
    std::vector<std::string> out;
    for (const auto& batch : batches) {
      for (auto& line : render(batch)) {
        out.push_back(line);
      }
    }
    return out;
  }

  // The quota value of `dir` in the last run; "" when not written.
  [[nodiscard]] std::string lastValue(const std::string& kind, const std::string& dir) const {
    std::string value;
    for (const auto& line : lastUpdates()) {
      const std::string prefix = kind + " " + dir + " ";
      if (line.rfind(prefix, 0) == 0) {
        value = line.substr(prefix.size());
      }
    }
    return value;
  }

  [[nodiscard]] double metric(const std::string& line_prefix) const {
    std::istringstream lines(registry.serialize());
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(line_prefix + " ", 0) == 0) {
        return std::stod(line.substr(line_prefix.size() + 1));
      }
    }
    return -1;
  }

  CpuBurst& strategy() { return strategy_; }

  metrics::MetricsRegistry registry;
  qosmanager::testing::ContextFixture fixture;
  resourceexecutor::KubeletCgroupNaming naming;
  std::shared_ptr<const api::slo::NodeSLO> slo;
  std::vector<std::vector<resourceexecutor::ResourceUpdate>> batches;
  std::map<std::string, Status> batch_results;  // by the first update's dir
  std::map<std::string, uint64_t> throttled;    // nr_throttled by container dir
  metriccache::TimePoint wall_ = metriccache::TimePoint{} + std::chrono::hours(1);

 private:
  CpuBurst strategy_;
};

}  // namespace koord::agent::qosmanager::strategies::cpu_burst::testing
