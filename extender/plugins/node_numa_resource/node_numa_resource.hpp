// NodeNUMAResource: fine-grained CPU orchestration and NUMA-aware placement (Koordinator's
// nodenumaresource plugin; koordinator-reference.md 2.3, 2.4, 3(a), 5.2; user manual
// docs/cpu-orchestration.md).
//
// - preFilter: reads the pod once (pod_cpu_request.hpp): LSE/LSR pods of the koord-prod band with
//   a whole-CPU request get a cpuset with their bind and exclusive policies; the
//   numa-topology-spec gives a NUMA policy. Skipped for a pod that needs neither when its requests
//   are all zero, or while no node has a bind or NUMA policy of its own (node_policies.hpp). A
//   malformed annotation, or a fractional cpu request that needs a cpuset, fails every node
//   (unresolvable) with the reason.
// - filter, per node (node_topology.hpp for what a node offers): the NUMA policies of node and pod
//   must agree ("node(s) NUMA Topology policy not match"); a node whose bind policy is
//   FullPCPUsOnly or SpreadByPCPUs gives every integer-CPU pod a cpuset; a pod that gets one
//   needs a valid topology ("node(s) invalid CPU Topology: <what is wrong>"), a whole number of
//   cores under FullPCPUs ("node(s) requested cpus not multiple cpus per core"), no conflict with
//   the node's policy ("node(s) cpu bind policy conflicts with pod's required cpu bind policy"),
//   and enough free CPUs ("not enough cpus available to satisfy request"; whole free cores when
//   FullPCPUs is required). With a NUMA policy (SingleNUMANode, Restricted, BestEffort) the node
//   must admit a NUMA hint (numa_hints.hpp) for cpu, memory and the rest.
// - score: for a pod that gets a cpuset or has a NUMA policy: the scoringStrategy over the node
//   (LeastAllocated by default), or the numaScoringStrategy over the NUMA nodes of the hint.
//   Other pods are not scored (the score kube-scheduler gives them stays as it is).
// - bind: reserve() takes the cpuset with Koordinator's accumulator (cpu_accumulator.hpp) and,
//   with a NUMA policy, splits the requests over the hint's NUMA nodes, taking each NUMA node's
//   CPUs there; it records the result in the AllocationCache at once (reserve() calls are
//   serialised), so two pods bound at the same moment never get the same CPU. preBind() writes
//   scheduling.koordinator.sh/resource-status {"cpuset", "numaNodeResources"} in the bind patch,
//   which koord-agent applies to the pod's cgroups.
// - Reservations (v1.2, v1.6): a Reservation whose template gets a cpuset or NUMA resources takes
//   them when it is placed (its reserve pod goes through reserve and preBind; the reservation
//   loop writes the resource-status onto the Reservation). Those are then held for its owners: no
//   other pod gets them; an owner may use them (filter), and its bind takes them first (reserve:
//   the reservation the Reservation plugin nominated, whose reserve() runs before this one): its
//   CPUs first, and for a pod with a NUMA policy the NUMA nodes it holds when they admit the pod
//   (a Restricted reservation: only those, within what it holds, else "Reservation(s) <why>").
//
// Kinds read: NodeResourceTopology (Handle::objects()). Node data: CPUAllocationSource.
// Thread safety: filter/score are const; the topology cache and reserve() lock their own state.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/plugins/node_numa_resource/cpu_allocations.hpp"
#include "extender/plugins/node_numa_resource/node_cpu_view.hpp"
#include "extender/plugins/node_numa_resource/node_policies.hpp"
#include "extender/plugins/node_numa_resource/node_topology.hpp"
#include "extender/plugins/node_numa_resource/numa_args.hpp"
#include "extender/plugins/node_numa_resource/pod_cpu_request.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_numa_resource {

inline constexpr std::string_view kName = "NodeNUMAResource";

inline constexpr const char* kErrSMTAlignment = "node(s) requested cpus not multiple cpus per core";
inline constexpr const char* kErrCPUBindPolicyConflict =
    "node(s) cpu bind policy conflicts with pod's required cpu bind policy";

// What a pod gets on one node: whether it gets a cpuset, with which policy, and its NUMA policy.
struct NodePlan {
  PodCPURequest request;  // request_cpu_bind/num_cpus as on this node
  std::optional<api::extension::CPUBindPolicy> required;  // pod's or node's required policy
  api::extension::NUMATopologyPolicy numa_policy = api::extension::NUMATopologyPolicy::kNone;
  NUMAAllocateStrategy numa_strategy = NUMAAllocateStrategy::kLeastAllocated;
};

// The topologies of the nodes, rebuilt when a node's Node or NRT object changes. Thread-safe.
class TopologyCache {
 public:
  [[nodiscard]] std::shared_ptr<const NodeTopology> get(
      const framework::NodeInfo& node,
      const std::shared_ptr<const api::topology::NodeResourceTopology>& nrt) const;

  // The topology last built for `node`'s Node object, whatever its NRT is now; nullptr when none
  // was built for it. What score() reads: filter() ran on the node a moment before and refreshed
  // it.
  [[nodiscard]] std::shared_ptr<const NodeTopology> last(const framework::NodeInfo& node) const;

 private:
  struct Entry {
    std::shared_ptr<const api::core::Node> node;
    std::shared_ptr<const api::topology::NodeResourceTopology> nrt;
    std::shared_ptr<const NodeTopology> topology;
  };
  mutable std::shared_mutex mu_;
  mutable std::unordered_map<std::string, Entry> entries_;
};

class NodeNUMAResourcePlugin final : public framework::PreFilterPlugin,
                                     public framework::FilterPlugin,
                                     public framework::ScorePlugin,
                                     public framework::ReservePlugin,
                                     public framework::PreBindPlugin {
 public:
  NodeNUMAResourcePlugin(const framework::Handle& handle, NodeNUMAResourceArgs args);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
  [[nodiscard]] bool scores(const framework::CycleState& state,
                            const framework::PodInfo& pod) const override;
  [[nodiscard]] int64_t score(const framework::CycleState& state, const framework::PodInfo& pod,
                              const framework::NodeInfo& node) const override;
  [[nodiscard]] framework::PluginStatus reserve(framework::CycleState& state,
                                                const framework::PodInfo& pod,
                                                const framework::NodeInfo& node) override;
  void unreserve(framework::CycleState& state, const framework::PodInfo& pod,
                 const std::string& node) override;
  [[nodiscard]] framework::PluginStatus preBind(framework::CycleState& state,
                                                const framework::PodInfo& pod,
                                                const framework::NodeInfo& node,
                                                framework::BindPatch& patch) override;

  // The node's topology as this plugin reads it (the simulator's report uses it too).
  [[nodiscard]] std::shared_ptr<const NodeTopology> topologyOf(
      const framework::NodeInfo& node) const;
  // The node's CPUs with what its pods and the binds in flight hold.
  [[nodiscard]] NodeCPUView viewOf(const framework::NodeInfo& node,
                                   const NodeTopology& topology) const;
  // Frees in `view` the CPUs that reservations on the node hold for `pod`: the nominated one's
  // when `nominated_uid` is given, else those of every reservation the pod may use
  // (common::ReservationState::restorable).
  void lendReserved(NodeCPUView& view, const framework::PodInfo& pod,
                    const framework::NodeInfo& node, const std::string* nominated_uid) const;

 private:
  // What `request` gets on the node, or the reason it cannot be placed there by policy (before
  // any free-capacity check).
  [[nodiscard]] Result<NodePlan> plan(const PodCPURequest& request,
                                      const NodeTopology& topology) const;
  // The free-CPU check of filter (and of reserve, before it takes) for a plan without a NUMA
  // policy.
  [[nodiscard]] static framework::PluginStatus fits(const NodePlan& plan, const NodeCPUView& view);
  // A NUMA-policy plan: the pod's requests, the node's NUMA nodes and the hint admitted.
  struct NUMAPlacement {
    NUMARequest request;
    std::vector<NUMANodeResources> nodes;
    NUMAHint hint;
  };
  // `within`: only the NUMA nodes a reservation holds (the NUMA nodes the pod's nominated
  // reservation holds, NUMA node -> amounts); `restricted` also caps them at those amounts.
  [[nodiscard]] Result<NUMAPlacement> admit(
      const NodePlan& plan, const framework::PodInfo& pod, const NodeCPUView& view,
      const std::map<int, framework::Resource>* within = nullptr, bool restricted = false) const;

  const framework::Handle& handle_;
  NodeNUMAResourceArgs args_;
  NUMAScoring numa_scoring_;
  const CPUAllocationSource* allocations_;   // nullptr: no pod holds anything
  const NodeLabelPolicies* label_policies_;  // nullptr: unknown, so pods are never skipped whole
  const common::ReservationState* reservations_;  // nullptr: no reservation holds CPUs
  NRTPolicies nrt_policies_;
  TopologyCache topologies_;
  std::mutex reserve_mu_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

}  // namespace koord::extender::plugins::node_numa_resource
