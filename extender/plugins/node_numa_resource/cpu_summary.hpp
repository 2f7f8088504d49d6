// CPUSummary: how one node's CPUs are divided, as a person reads it (the simulator's "CPUS"
// section, `koord-extender simulate`, issue #36). A pure function of what NodeNUMAResource sees
// on the node: its NodeTopology and its NodeCPUView (pods' resource-status plus binds in flight).
//
// Contract:
// * The CPUs of the topology (`total`) are split into three disjoint sets that cover them:
//   - reserved: NodeTopology::reserved, the CPUs no pod may be given (kubelet reservedCPUs and the
//     CPUs it pinned, node.koordinator.sh/reservation reservedCPUs, an exclusive
//     system-qos-resource cpuset);
//   - exclusive: the CPUs held by cpuset pods (LSE/LSR: the view's ref-counted CPUs), less the
//     reserved ones; LS pods do not run there;
//   - shared: the rest, the pool the node's other LS pods share.
// * free = the CPUs a new cpuset may take (NodeCPUView::freeCPUs(), which with maxRefCount 1 is the
//   shared set's size), and free_whole_cores the physical cores all of whose CPUs are free (what a
//   FullPCPUs cpuset needs).
// * holders: the pods of `pods` that hold a cpuset, in that order, each with its CPUs (as held,
//   reserved ones included) and exclusive policy; pods without a cpuset are left out. `pods` only
//   names the holders: the sets above come from the view.
// * A topology with `invalid` set gives an empty summary with `invalid` copied (the caller shows
// the
//   reason); the view is then not read.
#pragma once

#include <string>
#include <vector>

#include "extender/plugins/node_numa_resource/cpu_allocations.hpp"
#include "extender/plugins/node_numa_resource/node_cpu_view.hpp"
#include "extender/plugins/node_numa_resource/node_topology.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_numa_resource {

struct CPUHolder {
  std::string pod;  // "namespace/name"
  cpuset::CpuSet cpus;
  api::extension::CPUExclusivePolicy exclusive = api::extension::CPUExclusivePolicy::kNone;
};

struct CPUSummary {
  std::string invalid;  // NodeTopology::invalid; when set, nothing else is
  int total = 0;
  cpuset::CpuSet reserved;
  std::vector<std::string> kubelet_pinned_pods;  // their CPUs are in `reserved`
  cpuset::CpuSet exclusive;
  std::vector<CPUHolder> holders;
  cpuset::CpuSet shared;
  int free = 0;
  int free_whole_cores = 0;
  int cpus_per_core = 0;
  // Pods and Reservations whose resource-status could not be read: "<who>: <error>" (they hold
  // no particular CPUs; NodeCPUAllocations::unreadable).
  std::vector<std::string> unreadable;
};

// `held`: what the node's pods and Reservations hold (nullptr: nothing).
[[nodiscard]] CPUSummary summarizeCPUs(const NodeTopology& topology, const NodeCPUView& view,
                                       const NodeCPUAllocations* held);

}  // namespace koord::extender::plugins::node_numa_resource
