#include "manager/descheduler/plugins/spreading/topology_balance.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "manager/descheduler/framework/go_sort.hpp"

namespace koord::manager::descheduler::plugins::spreading {

namespace topologybalance_detail {

using api::core::Pod;
using framework::PodPtr;

bool hasSelectorOrAffinity(const Pod& pod) {
  return !pod.spec.nodeSelector.empty() ||
         (pod.spec.affinity.has_value() && pod.spec.affinity->nodeAffinity.has_value());
}

// comparePodsByPriority: true when `a` goes before `b` (higher priority first).
bool higherPriorityFirst(const Pod& a, const Pod& b) {
  const auto& pa = a.spec.priority;
  const auto& pb = b.spec.priority;
  if (pa.has_value() && pb.has_value()) {
    return *pa > *pb;
  }
  if (pa.has_value()) {
    return true;
  }
  if (pb.has_value()) {
    return false;
  }
  return true;
}

// The eligible nodes (inclusion policies) of the domains below the ideal average, domain by
// domain in sorted order, nodes in pass order.
// What nodeIncluded depends on, besides the node.
bool sameInclusion(const SpreadConstraint& a, const SpreadConstraint& b) {
  return a.topology_key == b.topology_key && a.node_affinity_policy == b.node_affinity_policy &&
         a.node_taints_policy == b.node_taints_policy &&
         a.pod_node_selector == b.pod_node_selector &&
         a.pod_required_affinity == b.pod_required_affinity &&
         a.pod_tolerations == b.pod_tolerations;
}

std::map<std::string, framework::NodeList> groupNodes(const SpreadConstraint& tsc,
                                                      const framework::NodeList& nodes) {
  std::map<std::string, framework::NodeList> by_value;
  for (const auto& node : nodes) {
    if (!nodeIncluded(tsc, *node)) {
      continue;
    }
    auto label = node->metadata.labels.find(tsc.topology_key);
    if (label != node->metadata.labels.end()) {
      by_value[label->second].push_back(node);
    }
  }
  return by_value;
}

// The eligible nodes (inclusion policies) of the domains below the ideal average, domain by
// domain in sorted order, nodes in pass order.
framework::NodeList nodesBelowAverage(const BalanceInput& input,
                                      const std::vector<TopologyDomain>& sorted, double ideal) {
  std::map<std::string, framework::NodeList> computed;
  if (input.node_domains == nullptr) {
    computed = groupNodes(*input.constraint, *input.nodes);
  }
  const auto& by_value = input.node_domains != nullptr ? *input.node_domains : computed;
  framework::NodeList below;
  for (const TopologyDomain& domain : sorted) {
    if (static_cast<double>(domain.pods.size()) < ideal) {
      auto nodes = by_value.find(domain.value);
      if (nodes != by_value.end()) {
        below.insert(below.end(), nodes->second.begin(), nodes->second.end());
      }
    }
  }
  return below;
}

}  // namespace topologybalance_detail

const std::map<std::string, framework::NodeList>& NodeDomains::of(
    const SpreadConstraint& constraint) {
  for (const auto& [seen, groups] : groups_) {
    if (topologybalance_detail::sameInclusion(seen, constraint)) {
      return groups;
    }
  }
  groups_.emplace_back(constraint, topologybalance_detail::groupNodes(constraint, nodes_));
  return groups_.back().second;
}

std::vector<TopologyDomain> sortDomains(
    const std::map<std::string, std::vector<framework::PodPtr>>& domains,
    const PodPredicate& evictable) {
  using namespace topologybalance_detail;  // NOLINT(google-build-using-namespace)
  std::vector<TopologyDomain> sorted;
  for (const auto& [value, pods] : domains) {
    TopologyDomain domain{value, pods};
    framework::goSortSlice(domain.pods, [&](const PodPtr& a, const PodPtr& b) {
      const bool ea = evictable(*a);
      const bool eb = evictable(*b);
      if (!ea || !eb) {
        return !(ea && !eb);
      }
      const bool sa = hasSelectorOrAffinity(*a);
      const bool sb = hasSelectorOrAffinity(*b);
      if (sa == sb) {
        return !higherPriorityFirst(*a, *b);
      }
      return sa && !sb;
    });
    sorted.push_back(std::move(domain));
  }
  framework::goSortSlice(sorted, [](const TopologyDomain& a, const TopologyDomain& b) {
    return a.pods.size() < b.pods.size();
  });
  return sorted;
}

void balanceDomains(const BalanceInput& input, std::vector<framework::PodPtr>& chosen) {
  using namespace topologybalance_detail;  // NOLINT(google-build-using-namespace)
  const SpreadConstraint& tsc = *input.constraint;
  const double ideal = input.sum_pods / static_cast<double>(input.domains->size());
  std::vector<TopologyDomain> sorted = sortDomains(*input.domains, input.evictable);
  const framework::NodeList below = nodesBelowAverage(input, sorted, ideal);

  std::unordered_map<const Pod*, bool> fit_cache;
  auto fits = [&](const PodPtr& pod) {
    if (!input.fits) {
      return true;
    }
    auto it = fit_cache.find(pod.get());
    if (it == fit_cache.end()) {
      it = fit_cache.emplace(pod.get(), input.fits(*pod, below)).first;
    }
    return it->second;
  };

  auto size = [&](size_t k) { return static_cast<double>(sorted[k].pods.size()); };
  size_t i = 0;
  size_t j = sorted.empty() ? 0 : sorted.size() - 1;
  while (i < j) {
    if (size(j) <= ideal) {
      --j;  // no continue here, as in the community loop
    }
    const double skew = size(j) - size(i);
    if (static_cast<int32_t>(skew) <= tsc.max_skew) {
      ++i;
      continue;
    }
    const double above_avg = std::ceil(size(j) - ideal);
    const double below_avg = std::ceil(ideal - size(i));
    const double half_skew = std::ceil((skew - static_cast<double>(tsc.max_skew)) / 2);
    const int move = static_cast<int>(std::min(std::min(above_avg, below_avg), half_skew));
    if (move <= 0) {
      ++i;
      continue;
    }
    auto& donor = sorted[j].pods;
    std::stable_sort(donor.begin(), donor.end(),
                     [&](const PodPtr& a, const PodPtr& b) { return !fits(a) && fits(b); });
    const auto first_moved = donor.end() - move;
    for (auto it = first_moved; it != donor.end(); ++it) {
      if (input.node_fit && !fits(*it)) {
        continue;
      }
      if (std::find(chosen.begin(), chosen.end(), *it) == chosen.end()) {
        chosen.push_back(*it);
      }
    }
    std::vector<framework::PodPtr> moved(first_moved, donor.end());
    donor.erase(first_moved, donor.end());
    sorted[i].pods.insert(sorted[i].pods.end(), moved.begin(), moved.end());
  }
}

}  // namespace koord::manager::descheduler::plugins::spreading
