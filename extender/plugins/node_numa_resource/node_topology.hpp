// NodeTopology: what NodeNUMAResource knows of one node's CPUs and NUMA nodes, read from the Node
// and its NodeResourceTopology (koordinator-reference.md 1.6, 2.4, 3(a) "Available CPUs"):
// - the CPU topology (NRT annotation node.koordinator.sh/cpu-topology; core ids socket<<16|core);
// - the CPUs no pod may be given: the kubelet's pinned CPUs (pod-cpu-allocs entries with
//   managedByKubelet), the kubelet's reservedCPUs (kubelet.koordinator.sh/cpu-manager-policy),
//   the node reservation's reservedCPUs (node.koordinator.sh/reservation, on the Node or copied on
//   the NRT) and an exclusive node.koordinator.sh/system-qos-resource cpuset;
// - the node's CPU bind policy (label, or the kubelet's static policy with full-pcpus-only), NUMA
//   topology policy (label, else the NRT's topologyPolicies) and NUMA allocate strategy (label);
// - the NUMA zones with their allocatable cpu (milli) and memory, and the CPUs of each.
//
// build() never fails: a node whose topology cannot be used has `invalid` set to the reason a pod
// that needs a cpuset or a NUMA policy reads, Koordinator's text followed by what is wrong
// ("node(s) invalid CPU Topology: malformed node.koordinator.sh/pod-cpu-allocs: ..."), so a bad
// annotation costs that node its cpuset pods and nothing else. Immutable once built.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extender/framework/resource.hpp"
#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"
#include "extender/plugins/node_numa_resource/cpu_mask.hpp"
#include "extender/plugins/node_numa_resource/cpu_topology_details.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::extender::plugins::node_numa_resource {

inline constexpr const char* kErrInvalidCPUTopology = "node(s) invalid CPU Topology";

struct NUMAZone {
  int node = 0;                     // NUMA node id (zone "node-<id>")
  framework::Resource allocatable;  // the zone's allocatable resources (cpu in milli)
  CpuMask cpus;                     // the topology's CPUs on this NUMA node
};

struct NodeTopology {
  std::string invalid;  // empty when cpusets and NUMA policies can be served
  CPUTopologyDetails details;
  CpuMask all;       // every CPU of the topology
  CpuMask reserved;  // CPUs no pod may be given (see above)
  CpuMask usable;    // all - reserved
  // The CPUs of each physical core, by core id order (whole-core counts in filter).
  std::vector<std::vector<int>> cores;
  api::extension::NodeCPUBindPolicy bind_policy = api::extension::NodeCPUBindPolicy::kNone;
  api::extension::NUMATopologyPolicy numa_policy = api::extension::NUMATopologyPolicy::kNone;
  // From the node label node.koordinator.sh/numa-allocate-strategy; nullopt: the args' default.
  std::optional<NUMAAllocateStrategy> numa_strategy;
  std::vector<NUMAZone> zones;  // by NUMA node id

  // The pods the kubelet pinned ("namespace/name"): their CPUs are in `reserved`.
  std::vector<std::string> kubelet_pinned_pods;

  // Builds the topology of `node` from `nrt` (nullptr: the node has none, so `invalid` says so).
  [[nodiscard]] static std::shared_ptr<const NodeTopology> build(
      const api::core::Node& node, const api::topology::NodeResourceTopology* nrt);
};

}  // namespace koord::extender::plugins::node_numa_resource
