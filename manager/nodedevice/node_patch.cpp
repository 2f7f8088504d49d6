#include "manager/nodedevice/node_patch.hpp"

#include "koord/api/codec.hpp"

namespace koord::manager::nodedevice {
namespace {

// The managed keys of `have` that differ from `want`, as merge patch members.
api::Json resourceDiff(const resource::ResourceList& have, const resource::ResourceList& want) {
  api::Json diff = api::Json::object();
  for (std::string_view key : kManagedResources) {
    const auto h = have.find(key);
    const auto w = want.find(key);
    if (w == want.end()) {
      if (h != have.end()) {
        diff[std::string(key)] = nullptr;
      }
    } else if (h == have.end() || !(h->second == w->second)) {
      diff[std::string(key)] = w->second.toString();
    }
  }
  return diff;
}

}  // namespace

NodePatches nodePatchesFor(const api::core::Node& node, const NodeGpu& desired) {
  NodePatches out;
  const api::Json capacity = resourceDiff(node.status.capacity, desired.resources);
  const api::Json allocatable = resourceDiff(node.status.allocatable, desired.resources);
  if (!capacity.empty() || !allocatable.empty()) {
    api::Json status = api::Json::object();
    if (!capacity.empty()) {
      status["capacity"] = capacity;
    }
    if (!allocatable.empty()) {
      status["allocatable"] = allocatable;
    }
    out.status = api::Json{{"status", status}}.dump();
  }

  api::Json labels = api::Json::object();
  for (std::string_view key : kManagedLabels) {
    const std::string name(key);
    const auto h = node.metadata.labels.find(name);
    const auto w = desired.labels.find(name);
    if (w == desired.labels.end()) {
      if (h != node.metadata.labels.end()) {
        labels[name] = nullptr;
      }
    } else if (h == node.metadata.labels.end() || h->second != w->second) {
      labels[name] = w->second;
    }
  }
  if (!labels.empty()) {
    out.labels = api::Json{{"metadata", {{"labels", labels}}}}.dump();
  }
  return out;
}

}  // namespace koord::manager::nodedevice
