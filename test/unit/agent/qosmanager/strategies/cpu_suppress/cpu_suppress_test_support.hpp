// Pieces of the CPU suppress tests: pods, Nodes, NodeSLOs and topologies, and a strategy context
// whose metric view is at a chosen wall-clock time.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agent/resourceexecutor/cgroup_resource.hpp"
#include "agent/resourceexecutor/resource_executor.hpp"
#include "koord/api/well_known.hpp"
#include "koord/resource/quantity.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress::testing {

// A running pod with one started container "c<uid>".
inline std::shared_ptr<api::core::Pod> makePod(const std::string& uid, const std::string& koord_qos,
                                               const std::string& kube_qos) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "default";
  pod->metadata.name = "pod-" + uid;
  pod->metadata.uid = uid;
  if (!koord_qos.empty()) {
    pod->metadata.labels[std::string(api::kLabelPodQoS)] = koord_qos;
  }
  pod->status.qosClass = kube_qos;
  pod->status.phase = "Running";
  api::core::Container container;
  container.name = "app";
  pod->spec.containers.push_back(container);
  pod->status.containerStatuses =
      api::Json::array({{{"name", "app"}, {"containerID", "containerd://c" + uid}}});
  return pod;
}

inline std::shared_ptr<api::core::Pod> bePod(const std::string& uid) {
  return makePod(uid, "BE", "BestEffort");
}
inline std::shared_ptr<api::core::Pod> lsPod(const std::string& uid) {
  return makePod(uid, "LS", "Burstable");
}
// An LSR (or LSE) pod pinned to `cpus` by the scheduler's resource-status.
inline std::shared_ptr<api::core::Pod> pinnedPod(const std::string& uid, const std::string& qos,
                                                 const std::string& cpus) {
  auto pod = makePod(uid, qos, "Guaranteed");
  pod->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      "{\"cpuset\":\"" + cpus + "\"}";
  return pod;
}

inline std::shared_ptr<api::core::Node> makeNode(int64_t capacity_milli,
                                                 int64_t allocatable_milli) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-1";
  node->status.capacity[std::string(api::kResourceCPU)] =
      resource::Quantity::fromMilli(capacity_milli);
  node->status.allocatable[std::string(api::kResourceCPU)] =
      resource::Quantity::fromMilli(allocatable_milli);
  return node;
}

inline std::shared_ptr<api::slo::NodeSLO> makeSlo(std::optional<bool> enable,
                                                  api::slo::CPUSuppressPolicy policy,
                                                  std::optional<int64_t> threshold = 65,
                                                  std::optional<int64_t> min_percent = {}) {
  auto slo = std::make_shared<api::slo::NodeSLO>();
  slo->metadata.name = "node-1";
  api::slo::ResourceThresholdStrategy section;
  section.enable = enable;
  section.cpuSuppressThresholdPercent = threshold;
  section.cpuSuppressMinPercent = min_percent;
  section.cpuSuppressPolicy = policy;
  slo->spec.resourceUsedThresholdWithBE = section;
  return slo;
}

// `sockets` sockets (one NUMA node each) of `cores` cores with `threads` threads each, numbered as
// Linux does: CPU i has core i % (sockets*cores), and the sibling threads follow after all first
// threads (2 sockets × 4 cores × 2 threads: core 0 is CPUs 0 and 8, socket 1 holds 4-7, 12-15).
inline system::CpuTopology smtTopology(int sockets, int cores, int threads) {
  system::CpuTopology topology;
  const int all_cores = sockets * cores;
  for (int i = 0; i < all_cores * threads; ++i) {
    const int core = i % all_cores;
    const int socket = core / cores;
    topology.cpus.push_back(system::CpuInfo{i, core, socket, socket});
  }
  topology.sockets = sockets;
  topology.numa_nodes = sockets;
  topology.cores = all_cores;
  topology.threads_per_core = threads;
  return topology;
}

// "cpuset_cpus kubepods/besteffort 0-3": an update without its reason.
inline std::string describe(const resourceexecutor::ResourceUpdate& update) {
  return std::string(resourceexecutor::cgroupResourceName(update.resource)) + " " +
         update.dir.string() + " " + update.value;
}

inline std::vector<std::string> describe(const std::vector<resourceexecutor::ResourceUpdate>& all) {
  std::vector<std::string> out;
  for (const auto& update : all) {
    out.push_back(describe(update));
  }
  return out;
}

// The qosmanager ContextFixture with the metric view at `now` and helpers to feed usage.
struct SuppressFixture : qosmanager::testing::ContextFixture {
  SuppressFixture() {
    ON_CALL(states, node()).WillByDefault([this] { return node; });
    ON_CALL(states, nodeSLO()).WillByDefault([this] { return slo; });
  }

  framework::StrategyContext context() {
    view = std::make_unique<framework::MetricWindows>(cache, now);
    return framework::StrategyContext{states, *view, executor, *evictor, pods,
                                      cpus,   clock, facts,    shared};
  }

  void setPods(const std::vector<std::shared_ptr<api::core::Pod>>& all) {
    std::vector<std::shared_ptr<const api::core::Pod>> list(all.begin(), all.end());
    pods = resourceexecutor::PodCgroups::resolve({}, list);
  }

  // Usage samples at `now`: the node's, and each pod's (cores).
  void usage(double node_cores, const std::map<std::string, double>& pod_cores) {
    ASSERT_TRUE(cache.append(metriccache::MetricKind::kNodeCpu, "", now, node_cores).isOk());
    for (const auto& [uid, cores] : pod_cores) {
      ASSERT_TRUE(cache.append(metriccache::MetricKind::kPodCpu, uid, now, cores).isOk());
    }
  }

  metriccache::TimePoint now = metriccache::TimePoint{} + std::chrono::hours(24 * 365 * 50);
  std::unique_ptr<framework::MetricWindows> view;
  std::shared_ptr<api::core::Node> node = makeNode(16000, 16000);
  std::shared_ptr<api::slo::NodeSLO> slo;
};

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress::testing
