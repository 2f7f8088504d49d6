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

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
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

// The nodes of a pass grouped by topology value, keeping only the nodes a constraint's inclusion
// policies admit (nodeIncluded) that carry its topology key; each group in pass order. Built once
// per distinct (topology key, policies, node selector, required affinity, tolerations) and shared
// by the constraints that agree on all of these. References stay valid while this object lives.
class NodeDomains {
 public:
  explicit NodeDomains(const framework::NodeList& nodes) : nodes_(nodes) {}

  [[nodiscard]] const std::map<std::string, framework::NodeList>& of(
      const SpreadConstraint& constraint);

 private:
  const framework::NodeList& nodes_;
  std::deque<std::pair<SpreadConstraint, std::map<std::string, framework::NodeList>>> groups_;
};

struct BalanceInput {
  const SpreadConstraint* constraint = nullptr;
  const std::map<std::string, std::vector<framework::PodPtr>>* domains = nullptr;
  double sum_pods = 0;
  const framework::NodeList* nodes = nullptr;  // the nodes of the pass, in their order
  PodPredicate evictable;
  bool node_fit = true;  // args.topologyBalanceNodeFit
  // Handle::pod_fits_any_other_node; empty: every pod fits.
  framework::PodFitsAnyOtherNode fits;
  // The constraint's node groups (NodeDomains::of); nullptr: computed from `nodes`.
  const std::map<std::string, framework::NodeList>* node_domains = nullptr;
};

// The pods chosen for eviction, appended to `chosen` in the order chosen (no duplicates).
void balanceDomains(const BalanceInput& input, std::vector<framework::PodPtr>& chosen);

}  // namespace koord::manager::descheduler::plugins::spreading
