#include "agent/reporters/cpu_allocation.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "agent/reporters/object_sync.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::reporters {

namespace {

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

}  // namespace

NodeCpuAllocation allocateNodeCpus(const NodeTopologyInputs& in,
                                   std::vector<ObjectProblem>* problems) {
  const api::core::Node& node = *in.node;
  const cpuset::CpuSet node_cpus = system::onlineCpus(in.cpus);
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
    // LS pods too: a node whose cpu-bind-policy binds every integer-CPU pod gives them a cpuset.
    const bool may_pin = qos == api::QoSClass::kLSE || qos == api::QoSClass::kLSR ||
                         (qos == api::QoSClass::kLS &&
                          !annotation(pod->metadata, api::kAnnotationResourceStatus).empty());
    if (!terminal(*pod) && may_pin) {
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

  NodeCpuAllocation out;
  out.pools = system::makeCpuPools(in.cpus,
                                   reserved.unionWith(lse).unionWith(lsr).unionWith(kubelet_pinned),
                                   reserved.unionWith(lse));
  out.allocs = std::move(allocs);
  return out;
}

}  // namespace koord::agent::reporters
