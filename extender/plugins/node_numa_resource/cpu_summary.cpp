#include "extender/plugins/node_numa_resource/cpu_summary.hpp"

namespace koord::extender::plugins::node_numa_resource {

CPUSummary summarizeCPUs(const NodeTopology& topology, const NodeCPUView& view,
                         const std::vector<PodAllocation>& pods) {
  CPUSummary out;
  if (!topology.invalid.empty()) {
    out.invalid = topology.invalid;
    return out;
  }
  out.total = topology.all.count();
  out.reserved = topology.reserved.toCpuSet();
  out.kubelet_pinned_pods = topology.kubelet_pinned_pods;
  CpuMask held;
  for (const auto& [cpu, ref] : view.refs()) {
    if (ref.refCount > 0)
      held.set(cpu);
  }
  held.keep(topology.all);
  held.remove(topology.reserved);
  out.exclusive = held.toCpuSet();
  CpuMask shared = topology.usable;
  shared.remove(held);
  out.shared = shared.toCpuSet();
  out.free = view.freeCPUs();
  out.free_whole_cores = view.freeWholeCores();
  out.cpus_per_core = topology.details.cpusPerCore();
  for (const auto& pod : pods) {
    if (pod.cpus.empty())
      continue;
    out.holders.push_back(CPUHolder{pod.pod_key, pod.cpus, pod.exclusive});
  }
  return out;
}

}  // namespace koord::extender::plugins::node_numa_resource
