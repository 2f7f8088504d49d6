// The node the noderesource tests share, worked by hand in batch_test.cpp and
// docs/batch-resources.md:
//   capacity 32 cores / 100Gi, allocatable 31 cores / 96Gi (kubelet reserves 1000m / 4Gi)
//   NodeMetric updated a minute before kNow: systemUsage 2000m / 6Gi, nodeUsage 14000m / 40Gi
//   prod-a  Running, koord-prod, requests 4 / 8Gi, usage 3000m / 10Gi
//   prod-b  Running, koord-prod, requests 2 / 4Gi, no metric (charged its requests)
//   lse     Running, koord-prod, LSE, requests 4 / 4Gi, usage 1000m / 2Gi (charged 4000m CPU)
//   batch-a Running, koord-batch, usage 5000m / 8Gi (not high-priority)
//   done    Succeeded, koord-prod, usage 500m / 1Gi: its metric dangles (counted)
//   metric "gone" (koord-batch, 700m / 1Gi) dangles but is not counted
//   metric "old" (no priority, 300m / 512Mi) dangles and is counted
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/noderesource/strategy.hpp"

namespace koord::manager::noderesource::fixture {

inline constexpr int64_t kGi = int64_t{1} << 30;
inline constexpr int64_t kMi = int64_t{1} << 20;

inline resource::Quantity q(const std::string& text) {
  return resource::Quantity::parse(text).value();
}

inline std::chrono::system_clock::time_point at(const std::string& text) {
  return api::core::parseTime(text).value();
}

inline const std::string kNowText = "2026-01-01T12:00:00Z";

inline resource::ResourceList cpuMem(const std::string& cpu, const std::string& memory) {
  return {{"cpu", q(cpu)}, {"memory", q(memory)}};
}

inline api::core::Node baseNode() {
  api::core::Node node;
  node.metadata.name = "node-1";
  node.status.capacity = cpuMem("32", "100Gi");
  node.status.allocatable = cpuMem("31", "96Gi");
  return node;
}

inline api::core::Pod makePod(const std::string& name, const std::string& phase,
                              std::optional<int32_t> priority, const std::string& cpu,
                              const std::string& memory, const std::string& qos = "") {
  api::core::Pod pod;
  pod.metadata.namespace_ = "default";
  pod.metadata.name = name;
  if (!qos.empty()) {
    pod.metadata.labels["koordinator.sh/qosClass"] = qos;
  }
  pod.spec.priority = priority;
  api::core::Container container;
  container.name = "main";
  if (!cpu.empty()) {
    container.resources.requests = cpuMem(cpu, memory);
  }
  pod.spec.containers.push_back(container);
  pod.status.phase = phase;
  return pod;
}

inline std::vector<api::core::Pod> basePods() {
  return {
      makePod("prod-a", "Running", 9500, "4", "8Gi"),
      makePod("prod-b", "Running", 9500, "2", "4Gi"),
      makePod("lse", "Running", 9500, "4", "4Gi", "LSE"),
      makePod("batch-a", "Running", 5500, "", ""),
      makePod("done", "Succeeded", 9500, "1", "1Gi"),
  };
}

inline api::slo::PodMetricInfo podMetric(const std::string& name, const std::string& priority,
                                         const std::string& cpu, const std::string& memory) {
  api::slo::PodMetricInfo metric;
  metric.namespace_ = "default";
  metric.name = name;
  metric.priority = priority;
  metric.podUsage.resources = cpuMem(cpu, memory);
  return metric;
}

inline api::slo::NodeMetric baseMetric() {
  api::slo::NodeMetric metric;
  metric.metadata.name = "node-1";
  metric.status.updateTime = "2026-01-01T11:59:00Z";
  api::slo::NodeMetricInfo info;
  info.systemUsage.resources = cpuMem("2", "6Gi");
  info.nodeUsage.resources = cpuMem("14", "40Gi");
  metric.status.nodeMetric = info;
  metric.status.podsMetric = {
      podMetric("prod-a", "koord-prod", "3", "10Gi"),
      podMetric("lse", "koord-prod", "1", "2Gi"),
      podMetric("batch-a", "koord-batch", "5", "8Gi"),
      podMetric("done", "koord-prod", "500m", "1Gi"),
      podMetric("gone", "koord-batch", "700m", "1Gi"),
      podMetric("old", "", "300m", "512Mi"),
  };
  return metric;
}

inline ColocationStrategy enabled() {
  ColocationStrategy strategy;
  strategy.enable = true;
  return strategy;
}

}  // namespace koord::manager::noderesource::fixture
