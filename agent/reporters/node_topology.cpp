#include "agent/reporters/node_topology.hpp"

#include <map>
#include <utility>

#include "agent/reporters/object_sync.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::reporters {

namespace {

namespace topo = api::topology;

bool terminal(const api::core::Pod& pod) {
  return pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
}

std::string annotation(const api::core::ObjectMeta& meta, std::string_view key) {
  auto it = meta.annotations.find(std::string(key));
  return it == meta.annotations.end() ? std::string() : it->second;
}

// The CPUs the node keeps out of every shared pool: node.koordinator.sh/reservation's
// reservedCPUs and an exclusive system-qos-resource cpuset.
cpuset::CpuSet reservedCpus(const api::core::Node& node) {
  cpuset::CpuSet out;
  const std::string reservation = annotation(node.metadata, api::kAnnotationNodeReservation);
  if (!reservation.empty()) {
    auto parsed = api::extension::parseNodeReservation(reservation);
    if (parsed.ok() && !parsed->reservedCPUs.empty()) {
      out = out.unionWith(cpuset::CpuSet::parse(parsed->reservedCPUs).valueOr({}));
    }
  }
  const std::string system_qos = annotation(node.metadata, api::kAnnotationNodeSystemQOSResource);
  if (!system_qos.empty()) {
    auto parsed = api::extension::parseSystemQOSResource(system_qos);
    if (parsed.ok() && api::extension::isCPUSetExclusive(*parsed)) {
      out = out.unionWith(cpuset::CpuSet::parse(parsed->cpuset).valueOr({}));
    }
  }
  return out;
}

// One pool per (socket, NUMA node) that keeps at least one CPU, in (socket, node) order.
std::vector<api::extension::CPUSharedPool> pools(const system::CpuTopology& cpus,
                                                 const cpuset::CpuSet& taken) {
  std::map<std::pair<int32_t, int32_t>, cpuset::CpuSet> by_zone;
  for (const system::CpuInfo& cpu : cpus.cpus) {
    if (!taken.contains(cpu.id)) {
      cpuset::CpuSet& zone = by_zone[{cpu.socket, cpu.node}];
      zone = zone.unionWith(cpuset::CpuSet::range(cpu.id, cpu.id));
    }
  }
  std::vector<api::extension::CPUSharedPool> out;
  for (const auto& [key, set] : by_zone) {
    api::extension::CPUSharedPool pool;
    pool.socket = key.first;
    pool.node = key.second;
    pool.cpuset = set.toString();
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
        resource::Quantity::fromInt(memory_per_node[id], resource::QuantityFormat::BinarySI));
    out.push_back(std::move(zone));
  }
  return out;
}

}  // namespace

topo::NodeResourceTopology buildNodeResourceTopology(const NodeTopologyInputs& in) {
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

  const cpuset::CpuSet reserved = reservedCpus(node);
  cpuset::CpuSet lse;
  cpuset::CpuSet lsr;
  cpuset::CpuSet kubelet_pinned;
  std::vector<api::extension::PodCPUAlloc> allocs;
  std::map<std::string, const api::core::Pod*> by_uid;
  for (const auto& pod : in.pods) {
    if (terminal(*pod)) {
      continue;
    }
    by_uid[pod->metadata.uid] = pod.get();
    const api::QoSClass qos = api::qosClassOf(pod->metadata.labels);
    if (qos != api::QoSClass::kLSE && qos != api::QoSClass::kLSR) {
      continue;
    }
    const std::string status = annotation(pod->metadata, api::kAnnotationResourceStatus);
    auto parsed = api::extension::parseResourceStatus(status);
    if (status.empty() || !parsed.ok() || parsed->cpuset.empty()) {
      continue;
    }
    auto cpus = cpuset::CpuSet::parse(parsed->cpuset);
    if (!cpus.ok()) {
      continue;
    }
    cpuset::CpuSet& taken = qos == api::QoSClass::kLSE ? lse : lsr;
    taken = taken.unionWith(*cpus);
    api::extension::PodCPUAlloc alloc;
    alloc.namespace_ = pod->metadata.namespace_;
    alloc.name = pod->metadata.name;
    alloc.uid = pod->metadata.uid;
    alloc.cpuset = cpus->toString();
    allocs.push_back(std::move(alloc));
  }
  if (in.kubelet_state) {
    for (const auto& [uid, containers] : in.kubelet_state->entries) {
      cpuset::CpuSet pod_cpus;
      for (const auto& [name, cpus] : containers) {
        pod_cpus = pod_cpus.unionWith(cpus);
      }
      kubelet_pinned = kubelet_pinned.unionWith(pod_cpus);
      auto it = by_uid.find(uid);
      if (it == by_uid.end() || pod_cpus.size() == 0) {
        continue;
      }
      api::extension::PodCPUAlloc alloc;
      alloc.namespace_ = it->second->metadata.namespace_;
      alloc.name = it->second->metadata.name;
      alloc.uid = uid;
      alloc.cpuset = pod_cpus.toString();
      alloc.managedByKubelet = true;
      allocs.push_back(std::move(alloc));
    }
  }

  auto& annotations = nrt.metadata.annotations;
  annotations[std::string(api::kAnnotationNodeCPUTopology)] =
      api::extension::formatCPUTopology(detail);
  annotations[std::string(api::kAnnotationNodeCPUSharedPools)] =
      api::extension::formatCPUSharedPools(
          pools(in.cpus, reserved.unionWith(lse).unionWith(lsr).unionWith(kubelet_pinned)));
  annotations[std::string(api::kAnnotationNodeBECPUSharedPools)] =
      api::extension::formatCPUSharedPools(pools(in.cpus, reserved.unionWith(lse)));
  annotations[std::string(api::kAnnotationNodeCPUAllocs)] =
      api::extension::formatPodCPUAllocs(allocs);
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
    const std::string value = annotation(node.metadata, key);
    if (!value.empty()) {
      annotations[std::string(key)] = value;
    }
  }
  return nrt;
}

}  // namespace koord::agent::reporters
