#include "agent/reporters/object_sync.hpp"

#include <set>
#include <utility>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::agent::reporters {

namespace {

namespace topo = api::topology;

// Copies what the agent owns in `desired` metadata into `current`; true when something changed.
bool mergeMetadata(api::core::ObjectMeta& current, const api::core::ObjectMeta& desired) {
  bool changed = false;
  for (const auto& [key, value] : desired.labels) {
    auto [it, inserted] = current.labels.try_emplace(key, value);
    if (!inserted && it->second != value) {
      it->second = value;
      changed = true;
    }
    changed = changed || inserted;
  }
  for (const auto& [key, value] : desired.annotations) {
    auto [it, inserted] = current.annotations.try_emplace(key, value);
    if (!inserted && it->second != value) {
      it->second = value;
      changed = true;
    }
    changed = changed || inserted;
  }
  if (current.ownerReferences.empty() && !desired.ownerReferences.empty()) {
    current.ownerReferences = desired.ownerReferences;
    changed = true;
  }
  return changed;
}

bool ownedResource(const std::string& name) {
  return name == "cpu" || name == "memory";
}

// The desired zones, each keeping the resources of the same zone in `current` that the agent
// does not own.
std::vector<topo::Zone> mergeZones(const std::vector<topo::Zone>& current,
                                   const std::vector<topo::Zone>& desired) {
  std::vector<topo::Zone> out = desired;
  for (topo::Zone& zone : out) {
    for (const topo::Zone& old : current) {
      if (old.name != zone.name) {
        continue;
      }
      for (const topo::ResourceInfo& info : old.resources) {
        if (!ownedResource(info.name)) {
          zone.resources.push_back(info);
        }
      }
      zone.costs = zone.costs.empty() ? old.costs : zone.costs;
      zone.attributes = zone.attributes.empty() ? old.attributes : zone.attributes;
    }
  }
  return out;
}

template <class T>
Result<SyncOutcome> createOrUpdate(k8s::Client& client, const k8s::GroupVersionResource& gvr,
                                   const T& desired, const std::function<bool(T& current)>& merge) {
  Result<T> current = k8s::getAs<T>(client, gvr, "", desired.metadata.name);
  if (!current.ok()) {
    if (!k8s::isNotFound(current.status())) {
      return current.status().withPrefix("failed to get '" + desired.metadata.name + "'");
    }
    Result<api::Json> created = client.create(gvr, "", toJson(desired));
    if (!created.ok()) {
      return created.status().withPrefix("failed to create '" + desired.metadata.name + "'");
    }
    return SyncOutcome::kCreated;
  }
  T updated = std::move(*current);
  if (!merge(updated)) {
    return SyncOutcome::kUnchanged;
  }
  Result<api::Json> written = client.update(gvr, "", toJson(updated));
  if (!written.ok()) {
    return written.status().withPrefix("failed to update '" + desired.metadata.name + "'");
  }
  return SyncOutcome::kUpdated;
}

}  // namespace

api::core::OwnerReference nodeOwnerReference(const api::core::ObjectMeta& node) {
  api::core::OwnerReference owner;
  owner.apiVersion = "v1";
  owner.kind = "Node";
  owner.name = node.name;
  owner.uid = node.uid;
  return owner;
}

Result<SyncOutcome> syncNodeResourceTopology(k8s::Client& client,
                                             const topo::NodeResourceTopology& desired) {
  return createOrUpdate<topo::NodeResourceTopology>(
      client, k8s::kNodeResourceTopologies, desired, [&](topo::NodeResourceTopology& current) {
        bool changed = mergeMetadata(current.metadata, desired.metadata);
        if (current.topologyPolicies != desired.topologyPolicies) {
          current.topologyPolicies = desired.topologyPolicies;
          changed = true;
        }
        std::vector<topo::Zone> zones = mergeZones(current.zones, desired.zones);
        if (zones != current.zones) {
          current.zones = std::move(zones);
          changed = true;
        }
        return changed;
      });
}

Result<SyncOutcome> syncDevice(k8s::Client& client, const api::scheduling::Device& desired) {
  return createOrUpdate<api::scheduling::Device>(
      client, k8s::kDevices, desired, [&](api::scheduling::Device& current) {
        bool changed = mergeMetadata(current.metadata, desired.metadata);
        if (current.spec.devices != desired.spec.devices) {
          current.spec.devices = desired.spec.devices;
          changed = true;
        }
        return changed;
      });
}

Result<SyncOutcome> syncNodeMetricStatus(k8s::Client& client, const api::core::ObjectMeta& node,
                                         const api::slo::NodeMetricStatus& status) {
  SyncOutcome outcome = SyncOutcome::kUpdated;
  Result<api::slo::NodeMetric> current =
      k8s::getAs<api::slo::NodeMetric>(client, k8s::kNodeMetrics, "", node.name);
  if (!current.ok()) {
    if (!k8s::isNotFound(current.status())) {
      return current.status().withPrefix("failed to get NodeMetric '" + node.name + "'");
    }
    api::slo::NodeMetric fresh;
    fresh.apiVersion = "slo.koordinator.sh/v1alpha1";
    fresh.kind = "NodeMetric";
    fresh.metadata.name = node.name;
    fresh.metadata.ownerReferences.push_back(nodeOwnerReference(node));
    Result<api::Json> created = client.create(k8s::kNodeMetrics, "", toJson(fresh));
    if (!created.ok()) {
      return created.status().withPrefix("failed to create NodeMetric '" + node.name + "'");
    }
    current = k8s::decodeObject<api::slo::NodeMetric>(std::move(*created));
    if (!current.ok()) {
      return current.status().withPrefix("failed to decode NodeMetric '" + node.name + "'");
    }
    outcome = SyncOutcome::kCreated;
  }
  api::slo::NodeMetric updated = std::move(*current);
  updated.status = status;
  Result<api::Json> written = client.updateStatus(k8s::kNodeMetrics, "", toJson(updated));
  if (!written.ok()) {
    return written.status().withPrefix("failed to update NodeMetric '" + node.name + "' status");
  }
  return outcome;
}

}  // namespace koord::agent::reporters
