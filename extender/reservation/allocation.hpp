// What the plugins take for a Reservation placed on a node, as Koordinator's scheduler does when
// it runs a reserve pod through Reserve and PreBind: the reserve pod
// (plugins::common::reservePod) goes through the placement runtime's bind (every plugin's
// reserve, permit and preBind) without being bound, and the annotations the plugins' preBind put
// in the bind patch (NodeNUMAResource: the cpuset in scheduling.koordinator.sh/resource-status)
// are what the Reservation must carry from then on. What the plugins took stays in the cluster's
// AllocationCache under the Reservation's UID until the caller confirms it (the Reservation with
// its annotations is in the Reservation helper) or releases it (the write failed): both are
// AllocationCache::confirm(uid). A pre-allocating reservation is allocated on the node as if its
// pods were gone, as it was placed.
#pragma once

#include <map>
#include <string>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/runtime.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::reservation {

// The annotations to write on `r` for its placement on `node` (empty when no plugin takes
// anything particular). kNotFound when the node is not in `cluster`; kInvalidArgument when `r`
// has no template or resources; a plugin's refusal as kFailedPrecondition with its reason.
[[nodiscard]] Result<std::map<std::string, std::string>> allocateFor(
    const api::scheduling::Reservation& r, const framework::ClusterState& cluster,
    framework::Runtime& runtime, const std::string& node);

}  // namespace koord::extender::reservation
