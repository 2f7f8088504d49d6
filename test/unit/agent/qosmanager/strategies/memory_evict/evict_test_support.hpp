// Shared pieces of the BE eviction strategies' tests (memory_evict and cpu_evict): a
// ContextFixture whose evictor records its Events and counts into a registry, whose metric
// windows follow the FakeClock (wall-clock time kMetricEpoch + the clock's advance), and builders
// of pods, Nodes and NodeSLOs.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/well_known.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::testing {

inline constexpr int64_t kGiB = int64_t{1} << 30;
inline constexpr int64_t kMiB = int64_t{1} << 20;

struct RecordedEvent {
  std::string pod;  // namespace/name
  std::string reason;
  std::string message;
};

struct PodSpec {
  std::string name;
  std::optional<int32_t> priority = 5500;
  std::string qos = "BE";  // the koordinator.sh/qosClass label; "" for none
  std::string kube_qos = "BestEffort";
  std::string phase = "Running";
  int64_t batch_memory_request = 0;  // bytes; 0: none
  int64_t batch_cpu_request = 0;     // milli-cores; 0: none
};

inline std::shared_ptr<const api::core::Pod> makePod(const PodSpec& spec) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "batch";
  pod->metadata.name = spec.name;
  pod->metadata.uid = "uid-" + spec.name;
  if (!spec.qos.empty()) {
    pod->metadata.labels[std::string(api::kLabelPodQoS)] = spec.qos;
  }
  pod->spec.priority = spec.priority;
  pod->status.qosClass = spec.kube_qos;
  pod->status.phase = spec.phase;
  api::core::Container container;
  container.name = "main";
  if (spec.batch_memory_request > 0) {
    container.resources.requests[std::string(api::kResourceBatchMemory)] =
        resource::Quantity::fromInt(spec.batch_memory_request, resource::QuantityFormat::kBinarySI);
  }
  if (spec.batch_cpu_request > 0) {
    container.resources.requests[std::string(api::kResourceBatchCPU)] =
        resource::Quantity::fromInt(spec.batch_cpu_request);
  }
  pod->spec.containers.push_back(container);
  return pod;
}

// A NodeSLO whose resourceUsedThresholdWithBE is `section`.
inline std::shared_ptr<const api::slo::NodeSLO> makeNodeSLO(
    const api::slo::ResourceThresholdStrategy& section) {
  auto slo = std::make_shared<api::slo::NodeSLO>();
  slo->metadata.name = "node-1";
  slo->spec.resourceUsedThresholdWithBE = section;
  return slo;
}

struct EvictFixture : ContextFixture {
  // Wall-clock time of the metric windows when the FakeClock has not moved.
  static constexpr metriccache::TimePoint kMetricEpoch =
      metriccache::TimePoint{} + std::chrono::seconds(1'700'000'000);

  explicit EvictFixture(framework::EvictorOptions options = unlimitedEvictor()) {
    evictor = framework::Evictor::create(
                  client, clock,
                  [this](const api::core::ObjectReference& object, k8s::EventType,
                         std::string reason, std::string message) {
                    events.push_back({object.namespace_ + "/" + object.name, std::move(reason),
                                      std::move(message)});
                  },
                  options, log::Logger(), &registry)
                  .value();
    start = clock.now();
    ON_CALL(states, nodeSLO()).WillByDefault([this] { return node_slo; });
    ON_CALL(states, node()).WillByDefault([this] { return node; });
    ON_CALL(states, pods()).WillByDefault([this] { return pod_list; });
  }

  ~EvictFixture() { evictor.reset(); }  // before the registry it counts into

  static framework::EvictorOptions unlimitedEvictor() {
    framework::EvictorOptions options;
    options.max_evictions = 1000;
    return options;
  }

  metriccache::TimePoint metricNow() const {
    return kMetricEpoch +
           std::chrono::duration_cast<std::chrono::milliseconds>(clock.now() - start);
  }

  // A sample of (kind, id) taken `age` before the metric time of now.
  void sample(metriccache::MetricKind kind, const std::string& id, double value,
              std::chrono::milliseconds age = std::chrono::milliseconds(0)) {
    ASSERT_TRUE(cache.append(kind, id, metricNow() - age, value).isOk());
  }

  void setPods(std::vector<std::shared_ptr<const api::core::Pod>> list) {
    pod_list = std::move(list);
    pods = resourceexecutor::PodCgroups::resolve(facts.naming, pod_list);
  }

  // The context of a pass at the clock's now (metric windows at metricNow()).
  framework::StrategyContext context() {
    pass_windows.emplace(cache, metricNow());
    return framework::StrategyContext{states, *pass_windows, executor, *evictor, pods,
                                      cpus,   clock,         facts,    shared};
  }

  std::vector<std::string> eventReasons() const {
    std::vector<std::string> out;
    for (const RecordedEvent& event : events) {
      out.push_back(event.pod + " " + event.reason);
    }
    return out;
  }

  metrics::MetricsRegistry registry;
  std::vector<RecordedEvent> events;
  Clock::TimePoint start;
  std::shared_ptr<const api::slo::NodeSLO> node_slo;
  std::shared_ptr<const api::core::Node> node;
  std::vector<std::shared_ptr<const api::core::Pod>> pod_list;
  std::optional<framework::MetricWindows> pass_windows;
};

}  // namespace koord::agent::qosmanager::testing
