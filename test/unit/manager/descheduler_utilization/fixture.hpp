// Test fixture for the utilization plugins: pods and nodes shaped like the community's
// test.BuildTestPod / test.BuildTestNode, and a fake Evictor standing in for DefaultEvictor with
// nodeFit: filter() refuses pods without owner, DaemonSet pods, mirror pods and system-critical
// pods; preEvictionFilter() wants another schedulable node whose labels match the pod's
// nodeSelector, whose NoSchedule taints the pod tolerates, and whose free allocatable holds the
// pod's requests. It records what evict() was given.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/taints.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::utilization::testing {

using api::core::Node;
using api::core::Pod;
using resource::Quantity;

inline constexpr char kExtended[] = "example.com/foo";
inline constexpr int32_t kLowPriority = 1;  // the community's lowPriority / highPriority
inline constexpr int32_t kHighPriority = 10000;
inline constexpr int32_t kSystemCritical = 2000000000;

// A pod requesting `cpu` millicores and `memory` bytes (a negative amount requests nothing),
// owned by a ReplicaSet.
inline Pod buildPod(const std::string& name, int64_t cpu, int64_t memory, const std::string& node) {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + name;
  pod.metadata.ownerReferences.push_back({"apps/v1", "ReplicaSet", "rs", "rs-uid", true, {}, {}});
  pod.spec.nodeName = node;
  pod.status.phase = "Running";
  api::core::Container container;
  if (cpu >= 0)
    container.resources.requests["cpu"] = Quantity::fromMilli(cpu);
  if (memory >= 0)
    container.resources.requests["memory"] = Quantity::fromInt(memory);
  pod.spec.containers.push_back(container);
  return pod;
}

inline void setDaemonSetOwner(Pod& pod) {
  pod.metadata.ownerReferences[0].kind = "DaemonSet";
}
inline void setMirror(Pod& pod) {
  pod.metadata.annotations["kubernetes.io/config.mirror"] = "m";
}
inline void setCritical(Pod& pod) {
  pod.metadata.namespace_ = "kube-system";
  pod.spec.priority = kSystemCritical;
}
inline void makeBestEffort(Pod& pod) {
  pod.spec.containers[0].resources.requests.clear();
  pod.spec.containers[0].resources.limits.clear();
}
inline void setExtendedRequest(Pod& pod, int64_t amount) {
  pod.spec.containers[0].resources.requests[kExtended] = Quantity::fromInt(amount);
}

inline Node buildNode(const std::string& name, int64_t cpu, int64_t memory, int64_t pods) {
  Node node;
  node.metadata.name = name;
  node.status.allocatable = {{"cpu", Quantity::fromMilli(cpu)},
                             {"memory", Quantity::fromInt(memory)},
                             {"pods", Quantity::fromInt(pods)}};
  node.status.capacity = node.status.allocatable;
  return node;
}

class FakeEvictor final : public framework::Evictor {
 public:
  explicit FakeEvictor(const framework::ClusterSnapshot* snapshot) : snapshot_(snapshot) {}

  [[nodiscard]] bool filter(const Pod& pod) const override {
    if (pod.metadata.ownerReferences.empty())
      return false;
    if (pod.metadata.ownerReferences[0].kind == "DaemonSet")
      return false;
    if (pod.metadata.annotations.contains("kubernetes.io/config.mirror"))
      return false;
    return !(pod.spec.priority && *pod.spec.priority >= kSystemCritical);
  }

  [[nodiscard]] bool preEvictionFilter(const Pod& pod) const override {
    const auto requests = api::core::podRequests(pod).valueOr({});
    for (const auto& node : snapshot_->nodes()) {
      if (node->metadata.name == pod.spec.nodeName || node->spec.unschedulable)
        continue;
      bool selected = true;
      for (const auto& [key, value] : pod.spec.nodeSelector) {
        auto it = node->metadata.labels.find(key);
        selected = selected && it != node->metadata.labels.end() && it->second == value;
      }
      if (!selected || api::core::findUntoleratedSchedulingTaint(pod, *node))
        continue;
      resource::ResourceList free = node->status.allocatable;
      for (const auto& other : snapshot_->podsOnNode(node->metadata.name)) {
        free = resource::subtract(free, api::core::podRequests(*other).valueOr({})).valueOr(free);
      }
      if (resource::fits(requests, free))
        return true;
    }
    return false;
  }

  bool evict(const Pod& pod, const framework::EvictOptions& options) override {
    if (total_limit && evicted.size() >= *total_limit)
      return false;
    evicted.push_back(pod.metadata.name);
    last_options = options;
    return true;
  }

  [[nodiscard]] bool nodeLimitExceeded(const Node&) const override { return false; }

  std::vector<std::string> evicted;
  framework::EvictOptions last_options;
  std::optional<size_t> total_limit;

 private:
  const framework::ClusterSnapshot* snapshot_;
};

// Runs `plugin_factory`'s plugin over the cluster and returns the names it evicted, in order.
template <typename Create>
std::vector<std::string> runBalance(const std::vector<Node>& nodes, const std::vector<Pod>& pods,
                                    const nlohmann::json& args, Create create,
                                    framework::EvictOptions* options = nullptr,
                                    std::optional<size_t> total_limit = std::nullopt) {
  framework::ClusterSnapshot::Input input;
  framework::NodeList node_list;
  for (const auto& node : nodes) {
    input.nodes.push_back(std::make_shared<const Node>(node));
    node_list.push_back(input.nodes.back());
  }
  for (const auto& pod : pods)
    input.pods.push_back(std::make_shared<const Pod>(pod));
  const auto snapshot = framework::ClusterSnapshot::build(std::move(input));
  FakeEvictor evictor(&snapshot);
  evictor.total_limit = total_limit;
  framework::Handle handle;
  handle.snapshot = &snapshot;
  handle.evictor = &evictor;
  auto plugin = create(args, handle);
  if (!plugin.ok()) {
    ADD_FAILURE() << plugin.status();
    return {};
  }
  auto* balance = dynamic_cast<framework::BalancePlugin*>(plugin->get());
  if (balance == nullptr) {
    ADD_FAILURE() << "not a BalancePlugin";
    return {};
  }
  EXPECT_TRUE(balance->balance(node_list).isOk());
  if (options != nullptr)
    *options = evictor.last_options;
  return evictor.evicted;
}

}  // namespace koord::manager::descheduler::utilization::testing
