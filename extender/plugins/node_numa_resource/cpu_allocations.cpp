#include "extender/plugins/node_numa_resource/cpu_allocations.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_numa_resource {

void NodeCPUAllocations::add(PodAllocation allocation) {
  for (int cpu : allocation.cpus.cpus()) {
    allocated.set(cpu);
    AllocatedCPU& ref = refs[cpu];
    ++ref.refCount;
    // Koordinator keeps the policy of the allocation that marked the CPU; an exclusive one wins.
    if (allocation.exclusive != api::extension::CPUExclusivePolicy::kNone)
      ref.exclusivePolicy = allocation.exclusive;
  }
  for (const auto& [node, resources] : allocation.numa) {
    numa_used[node].add(resources);
    if (allocation.numa.size() == 1)
      ++numa_single[node];
    else
      ++numa_shared[node];
  }
  pods.push_back(std::move(allocation));
}

std::map<int, framework::Resource> remainingNUMA(const std::map<int, framework::Resource>& held,
                                                 const std::map<int, framework::Resource>& used) {
  std::map<int, framework::Resource> out;
  for (const auto& [node, resources] : held) {
    framework::Resource left = resources;
    if (auto it = used.find(node); it != used.end())
      left.subtract(it->second);
    left.milli_cpu = std::max<int64_t>(0, left.milli_cpu);
    left.memory = std::max<int64_t>(0, left.memory);
    left.ephemeral_storage = std::max<int64_t>(0, left.ephemeral_storage);
    left.pods = 0;
    std::erase_if(left.scalar, [](const auto& entry) { return entry.second <= 0; });
    if (left.milli_cpu != 0 || left.memory != 0 || left.ephemeral_storage != 0 ||
        !left.scalar.empty())
      out.emplace(node, std::move(left));
  }
  return out;
}

Result<std::optional<PodAllocation>> podAllocationOf(const api::core::Pod& pod,
                                                     const std::string& key) {
  const auto& annotations = pod.metadata.annotations;
  auto status_it = annotations.find(std::string(api::kAnnotationResourceStatus));
  if (status_it == annotations.end())
    return std::optional<PodAllocation>();
  auto status = api::extension::parseResourceStatus(status_it->second);
  if (!status.ok())
    return status.status();
  PodAllocation allocation;
  allocation.pod_key = key;
  if (!status->cpuset.empty()) {
    auto cpus = cpuset::CpuSet::parse(status->cpuset);
    if (!cpus.ok())
      return Status(cpus.status().code(), "failed to parse annotation '" +
                                              std::string(api::kAnnotationResourceStatus) +
                                              "': cpuset: " + cpus.status().message());
    allocation.cpus = std::move(*cpus);
  }
  for (const auto& numa : status->numaNodeResources)
    allocation.numa[numa.node].add(framework::Resource::fromList(numa.resources));
  if (allocation.cpus.empty() && allocation.numa.empty())
    return std::optional<PodAllocation>();
  if (auto spec_it = annotations.find(std::string(api::kAnnotationResourceSpec));
      spec_it != annotations.end()) {
    // The policy only orders later allocations; an unreadable spec reads as None.
    auto spec = api::extension::parseResourceSpec(spec_it->second);
    if (spec.ok() && spec->preferredCPUExclusivePolicy)
      allocation.exclusive = *spec->preferredCPUExclusivePolicy;
  }
  return std::optional<PodAllocation>(std::move(allocation));
}

CPUAllocationSource& CPUAllocationSource::install(framework::ClusterState& cluster) {
  const common::ReservationState& reservations = common::ReservationState::install(cluster);
  return cluster.addNodeData(std::make_unique<CPUAllocationSource>(&reservations));
}

std::shared_ptr<const NodeCPUAllocations> CPUAllocationSource::make(
    const framework::NodeInfo& node) const {
  std::shared_ptr<NodeCPUAllocations> out;
  // Reservation UID -> what its owners on the node use.
  std::map<std::string, cpuset::CpuSet> owners_cpus;
  std::map<std::string, std::map<int, framework::Resource>> owners_numa;
  std::set<std::string> used_by_owner;  // reservations an owner on the node uses
  for (const auto& pod : node.pods()) {
    const auto& annotations = pod->pod->metadata.annotations;
    if (annotations.find(std::string(api::kAnnotationResourceStatus)) == annotations.end())
      continue;
    if (out == nullptr)
      out = std::make_shared<NodeCPUAllocations>();
    auto allocation = podAllocationOf(*pod->pod, pod->key);
    if (!allocation.ok()) {
      out->unreadable.push_back(pod->key + ": " + allocation.status().message());
      continue;
    }
    if (allocation->has_value()) {
      if (!pod->reservation_uid.empty()) {
        used_by_owner.insert(pod->reservation_uid);
        owners_cpus[pod->reservation_uid] =
            owners_cpus[pod->reservation_uid].unionWith((*allocation)->cpus);
        for (const auto& [numa, resources] : (*allocation)->numa)
          owners_numa[pod->reservation_uid][numa].add(resources);
      }
      out->add(std::move(**allocation));
    }
  }
  if (reservations_ == nullptr)
    return out;
  for (const auto& info : reservations_->holdingOn(node.name())) {
    if (!info->resource_status_error.empty()) {
      if (out == nullptr)
        out = std::make_shared<NodeCPUAllocations>();
      out->unreadable.push_back("Reservation " + info->name + ": " + info->resource_status_error);
      continue;
    }
    // An allocateOnce reservation an owner took holds nothing more (ReservationInfo::consumed).
    if ((info->cpus.empty() && info->numa.empty()) ||
        (info->allocate_once && used_by_owner.count(info->uid) != 0))
      continue;
    PodAllocation reserved;
    reserved.pod_key = "Reservation " + info->name;
    auto owned = owners_cpus.find(info->uid);
    reserved.cpus = owned == owners_cpus.end() ? info->cpus : info->cpus.difference(owned->second);
    reserved.numa = remainingNUMA(info->numa, owners_numa[info->uid]);
    if (reserved.cpus.empty() && reserved.numa.empty())
      continue;
    if (out == nullptr)
      out = std::make_shared<NodeCPUAllocations>();
    if (!reserved.cpus.empty())
      out->reservation_cpus[info->uid] = reserved.cpus;
    if (!reserved.numa.empty())
      out->reservation_numa[info->uid] = reserved.numa;
    out->add(std::move(reserved));
  }
  return out;
}

}  // namespace koord::extender::plugins::node_numa_resource
