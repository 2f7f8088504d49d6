#include "extender/plugins/node_numa_resource/node_cpu_view.hpp"

#include <algorithm>

namespace koord::extender::plugins::node_numa_resource {

NodeCPUView::NodeCPUView(const NodeTopology& topology, const NodeCPUAllocations* held,
                         const std::vector<framework::AllocationCache::Allocation>& in_flight)
    : topology_(topology), held_(held) {
  if (in_flight.empty())
    return;
  merged_ = std::make_unique<NodeCPUAllocations>(held != nullptr ? *held : NodeCPUAllocations{});
  for (const auto& allocation : in_flight) {
    auto status = api::extension::parseResourceStatus(allocation.detail);
    if (!status.ok())
      continue;
    PodAllocation pod;
    pod.pod_key = allocation.pod_key;
    if (!status->cpuset.empty())
      pod.cpus = cpuset::CpuSet::parse(status->cpuset).valueOr({});
    for (const auto& numa : status->numaNodeResources)
      pod.numa[numa.node].add(framework::Resource::fromList(numa.resources));
    if (!fromJson(api::Json(allocation.target), pod.exclusive, "target").isOk())
      pod.exclusive = api::extension::CPUExclusivePolicy::kNone;
    merged_->add(std::move(pod));
  }
}

cpuset::CpuSet NodeCPUView::reservationCPUs(const std::string& uid) const {
  const auto& held = all().reservation_cpus;
  auto it = held.find(uid);
  return it == held.end() ? cpuset::CpuSet() : it->second;
}

const std::map<int, framework::Resource>* NodeCPUView::reservationNUMA(
    const std::string& uid) const {
  const auto& held = all().reservation_numa;
  auto it = held.find(uid);
  return it == held.end() ? nullptr : &it->second;
}

NodeCPUAllocations& NodeCPUView::mutableAll() {
  if (!merged_)
    merged_ =
        std::make_unique<NodeCPUAllocations>(held_ != nullptr ? *held_ : NodeCPUAllocations{});
  return *merged_;
}

void NodeCPUView::lendReservation(const std::string& uid) {
  if (std::find(lent_.begin(), lent_.end(), uid) != lent_.end())
    return;
  const cpuset::CpuSet cpus = reservationCPUs(uid);
  const auto* numa = reservationNUMA(uid);
  if (cpus.empty() && numa == nullptr)
    return;
  lent_.push_back(uid);
  // Copied before mutableAll() may move the data `numa` points into.
  const std::map<int, framework::Resource> lent_numa =
      numa != nullptr ? *numa : std::map<int, framework::Resource>{};
  NodeCPUAllocations& all = mutableAll();
  for (int cpu : cpus.cpus()) {
    auto it = all.refs.find(cpu);
    if (it == all.refs.end())
      continue;
    if (--it->second.refCount <= 0) {
      all.refs.erase(it);
      all.allocated.reset(cpu);
    }
  }
  // NUMA nodes keep their status (single/shared): Koordinator keeps the reserve pod's allocation
  // in its cache while owners use it.
  for (const auto& [node, resources] : lent_numa) {
    auto it = all.numa_used.find(node);
    if (it != all.numa_used.end())
      it->second.subtract(resources);
  }
}

int NodeCPUView::freeWholeCoresIn(const CpuMask* within) const {
  const CpuMask& taken = allocated();
  int n = 0;
  for (const auto& core : topology_.cores) {
    bool free = true;
    for (int cpu : core) {
      if (!topology_.usable.test(cpu) || taken.test(cpu) ||
          (within != nullptr && !within->test(cpu))) {
        free = false;
        break;
      }
    }
    n += free ? 1 : 0;
  }
  return n;
}

int NodeCPUView::freeWholeCores() const {
  return freeWholeCoresIn(nullptr);
}

cpuset::CpuSet NodeCPUView::available() const {
  CpuMask mask = topology_.usable;
  mask.remove(allocated());
  return mask.toCpuSet();
}

cpuset::CpuSet NodeCPUView::availableOn(int numa_node) const {
  CpuMask mask = topology_.usable;
  mask.remove(allocated());
  for (const auto& zone : topology_.zones) {
    if (zone.node == numa_node) {
      mask.keep(zone.cpus);
      return mask.toCpuSet();
    }
  }
  return {};
}

std::vector<NUMANodeResources> NodeCPUView::numaNodes(bool cpu_bind, bool full_pcpus) const {
  std::vector<NUMANodeResources> out;
  const NodeCPUAllocations& held = all();
  for (const auto& zone : topology_.zones) {
    NUMANodeResources n;
    n.node = zone.node;
    framework::Resource available = zone.allocatable;
    if (auto used = held.numa_used.find(zone.node); used != held.numa_used.end())
      available.subtract(used->second);
    n.allocatable["cpu"] = zone.allocatable.milli_cpu;
    n.available["cpu"] = std::max<int64_t>(0, available.milli_cpu);
    n.allocatable["memory"] = zone.allocatable.memory;
    n.available["memory"] = std::max<int64_t>(0, available.memory);
    for (const auto& [name, value] : zone.allocatable.scalar) {
      n.allocatable[name] = value;
      n.available[name] = std::max<int64_t>(0, available.get(name));
    }
    const bool shared = held.numa_shared.count(zone.node) != 0;
    const bool single = held.numa_single.count(zone.node) != 0;
    n.status = shared ? NUMANodeStatus::kShared
                      : (single ? NUMANodeStatus::kSingle : NUMANodeStatus::kIdle);
    if (cpu_bind) {
      if (full_pcpus) {
        n.free_cpus = freeWholeCoresIn(&zone.cpus) * topology_.details.cpusPerCore();
      } else {
        CpuMask free = zone.cpus;
        free.keep(topology_.usable);
        n.free_cpus = free.countWithout(allocated());
      }
    }
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace koord::extender::plugins::node_numa_resource
