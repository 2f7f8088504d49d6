// kube-scheduler's prioritizeNodes with koord-extender as its extender, for the simulator and the
// Reservation loop: each node's total is kube-scheduler's default score plugins
// (default_scores.hpp) plus koord-extender's prioritize answer (the runtime's 0..100 score on the
// wire's 0..10) times the extender's weight times 10 (MaxNodeScore / MaxExtenderPriority), as
// schedule_one.go adds them. The shipped scheduler configuration (deploy/scheduler-config) gives
// the extender weight 10.
//
// Thread safety: as Runtime::score.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "extender/framework/node_info.hpp"
#include "extender/framework/pod_info.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/kube/default_scores.hpp"

namespace koord::extender::plugins::kube {

inline constexpr int64_t kShippedExtenderWeight = 10;

struct NodeScore {
  DefaultScore kube;
  int64_t extender = 0;  // koord-extender's answer for the node, 0..10
  int64_t total = 0;     // kube.total + extender * weight * 10
};

// Per node of `nodes` (same order). `extender_weight` >= 0; `also_used` as defaultScores.
[[nodiscard]] std::vector<NodeScore> prioritize(
    const framework::PodInfo& pod,
    const std::vector<std::shared_ptr<const framework::NodeInfo>>& nodes,
    const framework::Runtime& runtime, int64_t extender_weight, const AlsoUsed& also_used = {});

// The index of the highest total; the first of equal ones (kube-scheduler picks one of them at
// random). `scores` must not be empty.
[[nodiscard]] size_t bestNode(const std::vector<NodeScore>& scores);

}  // namespace koord::extender::plugins::kube
