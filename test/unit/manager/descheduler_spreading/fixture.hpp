// Test fixture for the spreading plugins: a fake evictor (configurable filters and limits,
// recording what it evicts), pod and node builders shaped like the community tests' helpers
// (test.BuildTestPod / BuildTestNode), and a simple node-fit check for
// Handle::pod_fits_any_other_node (unschedulable, node selector/affinity, NoSchedule/NoExecute
// taints, cpu and pod count against allocatable less the requests of the node's pods).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::plugins::spreading::testing {

using api::core::Node;
using api::core::Pod;
using framework::NodeList;
using framework::PodPtr;
using resource::Quantity;

class FakeEvictor : public framework::Evictor {
 public:
  std::function<bool(const Pod&)> filter_fn;      // null: every pod
  std::function<bool(const Pod&)> pre_filter_fn;  // null: every pod
  std::optional<int> max_per_node;
  std::optional<int> max_per_namespace;
  std::optional<int> max_total;
  std::vector<std::string> evicted;  // pod names, in eviction order
  std::vector<framework::EvictOptions> options;

  bool filter(const Pod& pod) const override { return !filter_fn || filter_fn(pod); }
  bool preEvictionFilter(const Pod& pod) const override {
    return !pre_filter_fn || pre_filter_fn(pod);
  }
  bool evict(const Pod& pod, const framework::EvictOptions& opts) override {
    if ((max_total && static_cast<int>(evicted.size()) >= *max_total) ||
        (max_per_node && per_node_[pod.spec.nodeName] >= *max_per_node) ||
        (max_per_namespace && per_ns_[pod.metadata.namespace_] >= *max_per_namespace)) {
      return false;
    }
    ++per_node_[pod.spec.nodeName];
    ++per_ns_[pod.metadata.namespace_];
    evicted.push_back(pod.metadata.name);
    options.push_back(opts);
    return true;
  }
  bool nodeLimitExceeded(const Node& node) const override {
    auto it = per_node_.find(node.metadata.name);
    return max_per_node && it != per_node_.end() && it->second >= *max_per_node;
  }

 private:
  std::map<std::string, int> per_node_;
  std::map<std::string, int> per_ns_;
};

// test.BuildTestNode(name, milliCPU, memory, pods, apply).
inline Node makeNode(const std::string& name, int64_t milli_cpu = 2000, int64_t memory = 3000,
                     int64_t pods = 10, const std::map<std::string, std::string>& labels = {}) {
  Node node;
  node.metadata.name = name;
  node.metadata.labels = labels;
  node.status.capacity = {{"cpu", Quantity::fromMilli(milli_cpu)},
                          {"memory", Quantity::fromInt(memory)},
                          {"pods", Quantity::fromInt(pods)}};
  node.status.allocatable = node.status.capacity;
  return node;
}

// test.BuildTestPod(name, milliCPU, memory, nodeName, apply): namespace "default", one container.
inline Pod makePod(const std::string& name, const std::string& node, int64_t milli_cpu = 100,
                   int64_t memory = 0) {
  Pod pod;
  pod.apiVersion = "v1";
  pod.kind = "Pod";
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + name;
  pod.spec.nodeName = node;
  api::core::Container container;
  container.resources.requests = {{"cpu", Quantity::fromMilli(milli_cpu)},
                                  {"memory", Quantity::fromInt(memory)}};
  pod.spec.containers.push_back(container);
  return pod;
}

inline void setOwner(Pod& pod, const std::string& kind, const std::string& name) {
  api::core::OwnerReference ref;
  ref.apiVersion = "v1";
  ref.kind = kind;
  ref.name = name;
  pod.metadata.ownerReferences = {ref};
}

inline void setRSOwnerRef(Pod& pod) {
  setOwner(pod, "ReplicaSet", "replicaset-1");
}

// The part of DefaultEvictor's filter the community tests rely on: DaemonSet pods, mirror pods,
// system-critical priority, local storage (marked here by the annotation "test/local-storage")
// and terminating pods are not evictable.
inline bool defaultEvictable(const Pod& pod) {
  for (const auto& ref : pod.metadata.ownerReferences) {
    if (ref.kind == "DaemonSet") {
      return false;
    }
  }
  const auto& annotations = pod.metadata.annotations;
  if (annotations.contains("kubernetes.io/config.mirror") ||
      annotations.contains("test/local-storage")) {
    return false;
  }
  if (pod.spec.priority.has_value() && *pod.spec.priority >= 2000000000) {
    return false;
  }
  return pod.metadata.deletionTimestamp.empty();
}

// Holds the cluster, the evictor and the handle a plugin is made with.
struct Cluster {
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  FakeEvictor evictor;
  framework::ClusterSnapshot snapshot;
  framework::Handle handle;
  NodeList node_list;

  // Builds the snapshot and handle; `fit` null: the fixture's simple node-fit check.
  void build() {
    framework::ClusterSnapshot::Input input;
    for (const auto& n : nodes) {
      input.nodes.push_back(std::make_shared<const Node>(n));
    }
    for (const auto& p : pods) {
      input.pods.push_back(std::make_shared<const Pod>(p));
    }
    node_list = input.nodes;
    snapshot = framework::ClusterSnapshot::build(std::move(input));
    handle.snapshot = &snapshot;
    handle.evictor = &evictor;
    handle.pod_fits_any_other_node = [this](const Pod& pod, const NodeList& candidates) {
      for (const auto& node : candidates) {
        if (node->metadata.name != pod.spec.nodeName && fitsNode(pod, *node)) {
          return true;
        }
      }
      return false;
    };
  }

  // DefaultEvictor's nodeFit: the pod must fit some other node of the cluster.
  void enableNodeFit() {
    evictor.pre_filter_fn = [this](const Pod& pod) {
      return handle.pod_fits_any_other_node(pod, node_list);
    };
  }

  [[nodiscard]] bool fitsNode(const Pod& pod, const Node& node) const {
    if (node.spec.unschedulable) {
      return false;
    }
    auto affinity = api::core::matchesRequiredNodeAffinity(pod, node);
    if (!affinity.ok() || !*affinity) {
      return false;
    }
    if (api::core::findUntoleratedSchedulingTaint(pod, node).has_value()) {
      return false;
    }
    const auto& on_node = snapshot.podsOnNode(node.metadata.name);
    int64_t used_cpu = 0;
    for (const auto& other : on_node) {
      used_cpu += resource::get(api::core::podRequests(*other).valueOr({}), "cpu").milliValue();
    }
    const int64_t want = resource::get(api::core::podRequests(pod).valueOr({}), "cpu").milliValue();
    const auto& alloc = node.status.allocatable;
    return used_cpu + want <= resource::get(alloc, "cpu").milliValue() &&
           static_cast<int64_t>(on_node.size()) + 1 <= resource::get(alloc, "pods").value();
  }
};

}  // namespace koord::manager::descheduler::plugins::spreading::testing
