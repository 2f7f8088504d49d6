// kube-scheduler's default score plugins, for the two places koord-extender chooses a node itself:
// the simulator (which stands in for kube-scheduler) and the Reservation loop (kube-scheduler never
// sees a reservation). Read from kube-scheduler v1.36's source (pkg/scheduler/apis/config/v1/
// default_plugins.go and framework/plugins/), with the default weights:
//   TaintToleration 3                  intolerable PreferNoSchedule taints, fewest is best:
//                                      100 - count * 100 / max count (100 for all when none has
//                                      any)
//   NodeAffinity 2                     sum of the weights of the matching preferred terms, scaled
//                                      to 100 for the best node (skipped without preferred terms)
//   NodeResourcesFit 1                 LeastAllocated over cpu and memory (weight 1 each), on the
//                                      non-zero requests (a container without a request counts
//                                      100m / 200Mi): ((allocatable - requested) * 100 /
//                                      allocatable) averaged; 0 past allocatable
//   NodeResourcesBalancedAllocation 1  how much closer the cpu and memory fractions of allocatable
//                                      are after the pod than before (real requests; skipped for a
//                                      pod that requests neither): 50 + (50 + with - without) / 2,
//                                      where with/without = (1 - |cpu - memory| / 2) * 100
// Each plugin's score is in [0, 100]; the total is the weighted sum, as RunScorePlugins adds them.
// Not modelled, and 0 for every node (what kube-scheduler gives a pod that uses none of them):
// PodTopologySpread 2 and InterPodAffinity 2 (a pod's topology spread constraints and pod
// affinity), ImageLocality 1 (node.status.images). docs/compatibility.md lists them.
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "extender/framework/node_info.hpp"
#include "extender/framework/pod_info.hpp"

namespace koord::extender::plugins::kube {

// The default weights (KubeSchedulerConfiguration v1 defaults at v1.36).
inline constexpr int64_t kTaintTolerationWeight = 3;
inline constexpr int64_t kNodeAffinityWeight = 2;
inline constexpr int64_t kNodeResourcesFitWeight = 1;
inline constexpr int64_t kBalancedAllocationWeight = 1;

// One node's score from each plugin, after normalization, before weighting.
struct DefaultScore {
  int64_t taint_toleration = 0;
  int64_t node_affinity = 0;
  int64_t node_resources_fit = 0;
  int64_t balanced_allocation = 0;
  // The weighted sum.
  int64_t total = 0;
};

// What counts as used on a node besides its pods (cpu and memory are read). The stock
// kube-scheduler never sees a Reservation, so for a pod only the pods count (no function); a
// Koordinator scheduler keeps reserve pods in its cache, so koord-extender's reservation loop
// passes what the node's reservations hold (common::ReservationState::reserved), and a second
// reservation does not land beside the first on a node that only looks empty.
using AlsoUsed = std::function<framework::Resource(const framework::NodeInfo& node)>;

// Per node of `nodes` (same order; none nullptr), what kube-scheduler's default score plugins give
// `pod` there. A preferred term that cannot be evaluated (an invalid operator or value) matches
// no node.
[[nodiscard]] std::vector<DefaultScore> defaultScores(
    const framework::PodInfo& pod,
    const std::vector<std::shared_ptr<const framework::NodeInfo>>& nodes,
    const AlsoUsed& also_used = {});

// kube-scheduler's LeastAllocated for one node (exposed for tests and the descheduler).
[[nodiscard]] int64_t leastAllocatedScore(const framework::PodInfo& pod,
                                          const framework::NodeInfo& node,
                                          const framework::Resource& also_used = {});
// kube-scheduler's NodeResourcesBalancedAllocation for one node; 0 for a pod that requests
// neither cpu nor memory.
[[nodiscard]] int64_t balancedAllocationScore(const framework::PodInfo& pod,
                                              const framework::NodeInfo& node,
                                              const framework::Resource& also_used = {});

}  // namespace koord::extender::plugins::kube
