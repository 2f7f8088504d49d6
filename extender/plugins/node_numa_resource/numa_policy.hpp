// The NUMA topology policy of a node and its merge with a pod's policy (Koordinator's
// pkg/scheduler/plugins/nodenumaresource util.go getNUMATopologyPolicy / mergeTopologyPolicy and
// topology_options.go convertToNUMATopologyPolicy).
//
// Contract:
// * nodeNUMAPolicy: the node label node.koordinator.sh/numa-topology-policy wins when it spells a
//   non-None policy ("BestEffort", "Restricted", "SingleNUMANode"); an empty, absent or unknown
//   label value falls back to the NRT. From the NRT `topologyPolicies`, the first entry that is
//   exactly "BestEffort", "Restricted" or "SingleNUMANodePodLevel" decides, as Koordinator's
//   scheduler does; every other spelling ("SingleNUMANodeContainerLevel", "RestrictedPodLevel",
//   "BestEffortPodLevel", "None", ...) is skipped, and no match gives kNone.
// * mergeTopologyPolicy: node and pod both set and different -> kFailedPrecondition with the
//   message "node(s) NUMA Topology policy not match" (an UnschedulableAndUnresolvable filter
//   result in Koordinator); otherwise the pod's policy when set, else the node's.
// Pure functions; no state.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_numa_resource {

inline constexpr std::string_view kErrNotMatchNUMATopology =
    "node(s) NUMA Topology policy not match";

[[nodiscard]] api::extension::NUMATopologyPolicy nodeNUMAPolicy(
    const std::map<std::string, std::string>& node_labels,
    const std::vector<std::string>& nrt_topology_policies);

[[nodiscard]] Result<api::extension::NUMATopologyPolicy> mergeTopologyPolicy(
    api::extension::NUMATopologyPolicy node, api::extension::NUMATopologyPolicy pod);

}  // namespace koord::extender::plugins::node_numa_resource
