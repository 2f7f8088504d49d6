// Test support for the pod lifecycle plugins: a recording Evictor with configurable filters and
// per-node / per-namespace / total limits (as the community's PodEvictor counts them), pod and
// container-status builders, and a harness that builds a plugin from JSON args over a snapshot
// of given nodes and pods and runs its Deschedule once.
#pragma once

#include <chrono>
#include <cstddef>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/core/time.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::pod_lifecycle::testing {

namespace core = api::core;
using Json = nlohmann::json;

class FakeEvictor final : public framework::Evictor {
 public:
  std::function<bool(const core::Pod&)> filter_fn;
  std::function<bool(const core::Pod&)> pre_eviction_fn;
  std::optional<size_t> max_per_node;
  std::optional<size_t> max_per_namespace;
  std::optional<size_t> max_total;

  std::vector<std::string> evicted;  // pod names, in eviction order
  std::vector<framework::EvictOptions> options;

  [[nodiscard]] bool filter(const core::Pod& pod) const override {
    return !filter_fn || filter_fn(pod);
  }
  [[nodiscard]] bool preEvictionFilter(const core::Pod& pod) const override {
    return !pre_eviction_fn || pre_eviction_fn(pod);
  }
  bool evict(const core::Pod& pod, const framework::EvictOptions& opts) override {
    if ((max_total && evicted.size() >= *max_total) ||
        (max_per_node && per_node_[pod.spec.nodeName] >= *max_per_node) ||
        (max_per_namespace && per_namespace_[pod.metadata.namespace_] >= *max_per_namespace)) {
      return false;
    }
    ++per_node_[pod.spec.nodeName];
    ++per_namespace_[pod.metadata.namespace_];
    evicted.push_back(pod.metadata.name);
    options.push_back(opts);
    return true;
  }
  [[nodiscard]] bool nodeLimitExceeded(const core::Node& node) const override {
    auto it = per_node_.find(node.metadata.name);
    return max_per_node && it != per_node_.end() && it->second >= *max_per_node;
  }

 private:
  std::map<std::string, size_t> per_node_;
  std::map<std::string, size_t> per_namespace_;
};

// The pass's time in every test.
inline std::chrono::system_clock::time_point testNow() {
  return *core::parseTime("2024-06-01T12:00:00Z");
}

// RFC 3339 text of testNow() - `seconds`.
inline std::string secondsAgo(int64_t seconds) {
  std::time_t t = std::chrono::system_clock::to_time_t(testNow()) - seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

inline core::Node makeNode(const std::string& name) {
  core::Node node;
  node.metadata.name = name;
  return node;
}

// A pod in namespace "default" on `node`, created now, owned by a ReplicaSet.
inline core::Pod makePod(const std::string& name, const std::string& node) {
  core::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + name;
  pod.metadata.creationTimestamp = secondsAgo(0);
  core::OwnerReference owner;
  owner.apiVersion = "apps/v1";
  owner.kind = "ReplicaSet";
  owner.name = "rs";
  owner.controller = true;
  pod.metadata.ownerReferences.push_back(owner);
  pod.spec.nodeName = node;
  return pod;
}

inline Json waiting(const std::string& reason) {
  return {{"state", {{"waiting", {{"reason", reason}}}}}};
}
inline Json terminated(const std::string& reason, int32_t exit_code = 0) {
  Json t = {{"exitCode", exit_code}};
  if (!reason.empty()) {
    t["reason"] = reason;
  }
  return {{"state", {{"terminated", t}}}};
}
inline Json restarts(int32_t count) {
  return {{"restartCount", count}};
}

inline void setInitStatuses(core::Pod& pod, Json statuses) {
  if (!pod.status.extra.is_object()) {
    pod.status.extra = Json::object();
  }
  pod.status.extra["initContainerStatuses"] = std::move(statuses);
}
inline void setEphemeralStatuses(core::Pod& pod, Json statuses) {
  if (!pod.status.extra.is_object()) {
    pod.status.extra = Json::object();
  }
  pod.status.extra["ephemeralContainerStatuses"] = std::move(statuses);
}

using PluginFactory = framework::Factory;

// Builds the plugin from `args` over `nodes` and `pods`, and runs one Deschedule.
class Harness {
 public:
  Harness(std::vector<core::Node> nodes, std::vector<core::Pod> pods) {
    framework::ClusterSnapshot::Input input;
    for (auto& node : nodes) {
      auto ptr = std::make_shared<const core::Node>(std::move(node));
      input.nodes.push_back(ptr);
      node_list_.push_back(ptr);
    }
    for (auto& pod : pods) {
      input.pods.push_back(std::make_shared<const core::Pod>(std::move(pod)));
    }
    snapshot_ = framework::ClusterSnapshot::build(std::move(input));
    handle_.snapshot = &snapshot_;
    handle_.evictor = &evictor;
    handle_.now = testNow();
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  // The factory's status when it refuses the args, else the plugin's.
  Status run(const PluginFactory& factory, const Json& args) {
    auto plugin = factory(args, handle_);
    if (!plugin.ok()) {
      return plugin.status();
    }
    auto* deschedule = dynamic_cast<framework::DeschedulePlugin*>(plugin->get());
    if (deschedule == nullptr) {
      return Status::internal("not a DeschedulePlugin");
    }
    return deschedule->deschedule(node_list_);
  }

  FakeEvictor evictor;

 private:
  framework::ClusterSnapshot snapshot_;
  framework::Handle handle_;
  framework::NodeList node_list_;
};

}  // namespace koord::manager::descheduler::pod_lifecycle::testing
