#include "extender/plugins/node_numa_resource/cpu_allocations.hpp"

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
  std::map<std::string, cpuset::CpuSet> owners_cpus;  // reservation UID -> what its owners use
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
      if (!pod->reservation_uid.empty())
        owners_cpus[pod->reservation_uid] =
            owners_cpus[pod->reservation_uid].unionWith((*allocation)->cpus);
      out->add(std::move(**allocation));
    }
  }
  if (reservations_ == nullptr)
    return out;
  for (const auto& info : reservations_->holdingOn(node.name())) {
    if (info->cpus.empty())
      continue;
    auto owned = owners_cpus.find(info->uid);
    cpuset::CpuSet held =
        owned == owners_cpus.end() ? info->cpus : info->cpus.difference(owned->second);
    if (held.empty())
      continue;
    if (out == nullptr)
      out = std::make_shared<NodeCPUAllocations>();
    PodAllocation reserved;
    reserved.pod_key = "Reservation " + info->name;
    reserved.cpus = held;
    out->reservation_cpus[info->uid] = std::move(held);
    out->add(std::move(reserved));
  }
  return out;
}

}  // namespace koord::extender::plugins::node_numa_resource
