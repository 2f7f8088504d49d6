#include "agent/reporters/node_topology.hpp"

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "agent/reporters/object_sync.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::reporters {

namespace {

namespace topo = api::topology;

// The value of the node's annotation `key`; "" when unset.
std::string nodeAnnotation(const api::core::Node& node, std::string_view key) {
  auto it = node.metadata.annotations.find(std::string(key));
  return it == node.metadata.annotations.end() ? std::string() : it->second;
}

std::vector<api::extension::CPUSharedPool> sharedPools(const std::vector<system::ZonePool>& zones) {
  std::vector<api::extension::CPUSharedPool> out;
  out.reserve(zones.size());
  for (const system::ZonePool& zone : zones) {
    api::extension::CPUSharedPool pool;
    pool.socket = zone.socket;
    pool.node = zone.node;
    pool.cpuset = zone.cpus.toString();
    out.push_back(std::move(pool));
  }
  return out;
}

std::vector<topo::Zone> zones(const NodeTopologyInputs& in) {
  std::map<int32_t, int64_t> cpus_per_node;
  for (const system::CpuInfo& cpu : in.cpus.cpus) {
    ++cpus_per_node[cpu.node];
  }
  std::map<int32_t, int64_t> memory_per_node;
  for (const system::NumaMemory& memory : in.memory) {
    memory_per_node[memory.node] = memory.total_bytes;
  }
  std::map<int32_t, bool> nodes;
  for (const auto& [id, count] : cpus_per_node) {
    nodes[id] = true;
  }
  for (const auto& [id, bytes] : memory_per_node) {
    nodes[id] = true;
  }
  std::vector<topo::Zone> out;
  for (const auto& [id, present] : nodes) {
    topo::Zone zone;
    zone.name = "node-" + std::to_string(id);
    zone.type = std::string(topo::kZoneTypeNode);
    auto add = [&zone](const char* name, const resource::Quantity& quantity) {
      topo::ResourceInfo info;
      info.name = name;
      info.capacity = quantity;
      info.allocatable = quantity;
      info.available = quantity;
      zone.resources.push_back(std::move(info));
    };
    add("cpu", resource::Quantity::fromInt(cpus_per_node[id]));
    add("memory",
        resource::Quantity::fromInt(memory_per_node[id], resource::QuantityFormat::kBinarySI));
    out.push_back(std::move(zone));
  }
  return out;
}

}  // namespace

topo::NodeResourceTopology buildNodeResourceTopology(const NodeTopologyInputs& in,
                                                     std::vector<ObjectProblem>* problems) {
  return buildNodeResourceTopology(in, allocateNodeCpus(in, problems));
}

topo::NodeResourceTopology buildNodeResourceTopology(const NodeTopologyInputs& in,
                                                     const NodeCpuAllocation& cpus) {
  topo::NodeResourceTopology nrt;
  nrt.apiVersion = std::string(topo::kGroupVersion);
  nrt.kind = std::string(topo::kNodeResourceTopologyKind);
  const api::core::Node& node = *in.node;
  nrt.metadata.name = node.metadata.name;
  nrt.metadata.labels[std::string(api::kLabelManagedBy)] = "Koordinator";
  nrt.metadata.ownerReferences.push_back(nodeOwnerReference(node.metadata));
  nrt.topologyPolicies.push_back(topologyPolicyWord(in.kubelet_config));
  nrt.zones = zones(in);

  api::extension::CPUTopology detail;
  for (const system::CpuInfo& cpu : in.cpus.cpus) {
    api::extension::CPUInfo info;
    info.id = cpu.id;
    info.core = cpu.core;
    info.socket = cpu.socket;
    info.node = cpu.node;
    detail.detail.push_back(std::move(info));
  }

  auto& annotations = nrt.metadata.annotations;
  annotations[std::string(api::kAnnotationNodeCPUTopology)] =
      api::extension::formatCPUTopology(detail);
  annotations[std::string(api::kAnnotationNodeCPUSharedPools)] =
      api::extension::formatCPUSharedPools(sharedPools(cpus.pools.shared_zones));
  annotations[std::string(api::kAnnotationNodeBECPUSharedPools)] =
      api::extension::formatCPUSharedPools(sharedPools(cpus.pools.be_zones));
  annotations[std::string(api::kAnnotationNodeCPUAllocs)] =
      api::extension::formatPodCPUAllocs(cpus.allocs);
  const std::string policy = in.kubelet_state && !in.kubelet_state->policy_name.empty()
                                 ? in.kubelet_state->policy_name
                                 : in.kubelet_config.cpu_manager_policy;
  if (!policy.empty()) {
    api::extension::KubeletCPUManagerPolicy kubelet;
    kubelet.policy = policy;
    kubelet.options = in.kubelet_config.cpu_manager_policy_options;
    kubelet.reservedCPUs = in.kubelet_config.reserved_system_cpus;
    annotations[std::string(api::kAnnotationKubeletCPUManagerPolicy)] =
        api::extension::toJson(kubelet).dump();
  }
  for (std::string_view key :
       {api::kAnnotationNodeReservation, api::kAnnotationNodeSystemQOSResource}) {
    const std::string value = nodeAnnotation(node, key);
    if (!value.empty()) {
      annotations[std::string(key)] = value;
    }
  }
  return nrt;
}

}  // namespace koord::agent::reporters
