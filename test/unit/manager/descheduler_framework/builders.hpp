// Test builders for the descheduler's framework and plugin tests, after the community's
// test.BuildTestNode / test.BuildTestPod: a node with cpu (milli), memory and pods allocatable
// and a Ready condition; a pod in "default" with one container requesting cpu (milli) and memory,
// a UID, and bound to a node. Plus the setters the community tests use.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/resource/quantity.hpp"
#include "manager/descheduler/framework/snapshot.hpp"

namespace koord::manager::descheduler::testing {

namespace core = api::core;
using resource::Quantity;

inline core::Node buildNode(const std::string& name, int64_t milli_cpu = 2000,
                            int64_t memory = 3000, int64_t pods = 10) {
  core::Node node;
  node.metadata.name = name;
  node.status.allocatable = {{"cpu", Quantity::fromMilli(milli_cpu)},
                             {"memory", Quantity::fromInt(memory)},
                             {"pods", Quantity::fromInt(pods)}};
  node.status.capacity = node.status.allocatable;
  core::NodeCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  node.status.conditions.push_back(ready);
  return node;
}

inline core::Pod buildPod(const std::string& name, int64_t milli_cpu, int64_t memory,
                          const std::string& node) {
  core::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + name;
  pod.spec.nodeName = node;
  core::Container container;
  container.name = "c";
  if (milli_cpu >= 0)
    container.resources.requests["cpu"] = Quantity::fromMilli(milli_cpu);
  if (memory >= 0)
    container.resources.requests["memory"] = Quantity::fromInt(memory);
  pod.spec.containers.push_back(container);
  return pod;
}

inline void setOwner(core::Pod& pod, const std::string& kind, const std::string& uid = "") {
  core::OwnerReference ref;
  ref.apiVersion = "v1";
  ref.kind = kind;
  ref.uid = uid;
  pod.metadata.ownerReferences = {ref};
}
inline void setNormalOwnerRef(core::Pod& pod) {
  setOwner(pod, "Pod");
}
inline void setDSOwnerRef(core::Pod& pod) {
  setOwner(pod, "DaemonSet");
}
inline void setMirrorPodAnnotation(core::Pod& pod) {
  pod.metadata.annotations["kubernetes.io/config.mirror"] = "mirror";
}
inline void setLocalStorageVolume(core::Pod& pod) {
  pod.spec.extra["volumes"] = nlohmann::json::array({{{"name", "sample"},
                                                      {"hostPath", {{"path", "somePath"}}},
                                                      {"emptyDir", {{"sizeLimit", "10"}}}}});
}
inline void setPvcVolume(core::Pod& pod) {
  pod.spec.extra["volumes"] =
      nlohmann::json::array({{{"name", "pvc"}, {"persistentVolumeClaim", {{"claimName", "foo"}}}}});
}
inline void setPriority(core::Pod& pod, int32_t priority) {
  pod.spec.priority = priority;
}

inline core::Taint taint(const std::string& key, const std::string& value,
                         const std::string& effect) {
  core::Taint t;
  t.key = key;
  t.value = value;
  t.effect = effect;
  return t;
}

inline core::Toleration toleration(const std::string& key, const std::string& value,
                                   const std::string& effect) {
  core::Toleration t;
  t.key = key;
  t.value = value;
  t.effect = effect;
  return t;
}

inline framework::ClusterSnapshot snapshotOf(const std::vector<core::Node>& nodes,
                                             const std::vector<core::Pod>& pods,
                                             std::map<std::string, int32_t> classes = {}) {
  framework::ClusterSnapshot::Input input;
  for (const auto& n : nodes)
    input.nodes.push_back(std::make_shared<const core::Node>(n));
  for (const auto& p : pods)
    input.pods.push_back(std::make_shared<const core::Pod>(p));
  input.priority_classes = std::move(classes);
  return framework::ClusterSnapshot::build(std::move(input));
}

}  // namespace koord::manager::descheduler::testing
