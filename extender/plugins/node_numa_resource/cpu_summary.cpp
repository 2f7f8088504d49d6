#include "extender/plugins/node_numa_resource/cpu_summary.hpp"

namespace koord::extender::plugins::node_numa_resource {

CPUSummary summarizeCPUs(const NodeTopology& topology, const NodeCPUView& view,
                         const NodeCPUAllocations* held) {
  CPUSummary out;
  if (!topology.invalid.empty()) {
    out.invalid = topology.invalid;
    return out;
  }
  out.total = topology.all.count();
  out.reserved = topology.reserved.toCpuSet();
  out.kubelet_pinned_pods = topology.kubelet_pinned_pods;
  CpuMask taken;
  for (const auto& [cpu, ref] : view.refs()) {
    if (ref.refCount > 0)
      taken.set(cpu);
  }
  taken.keep(topology.all);
  taken.remove(topology.reserved);
  out.exclusive = taken.toCpuSet();
  CpuMask shared = topology.usable;
  shared.remove(taken);
  out.shared = shared.toCpuSet();
  out.free = view.freeCPUs();
  out.free_whole_cores = view.freeWholeCores();
  out.cpus_per_core = topology.details.cpusPerCore();
  if (held == nullptr)
    return out;
  for (const auto& pod : held->pods) {
    if (pod.cpus.empty())
      continue;
    out.holders.push_back(CPUHolder{pod.pod_key, pod.cpus, pod.exclusive});
  }
  out.unreadable = held->unreadable;
  return out;
}

}  // namespace koord::extender::plugins::node_numa_resource
