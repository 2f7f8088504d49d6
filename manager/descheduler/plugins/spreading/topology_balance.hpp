// The domain balancing of RemovePodsViolatingTopologySpreadConstraint (community descheduler
// v0.36's sortDomains and balanceDomains), apart from the plugin so it can be tested alone.
//
// sortDomains: pods within a domain ordered for eviction from the back (non-evictable first, then
// pods with a node selector or node affinity, each group in descending priority, by Go's
// sort.Slice with the community's comparator); domains ascending by pod count (ties in value
// order). balanceDomains: moves pods from domains above the ideal average to domains below it
// while two domains differ by more than maxSkew, choosing the pods to move from the back of the
// above-average domain (pods that fit a node of a below-average domain last, so chosen first);
// with topologyBalanceNodeFit a pod that fits no such node is counted as moved but not chosen.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/spreading/topology_constraint.hpp"

namespace koord::manager::descheduler::plugins::spreading {

struct TopologyDomain {
  std::string value;  // the topology key's value
  std::vector<framework::PodPtr> pods;
};

using PodPredicate = std::function<bool(const api::core::Pod&)>;

// Domains keyed by value.
[[nodiscard]] std::vector<TopologyDomain> sortDomains(
    const std::map<std::string, std::vector<framework::PodPtr>>& domains,
    const PodPredicate& evictable);

struct BalanceInput {
  const SpreadConstraint* constraint = nullptr;
  const std::map<std::string, std::vector<framework::PodPtr>>* domains = nullptr;
  double sum_pods = 0;
  const framework::NodeList* nodes = nullptr;  // the nodes of the pass, in their order
  PodPredicate evictable;
  bool node_fit = true;  // args.topologyBalanceNodeFit
  // Handle::pod_fits_any_other_node; empty: every pod fits.
  framework::PodFitsAnyOtherNode fits;
};

// The pods chosen for eviction, appended to `chosen` in the order chosen (no duplicates).
void balanceDomains(const BalanceInput& input, std::vector<framework::PodPtr>& chosen);

}  // namespace koord::manager::descheduler::plugins::spreading
