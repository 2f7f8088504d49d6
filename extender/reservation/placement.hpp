// Placing a pending Reservation: its reserve pod (plugins::common::reservePod) goes through the
// same filters and scores as a pod would in kube-scheduler with koord-extender (the placement
// Runtime: kube-scheduler's filters, which kube-scheduler itself runs for pods, then
// koord-extender's configured plugins, Reservation included; scored by plugins/kube/prioritize.hpp:
// kube-scheduler's default score plugins plus the extender's score times its weight), over every
// node, or only the one spec.template.spec.nodeName pins. With spec.preAllocation the nodes are
// judged without their pods: the reservation may take what running pods hold, and holds it as they
// leave (the Reservation helper caps what it holds at what is free). What the nodes' reservations
// hold counts as used in the scores (the cluster's Reservation helper,
// plugins/common/reservation_state.hpp, when it has one).
#pragma once

#include <cstdint>
#include <string>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/kube/prioritize.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::extender::reservation {

struct Placement {
  std::string node;  // empty when it fits nowhere
  // What the reservation holds there: the reserve pod's requests (no "pods" entry).
  resource::ResourceList allocatable;
  // When it fits nowhere: kube-scheduler's FitError text ("0/3 nodes are available: ...").
  std::string message;
};

// The highest-scoring feasible node (ties: the first by name). `extender_weight`: the weight
// kube-scheduler's configuration gives koord-extender (the shipped one: 10). kInvalidArgument when
// the reservation has neither template nor resources or its requests cannot be summed; kInternal
// when a plugin fails.
[[nodiscard]] Result<Placement> place(
    const api::scheduling::Reservation& r, const framework::ClusterState& cluster,
    const framework::Runtime& runtime,
    int64_t extender_weight = plugins::kube::kShippedExtenderWeight);

}  // namespace koord::extender::reservation
