// Whether any node has a CPU bind or NUMA policy of its own: what lets NodeNUMAResource's preFilter
// skip, as a whole, a pod that asks for no cpuset and no NUMA policy (most pods). Such a pod is
// only this plugin's business on a node that binds every integer-CPU pod (cpu-bind-policy
// FullPCPUsOnly or SpreadByPCPUs, or the kubelet's static policy with full-pcpus-only) or that has
// a NUMA topology policy (label node.koordinator.sh/numa-topology-policy or the NRT's
// topologyPolicies); while no node has either, visiting 500 nodes to learn that would cost the
// pod ten times what the other plugins cost it.
//
// - Node labels: NodeLabelPolicies, a node data source whose replaced() keeps the count of nodes
//   whose labels set either policy (always current: it moves with every node update).
// - NRTs: NRTPolicies scans the NRT lister's list() when its changes() count has moved since the
//   last scan, reusing what it found for the NRT objects it has seen before (by pointer).
//
// Thread safety: both are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/lister.hpp"
#include "extender/framework/node_data.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::extender::plugins::node_numa_resource {

// The node's labels set a bind policy other than None, or a NUMA topology policy.
[[nodiscard]] bool labelsSetAPolicy(const api::core::Node& node);
// The NRT reports the kubelet's static policy with full-pcpus-only, or a NUMA topology policy.
[[nodiscard]] bool nrtSetsAPolicy(const api::topology::NodeResourceTopology& nrt);

struct LabelPolicy {
  bool set = false;
};

class NodeLabelPolicies final : public framework::TypedNodeDataSource<LabelPolicy> {
 public:
  // The source of `cluster`: added on first call, the same one after.
  static NodeLabelPolicies& install(framework::ClusterState& cluster);
  [[nodiscard]] int64_t nodesWithAPolicy() const { return count_.load(std::memory_order_acquire); }
  void replaced(const void* before, const void* after) override;

 protected:
  [[nodiscard]] std::shared_ptr<const LabelPolicy> make(
      const framework::NodeInfo& node) const override;

 private:
  std::atomic<int64_t> count_{0};
};

class NRTPolicies {
 public:
  // Whether an NRT of `lister` sets a policy; false without a lister.
  [[nodiscard]] bool anySetsAPolicy(
      const framework::Lister<api::topology::NodeResourceTopology>* lister) const;

 private:
  mutable std::mutex mu_;
  mutable bool scanned_ = false;
  mutable uint64_t changes_ = 0;
  mutable int64_t count_ = 0;
  mutable std::unordered_map<
      const api::topology::NodeResourceTopology*,
      std::pair<std::shared_ptr<const api::topology::NodeResourceTopology>, bool>>
      seen_;
};

}  // namespace koord::extender::plugins::node_numa_resource
