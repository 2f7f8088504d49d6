// Builders shared by the plugin tests: pods, nodes, NodeInfos and a Handle with an empty cluster.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "extender/framework/handle.hpp"
#include "extender/framework/node_info.hpp"
#include "extender/framework/pod_info.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::extender::testing {

using Quantities = std::vector<std::pair<std::string, std::string>>;

inline resource::ResourceList resourceList(const Quantities& quantities) {
  resource::ResourceList list;
  for (const auto& [name, text] : quantities) {
    auto q = resource::Quantity::parse(text);
    EXPECT_TRUE(q.ok()) << text;
    list[name] = q.ok() ? *q : resource::Quantity();
  }
  return list;
}

struct PodSpecInput {
  std::string name = "p";
  Quantities requests;
  std::map<std::string, std::string> labels;
  std::optional<int32_t> priority;
};

inline std::shared_ptr<api::core::Pod> makePod(const PodSpecInput& in);

inline std::shared_ptr<api::core::Pod> makePod(std::string name, Quantities requests,
                                               std::map<std::string, std::string> labels = {},
                                               std::optional<int32_t> priority = std::nullopt) {
  PodSpecInput in;
  in.name = std::move(name);
  in.requests = std::move(requests);
  in.labels = std::move(labels);
  in.priority = priority;
  return makePod(in);
}

inline std::shared_ptr<api::core::Pod> makePod(const PodSpecInput& in) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.name = in.name;
  pod->metadata.namespace_ = "default";
  pod->metadata.uid = "uid-" + in.name;
  pod->metadata.labels = in.labels;
  pod->spec.priority = in.priority;
  api::core::Container c;
  c.name = "main";
  c.resources.requests = resourceList(in.requests);
  pod->spec.containers.push_back(std::move(c));
  return pod;
}

inline std::shared_ptr<const framework::PodInfo> podInfo(std::shared_ptr<api::core::Pod> pod) {
  auto info = framework::PodInfo::create(std::move(pod));
  EXPECT_TRUE(info.ok()) << info.status();
  return info.ok() ? *info : nullptr;
}

inline std::shared_ptr<api::core::Node> makeNode(
    const std::string& name, const Quantities& allocatable,
    const std::map<std::string, std::string>& annotations = {}) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = name;
  node->metadata.annotations = annotations;
  node->status.allocatable = resourceList(allocatable);
  return node;
}

inline std::shared_ptr<const framework::NodeInfo> nodeInfo(
    std::shared_ptr<const api::core::Node> node,
    std::vector<std::shared_ptr<const framework::PodInfo>> pods = {}) {
  return std::make_shared<framework::NodeInfo>(std::move(node), std::move(pods));
}

class EmptyCluster final : public framework::ClusterView {
 public:
  std::shared_ptr<const framework::NodeInfo> nodeInfo(std::string_view) const override {
    return nullptr;
  }
  std::vector<std::shared_ptr<const framework::NodeInfo>> nodeInfos() const override { return {}; }
  std::shared_ptr<const framework::PodInfo> pod(std::string_view) const override { return nullptr; }
};

class TestHandle final : public framework::Handle {
 public:
  const framework::ClusterView& cluster() const override { return cluster_; }
  const framework::ObjectStore& objects() const override { return objects_; }
  framework::AllocationCache& allocations() const override { return allocations_; }
  const Clock& clock() const override { return clock_; }
  const log::Logger& logger() const override { return logger_; }

 private:
  EmptyCluster cluster_;
  framework::ObjectStore objects_;
  FakeClock clock_;
  mutable framework::AllocationCache allocations_{clock_};
  log::Logger logger_;
};

}  // namespace koord::extender::testing
