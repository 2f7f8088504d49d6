// nodeFit: would a pod fit a node (sigs.k8s.io/descheduler v0.36.0 pkg/descheduler/node NodeFit,
// PodFitsAnyNode, PodFitsAnyOtherNode, ReadyNodes), over a ClusterSnapshot.
//
// Contract: nodeFitFailure checks, in the community's order and words: the node is not
// unschedulable; the pod's nodeSelector and required node affinity match it; every NoSchedule and
// NoExecute taint is tolerated; no pod on the node (Succeeded and Failed ones left out) matches a
// required pod anti-affinity term of the pod whose topologyKey the node carries; and, unless the
// pod is bound to that node already, its requests (pods count included) fit the node's
// allocatable less what the node's other (non-terminal) pods request. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/framework/snapshot.hpp"

namespace koord::manager::descheduler::framework {

// Why `pod` does not fit `node` ("node is not schedulable", "insufficient cpu", ...), or nullopt
// when it fits.
[[nodiscard]] std::optional<std::string> nodeFitFailure(const api::core::Pod& pod,
                                                        const api::core::Node& node,
                                                        const ClusterSnapshot& snapshot);
// nodeFitFailure is nullopt; `reason` (when given) receives the failure.
[[nodiscard]] bool podFitsNode(const api::core::Pod& pod, const api::core::Node& node,
                               const ClusterSnapshot& snapshot, std::string* reason = nullptr);
// The pod fits some node of `nodes` (its own included).
[[nodiscard]] bool podFitsAnyNode(const api::core::Pod& pod, const NodeList& nodes,
                                  const ClusterSnapshot& snapshot);
// The pod fits some node of `nodes` other than spec.nodeName.
[[nodiscard]] bool podFitsAnyOtherNode(const api::core::Pod& pod, const NodeList& nodes,
                                       const ClusterSnapshot& snapshot);

// Handle::pod_fits_any_other_node bound to `snapshot` (which must outlive it).
[[nodiscard]] PodFitsAnyOtherNode makePodFitsAnyOtherNode(const ClusterSnapshot& snapshot);
// ... bound to `handle`, reading handle.snapshot on each call (false while it is null).
[[nodiscard]] PodFitsAnyOtherNode makePodFitsAnyOtherNode(const Handle& handle);

// A label selector in its text form ("a=b,c!=d,e in (x,y),f notin (z),g,!h"; "" selects all),
// as labels.Parse reads it. kInvalidArgument for text it cannot read (Gt/Lt are not supported).
[[nodiscard]] Result<api::core::LabelSelector> parseNodeSelectorText(std::string_view text);

// Node is Ready unless it has a Ready condition whose status is not "True" (nodeutil.IsReady).
[[nodiscard]] bool isNodeReady(const api::core::Node& node);

// The snapshot's ready nodes whose labels match `selector_text` (ReadyNodes).
[[nodiscard]] Result<NodeList> readyNodes(const ClusterSnapshot& snapshot,
                                          std::string_view selector_text);

}  // namespace koord::manager::descheduler::framework
