#include "cluster.hpp"

#include <array>
#include <ctime>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::manager::descheduler::bench {

namespace bench_cluster_detail {

using nlohmann::json;
using resource::Quantity;

constexpr int64_t kGi = int64_t{1} << 30;
constexpr const char* kZoneKey = "topology.kubernetes.io/zone";
constexpr const char* kHostKey = "kubernetes.io/hostname";

enum class Load { kLight, kMedium, kHeavy };

Load loadOf(int node) {
  const int c = node % 10;
  return c < 3 ? Load::kLight : (c < 7 ? Load::kMedium : Load::kHeavy);
}

std::string nodeName(int i) {
  return "node-" + std::to_string(i);
}

std::string rfc3339(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

framework::NodePtr makeNode(int i) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = nodeName(i);
  node->metadata.uid = "node-uid-" + std::to_string(i);
  node->metadata.labels[kHostKey] = node->metadata.name;
  node->metadata.labels[kZoneKey] = std::string("zone-") + static_cast<char>('a' + i % 7 % 3);
  if (i % 7 != 0) {
    node->metadata.labels["disktype"] = "ssd";
  }
  if (i % 50 == 0) {
    node->spec.taints.push_back({"dedicated", "infra", "NoSchedule", "", {}});
  } else if (i % 50 == 25) {
    node->spec.taints.push_back({"maintenance", "true", "PreferNoSchedule", "", {}});
  }
  node->status.allocatable = {{"cpu", Quantity::fromInt(128)},
                              {"memory", Quantity::fromInt(512 * kGi)},
                              {"pods", Quantity::fromInt(110)}};
  node->status.capacity = node->status.allocatable;
  api::core::NodeCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  node->status.conditions.push_back(ready);
  return node;
}

// The ReplicaSet of slot `slot` on node `node`: a scatter that gives each ReplicaSet 25 pods,
// except that on every 4th node slot 1 repeats slot 0's ReplicaSet.
int replicaSetOf(int node, int slot) {
  const int k = node * kPodsPerNode + (node % 4 == 0 && slot == 1 ? 0 : slot);
  return static_cast<int>((static_cast<int64_t>(k) * 7919) % kReplicaSets);
}

// cpu millicores and memory bytes requested by a pod on a node of `load`.
std::pair<int64_t, int64_t> requestsFor(Load load, int k) {
  switch (load) {
    case Load::kLight:
      return {1000 + (k % 5) * 200, 2 * kGi};
    case Load::kMedium:
      return {4000 + (k % 5) * 250, 16 * kGi};
    case Load::kHeavy:
      return {8000 + (k % 5) * 250, 32 * kGi};
  }
  return {0, 0};
}

json selectorFor(const std::string& app) {
  return {{"matchLabels", {{"app", app}}}};
}

void addPlacementRules(api::core::Pod& pod, int rs, const std::string& app) {
  api::core::Affinity affinity;
  bool any = false;
  const api::core::NodeSelectorTerm ssd{{{"disktype", "In", {"ssd"}, {}}}, {}, {}};
  if (rs % 10 == 1) {
    api::core::NodeAffinity node_affinity;
    node_affinity.required = api::core::NodeSelector{{ssd}, {}};
    affinity.nodeAffinity = node_affinity;
    any = true;
  } else if (rs % 10 == 2) {
    api::core::NodeAffinity node_affinity;
    node_affinity.preferred.push_back({50, ssd, {}});
    affinity.nodeAffinity = node_affinity;
    any = true;
  }
  if (rs % 20 == 3 || rs % 100 == 7) {
    const char* key = rs % 20 == 3 ? kHostKey : kZoneKey;
    affinity.podAntiAffinity = {
        {"requiredDuringSchedulingIgnoredDuringExecution",
         json::array({{{"labelSelector", selectorFor(app)}, {"topologyKey", key}}})}};
    any = true;
  }
  if (any) {
    pod.spec.affinity = std::move(affinity);
  }
  if (rs % 10 == 5 || rs % 10 == 6) {
    pod.spec.extra["topologySpreadConstraints"] =
        json::array({{{"maxSkew", 1},
                      {"topologyKey", kZoneKey},
                      {"whenUnsatisfiable", rs % 10 == 5 ? "DoNotSchedule" : "ScheduleAnyway"},
                      {"labelSelector", selectorFor(app)}}});
  }
  pod.spec.tolerations.push_back(
      {"node.kubernetes.io/not-ready", "Exists", "", "NoExecute", int64_t{300}, {}});
  if (rs % 5 == 0) {
    pod.spec.tolerations.push_back({"dedicated", "Equal", "infra", "NoSchedule", {}, {}});
  }
}

void setResources(api::core::Pod& pod, Load load, int k, int slot) {
  api::core::Container& main = pod.spec.containers.front();
  if (slot == 8 && k % 3 == 0) {
    pod.status.qosClass = "BestEffort";
    return;
  }
  const auto [cpu, memory] = requestsFor(load, k);
  main.resources.requests = {{"cpu", Quantity::fromMilli(cpu)},
                             {"memory", Quantity::fromInt(memory)}};
  main.resources.limits = main.resources.requests;
  if (slot % 2 == 0) {
    pod.status.qosClass = "Guaranteed";
  } else {
    main.resources.limits["cpu"] = Quantity::fromMilli(2 * cpu);
    pod.status.qosClass = "Burstable";
  }
}

void setStatus(api::core::Pod& pod, int node, int k, int slot,
               std::chrono::system_clock::time_point now) {
  const bool failed = slot == 9 && node % 20 == 3;
  const int restarts = k % 37 == 0 ? 150 : k % 5;
  pod.metadata.creationTimestamp =
      rfc3339(now - std::chrono::hours(24 * (k % 40)) - std::chrono::seconds(k % 3600 + 7200));
  pod.status.phase = failed ? "Failed" : "Running";
  pod.status.startTime = pod.metadata.creationTimestamp;
  json state = failed ? json{{"terminated", {{"exitCode", 1}, {"reason", "Error"}}}}
                      : json{{"running", {{"startedAt", pod.status.startTime}}}};
  pod.status.containerStatuses = json::array({{{"name", "main"},
                                               {"ready", !failed},
                                               {"restartCount", restarts},
                                               {"state", std::move(state)}}});
}

framework::PodPtr makePod(int node, int slot, std::chrono::system_clock::time_point now) {
  static constexpr std::array<int32_t, 4> kPriorities = {0, 100, 1000, 10000};
  static constexpr std::array<const char*, 4> kClasses = {"low", "default", "mid", "high"};
  const int k = node * kPodsPerNode + slot;
  const int rs = replicaSetOf(node, slot);
  const bool daemon = node % 10 == 0 && slot == 7;
  const std::string app = daemon ? "node-agent" : "rs-" + std::to_string(rs);
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = daemon ? "kube-system" : "ns-" + std::to_string(rs % 20);
  pod->metadata.name = app + "-" + std::to_string(k);
  pod->metadata.uid = "pod-uid-" + std::to_string(k);
  pod->metadata.labels["app"] = app;
  api::core::OwnerReference owner;
  owner.apiVersion = "apps/v1";
  owner.kind = daemon ? "DaemonSet" : "ReplicaSet";
  owner.name = app;
  owner.uid = "owner-uid-" + app;
  owner.controller = true;
  pod->metadata.ownerReferences.push_back(owner);
  pod->spec.nodeName = nodeName(node);
  pod->spec.schedulerName = "koord-scheduler";
  pod->spec.priority = kPriorities[static_cast<size_t>(k % 4)];
  pod->spec.priorityClassName = kClasses[static_cast<size_t>(k % 4)];
  api::core::Container main;
  main.name = "main";
  main.image = "registry.local/app-" + std::to_string(daemon ? 999 : rs % 50) + ":v1";
  pod->spec.containers.push_back(std::move(main));
  setResources(*pod, loadOf(node), k, slot);
  if (!daemon) {
    addPlacementRules(*pod, rs, app);
  }
  setStatus(*pod, node, k, slot, now);
  return pod;
}

// What a pod uses: light nodes half their requests, heavy ones 15% more; BestEffort pods a little.
resource::ResourceList usageOf(const api::core::Pod& pod, Load load) {
  const auto& requests = pod.spec.containers.front().resources.requests;
  if (requests.empty()) {
    return {{"cpu", Quantity::fromMilli(200)}, {"memory", Quantity::fromInt(kGi / 2)}};
  }
  const int64_t percent = load == Load::kLight ? 50 : (load == Load::kMedium ? 80 : 115);
  const int64_t cpu = requests.at("cpu").milliValue() * percent / 100;
  const int64_t memory = requests.at("memory").value() / 100 * percent;
  return {{"cpu", Quantity::fromMilli(cpu)}, {"memory", Quantity::fromInt(memory)}};
}

framework::NodeMetricPtr makeMetric(int node, const std::vector<framework::PodPtr>& pods,
                                    std::chrono::system_clock::time_point now) {
  auto metric = std::make_shared<api::slo::NodeMetric>();
  metric->metadata.name = nodeName(node);
  metric->status.updateTime = rfc3339(now - std::chrono::seconds(30));
  api::slo::NodeMetricInfo info;
  info.systemUsage.resources = {{"cpu", Quantity::fromInt(1)},
                                {"memory", Quantity::fromInt(4 * kGi)}};
  int64_t cpu = 1000;
  int64_t memory = 4 * kGi;
  for (const framework::PodPtr& pod : pods) {
    api::slo::PodMetricInfo pod_metric;
    pod_metric.name = pod->metadata.name;
    pod_metric.namespace_ = pod->metadata.namespace_;
    pod_metric.podUsage.resources = usageOf(*pod, loadOf(node));
    cpu += pod_metric.podUsage.resources.at("cpu").milliValue();
    memory += pod_metric.podUsage.resources.at("memory").value();
    metric->status.podsMetric.push_back(std::move(pod_metric));
  }
  info.nodeUsage.resources = {{"cpu", Quantity::fromMilli(cpu)},
                              {"memory", Quantity::fromInt(memory)}};
  metric->status.nodeMetric = std::move(info);
  return metric;
}

}  // namespace bench_cluster_detail

std::chrono::system_clock::time_point benchNow() {
  // 2025-01-01T00:00:00Z
  return std::chrono::system_clock::time_point(std::chrono::seconds(1735689600));
}

framework::ClusterSnapshot::Input buildClusterInput() {
  namespace d = bench_cluster_detail;
  const auto now = benchNow();
  framework::ClusterSnapshot::Input input;
  input.nodes.reserve(kNodes);
  input.pods.reserve(static_cast<size_t>(kNodes) * kPodsPerNode);
  input.node_metrics.reserve(kNodes);
  for (int i = 0; i < kNodes; ++i) {
    input.nodes.push_back(d::makeNode(i));
    std::vector<framework::PodPtr> on_node;
    for (int slot = 0; slot < kPodsPerNode; ++slot) {
      on_node.push_back(d::makePod(i, slot, now));
    }
    input.node_metrics.push_back(d::makeMetric(i, on_node, now));
    input.pods.insert(input.pods.end(), on_node.begin(), on_node.end());
  }
  input.priority_classes = {{"low", 0}, {"default", 100}, {"mid", 1000}, {"high", 10000}};
  return input;
}

}  // namespace koord::manager::descheduler::bench
