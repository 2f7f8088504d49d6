#include "agent/reporters/node_topology.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
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

// Text of a user's value in a message, cut to a readable length.
std::string abbreviate(std::string text) {
  constexpr size_t kMax = 64;
  if (text.size() > kMax) {
    text.resize(kMax - 3);
    text += "...";
  }
  return text;
}

std::string shortList(const cpuset::CpuSet& cpus) {
  return abbreviate(cpus.toString());
}

std::string joinNotes(const std::vector<std::string>& notes) {
  std::string out;
  for (const std::string& note : notes) {
    out += out.empty() ? "" : "; ";
    out += note;
  }
  return out;
}

// The lowest-numbered `count` CPUs of `cpus`.
cpuset::CpuSet lowestCpus(const cpuset::CpuSet& cpus, size_t count) {
  std::set<int> out;
  for (int cpu : cpus.cpus()) {
    if (out.size() == count) {
      break;
    }
    out.insert(cpu);
  }
  return cpuset::CpuSet(std::move(out));
}

// The LS shared pool as claims are taken out of it, never below kMinSharedPoolCpus (or the node's
// CPU count, when smaller).
class SharedPoolFloor {
 public:
  explicit SharedPoolFloor(cpuset::CpuSet node_cpus)
      : free_(std::move(node_cpus)), floor_(std::min(kMinSharedPoolCpus, free_.size())) {}

  // Takes `cpus` out of the pool, except the lowest-numbered of them that the pool needs to keep
  // its floor; returns those (empty when the whole claim was taken).
  cpuset::CpuSet claim(const cpuset::CpuSet& cpus) {
    const cpuset::CpuSet left = free_.difference(cpus);
    cpuset::CpuSet spared;
    if (left.size() < floor_) {
      spared = lowestCpus(free_.intersection(cpus), floor_ - left.size());
    }
    free_ = left.unionWith(spared);
    return spared;
  }

  // "<what> would take the last CPUs of the shared pool: CPU 0 stays in the pool, ..."
  [[nodiscard]] static std::string sparedNote(const cpuset::CpuSet& spared, std::string_view what) {
    return std::string(what) + " would take the last CPUs of the shared pool: " +
           (spared.size() == 1 ? "CPU " : "CPUs ") + shortList(spared) +
           (spared.size() == 1 ? " stays" : " stay") + " in the pool, which keeps at least " +
           std::to_string(kMinSharedPoolCpus) + (kMinSharedPoolCpus == 1 ? " CPU" : " CPUs");
  }

 private:
  cpuset::CpuSet free_;
  size_t floor_;
};

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

topo::NodeResourceTopology buildNodeResourceTopology(const NodeTopologyInputs& in,
                                                     std::vector<ObjectProblem>* problems) {
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

  std::set<int> ids;
  for (const system::CpuInfo& cpu : in.cpus.cpus) {
    ids.insert(cpu.id);
  }
  const cpuset::CpuSet node_cpus(std::move(ids));
  SharedPoolFloor floor(node_cpus);

  // The node's own claims first: its reservedCPUs and the kubelet's pinned CPUs.
  const cpuset::CpuSet node_reserved = reservedCpus(node);
  cpuset::CpuSet reserved = node_reserved.intersection(node_cpus);
  std::map<std::string, const api::core::Pod*> by_uid;
  for (const auto& pod : in.pods) {
    if (!terminal(*pod)) {
      by_uid[pod->metadata.uid] = pod.get();
    }
  }
  cpuset::CpuSet kubelet_pinned;
  std::vector<api::extension::PodCPUAlloc> kubelet_allocs;
  if (in.kubelet_state) {
    for (const auto& [uid, containers] : in.kubelet_state->entries) {
      cpuset::CpuSet pod_cpus;
      for (const auto& [name, cpus] : containers) {
        pod_cpus = pod_cpus.unionWith(cpus);
      }
      pod_cpus = pod_cpus.intersection(node_cpus);
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
      kubelet_allocs.push_back(std::move(alloc));
    }
  }
  {
    const cpuset::CpuSet base = reserved.unionWith(kubelet_pinned);
    const cpuset::CpuSet spared = floor.claim(base);
    reserved = reserved.difference(spared);
    kubelet_pinned = kubelet_pinned.difference(spared);
    std::vector<std::string> notes;
    const cpuset::CpuSet unknown = node_reserved.difference(node_cpus);
    if (!unknown.empty()) {
      notes.push_back("reserved CPUs " + shortList(unknown) +
                      " do not exist on this node (it has " + shortList(node_cpus) +
                      ") and are ignored");
    }
    if (!spared.empty()) {
      notes.push_back(SharedPoolFloor::sparedNote(spared, "the reserved and kubelet-pinned CPUs"));
    }
    if (problems != nullptr && !notes.empty()) {
      problems->push_back({objectReference("Node", "v1", node.metadata),
                           std::string(kReasonInvalidCPUSet), joinNotes(notes)});
    }
  }

  // Then the LSE/LSR pods' resource-status cpusets, oldest pod first, so that a newcomer's claim
  // never takes CPUs from the pool that an older pod's claim left there.
  std::vector<const api::core::Pod*> pinned_pods;
  for (const auto& pod : in.pods) {
    const api::QoSClass qos = api::qosClassOf(pod->metadata.labels);
    if (!terminal(*pod) && (qos == api::QoSClass::kLSE || qos == api::QoSClass::kLSR)) {
      pinned_pods.push_back(pod.get());
    }
  }
  std::sort(
      pinned_pods.begin(), pinned_pods.end(), [](const api::core::Pod* a, const api::core::Pod* b) {
        return std::tie(a->metadata.creationTimestamp, a->metadata.namespace_, a->metadata.name,
                        a->metadata.uid) < std::tie(b->metadata.creationTimestamp,
                                                    b->metadata.namespace_, b->metadata.name,
                                                    b->metadata.uid);
      });
  cpuset::CpuSet lse;
  cpuset::CpuSet lsr;
  std::vector<api::extension::PodCPUAlloc> allocs;
  for (const api::core::Pod* pod : pinned_pods) {
    const api::QoSClass qos = api::qosClassOf(pod->metadata.labels);
    const std::string status = annotation(pod->metadata, api::kAnnotationResourceStatus);
    auto parsed = api::extension::parseResourceStatus(status);
    if (status.empty() || !parsed.ok() || parsed->cpuset.empty()) {
      continue;
    }
    auto written = cpuset::CpuSet::parse(parsed->cpuset);
    if (!written.ok()) {
      continue;
    }
    const cpuset::CpuSet cpus = written->intersection(node_cpus);
    const cpuset::CpuSet unknown = written->difference(node_cpus);
    std::vector<std::string> notes;
    if (!unknown.empty()) {
      notes.push_back(cpus.empty()
                          ? "none of its CPUs exist on this node (it has " + shortList(node_cpus) +
                                "); the pod gets no exclusive CPUs"
                          : "CPUs " + shortList(unknown) + " do not exist on this node (it has " +
                                shortList(node_cpus) + ") and are ignored");
    }
    const cpuset::CpuSet spared = floor.claim(cpus);
    if (!spared.empty()) {
      notes.push_back(SharedPoolFloor::sparedNote(spared, "its cpuset") + "; the pod shares " +
                      (spared.size() == 1 ? "it" : "them") + " with LS pods");
    }
    if (problems != nullptr && !notes.empty()) {
      problems->push_back({objectReference("Pod", "v1", pod->metadata),
                           std::string(kReasonInvalidCPUSet),
                           std::string(api::kAnnotationResourceStatus) + " cpuset \"" +
                               abbreviate(parsed->cpuset) + "\": " + joinNotes(notes)});
    }
    if (cpus.empty()) {
      continue;
    }
    cpuset::CpuSet& taken = qos == api::QoSClass::kLSE ? lse : lsr;
    taken = taken.unionWith(cpus.difference(spared));
    api::extension::PodCPUAlloc alloc;
    alloc.namespace_ = pod->metadata.namespace_;
    alloc.name = pod->metadata.name;
    alloc.uid = pod->metadata.uid;
    alloc.cpuset = cpus.toString();
    allocs.push_back(std::move(alloc));
  }
  allocs.insert(allocs.end(), kubelet_allocs.begin(), kubelet_allocs.end());

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
