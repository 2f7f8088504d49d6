#include "extender/plugins/node_numa_resource/node_policies.hpp"

#include <utility>
#include <vector>

#include "extender/plugins/node_numa_resource/numa_policy.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_numa_resource {

bool labelsSetAPolicy(const api::core::Node& node) {
  const auto& labels = node.metadata.labels;
  return api::extension::nodeCPUBindPolicyOf(labels, std::nullopt) !=
             api::extension::NodeCPUBindPolicy::kNone ||
         nodeNUMAPolicy(labels, {}) != api::extension::NUMATopologyPolicy::kNone;
}

bool nrtSetsAPolicy(const api::topology::NodeResourceTopology& nrt) {
  if (nodeNUMAPolicy({}, nrt.topologyPolicies) != api::extension::NUMATopologyPolicy::kNone)
    return true;
  auto it = nrt.metadata.annotations.find(std::string(api::kAnnotationKubeletCPUManagerPolicy));
  if (it == nrt.metadata.annotations.end())
    return false;
  // A policy that does not parse makes the topology invalid: cpuset pods are refused there, and
  // pods without one are not concerned.
  auto kubelet = api::extension::parseKubeletCPUManagerPolicy(it->second);
  return kubelet.ok() && api::extension::nodeCPUBindPolicyOf({}, *kubelet) !=
                             api::extension::NodeCPUBindPolicy::kNone;
}

NodeLabelPolicies& NodeLabelPolicies::install(framework::ClusterState& cluster) {
  return cluster.addNodeData(std::make_unique<NodeLabelPolicies>());
}

std::shared_ptr<const LabelPolicy> NodeLabelPolicies::make(const framework::NodeInfo& node) const {
  if (!labelsSetAPolicy(node.node()))
    return nullptr;
  auto out = std::make_shared<LabelPolicy>();
  out->set = true;
  return out;
}

void NodeLabelPolicies::replaced(const void* before, const void* after) {
  const int64_t delta = (after != nullptr ? 1 : 0) - (before != nullptr ? 1 : 0);
  if (delta != 0)
    count_.fetch_add(delta, std::memory_order_acq_rel);
}

bool NRTPolicies::anySetsAPolicy(
    const framework::Lister<api::topology::NodeResourceTopology>* lister) const {
  if (lister == nullptr)
    return false;
  std::lock_guard lock(mu_);
  const uint64_t changes = lister->changes();
  if (scanned_ && changes == changes_)
    return count_ > 0;
  decltype(seen_) next;
  int64_t count = 0;
  for (auto& nrt : lister->list()) {
    if (nrt == nullptr)
      continue;
    bool sets = false;
    if (auto it = seen_.find(nrt.get()); it != seen_.end() && it->second.first == nrt)
      sets = it->second.second;
    else
      sets = nrtSetsAPolicy(*nrt);
    count += sets ? 1 : 0;
    const auto* key = nrt.get();
    next.emplace(key, std::make_pair(std::move(nrt), sets));
  }
  seen_ = std::move(next);
  count_ = count;
  changes_ = changes;
  scanned_ = true;
  return count_ > 0;
}

}  // namespace koord::extender::plugins::node_numa_resource
