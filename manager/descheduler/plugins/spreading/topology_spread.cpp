#include "manager/descheduler/plugins/spreading/topology_spread.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "koord/api/core/pod_helpers.hpp"
#include "manager/descheduler/plugins/spreading/topology_balance.hpp"
#include "manager/descheduler/plugins/spreading/topology_constraint.hpp"

namespace koord::manager::descheduler::plugins::spreading {

namespace topologyspread_detail {

using framework::PodPtr;

constexpr std::string_view kArgsName = "RemovePodsViolatingTopologySpreadConstraintArgs";

bool topologyIsBalanced(const std::map<std::string, std::vector<PodPtr>>& domains,
                        int32_t max_skew) {
  size_t smallest = SIZE_MAX;
  size_t largest = 0;
  for (const auto& entry : domains) {
    smallest = std::min(smallest, entry.second.size());
    largest = std::max(largest, entry.second.size());
  }
  return domains.empty() || static_cast<int64_t>(largest - smallest) <= max_skew;
}

// The distinct constraints, of an allowed kind, the pods of one namespace carry.
std::vector<SpreadConstraint> namespaceConstraints(const std::vector<PodPtr>& pods,
                                                   const std::vector<std::string>& allowed) {
  std::vector<SpreadConstraint> out;
  for (const PodPtr& pod : pods) {
    for (SpreadConstraint& c : podSpreadConstraints(*pod)) {
      if (std::find(allowed.begin(), allowed.end(), c.when_unsatisfiable) == allowed.end()) {
        continue;
      }
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const SpreadConstraint& o) { return o.sameAs(c); });
      if (!seen) {
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

}  // namespace topologyspread_detail

Result<TopologySpreadArgs> decodeTopologySpreadArgs(const nlohmann::json& args) {
  using topologyspread_detail::kArgsName;
  KOORD_RETURN_IF_ERROR(checkArgsKeys(
      args, kArgsName, {"namespaces", "labelSelector", "constraints", "topologyBalanceNodeFit"}));
  TopologySpreadArgs out;
  KOORD_RETURN_IF_ERROR(decodeNamespaces(args, kArgsName, out.scope.namespaces));
  KOORD_RETURN_IF_ERROR(decodeLabelSelector(args, kArgsName, out.scope.label_selector));
  std::vector<std::string> constraints;
  KOORD_RETURN_IF_ERROR(decodeStringList(args, kArgsName, "constraints", constraints));
  if (!constraints.empty()) {
    out.constraints = std::move(constraints);
  }
  std::optional<bool> node_fit;
  KOORD_RETURN_IF_ERROR(decodeBool(args, kArgsName, "topologyBalanceNodeFit", node_fit));
  out.topology_balance_node_fit = node_fit.value_or(true);

  KOORD_RETURN_IF_ERROR(validatePodScope(out.scope, kArgsName));
  for (const std::string& c : out.constraints) {
    if (c != "DoNotSchedule" && c != "ScheduleAnyway") {
      return Status::invalidArgument(std::string(kArgsName) + ".constraints: constraint " + c +
                                     " is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]");
    }
  }
  return out;
}

bool RemovePodsViolatingTopologySpreadConstraint::podFilter(const api::core::Pod& pod) const {
  return args_.scope.contains(pod) && handle_.evictor->filter(pod);
}

Status RemovePodsViolatingTopologySpreadConstraint::balance(const framework::NodeList& nodes) {
  using namespace topologyspread_detail;  // NOLINT(google-build-using-namespace)
  const framework::ClusterSnapshot& snapshot = *handle_.snapshot;
  framework::Evictor& evictor = *handle_.evictor;

  std::unordered_map<std::string, const api::core::Node*> node_map;
  std::map<std::string, std::vector<PodPtr>> by_namespace;
  for (const auto& node : nodes) {
    node_map.emplace(node->metadata.name, node.get());
  }
  for (const auto& node : nodes) {
    for (const PodPtr& pod : snapshot.podsOnNode(node->metadata.name)) {
      if (!api::core::isPodTerminal(*pod) && podFilter(*pod)) {
        by_namespace[pod->metadata.namespace_].push_back(pod);
      }
    }
  }

  std::vector<PodPtr> chosen;
  const PodPredicate evictable = [&evictor](const api::core::Pod& pod) {
    return evictor.filter(pod);
  };
  NodeDomains node_domains(nodes);
  for (const auto& [ns, pods] : by_namespace) {
    for (const SpreadConstraint& tsc : namespaceConstraints(pods, args_.constraints)) {
      const auto& node_groups = node_domains.of(tsc);
      std::map<std::string, std::vector<PodPtr>> domains;
      for (const auto& group : node_groups) {
        domains.try_emplace(domains.end(), group.first);
      }
      double sum_pods = 0;
      for (const PodPtr& pod : pods) {
        if (!pod->metadata.deletionTimestamp.empty() ||
            !constraintSelects(tsc, pod->metadata.labels)) {
          continue;
        }
        auto node = node_map.find(pod->spec.nodeName);
        if (node == node_map.end()) {
          continue;
        }
        auto label = node->second->metadata.labels.find(tsc.topology_key);
        if (label == node->second->metadata.labels.end()) {
          continue;
        }
        domains[label->second].push_back(pod);
        sum_pods += 1;
      }
      if (topologyIsBalanced(domains, tsc.max_skew)) {
        continue;
      }
      BalanceInput input{&tsc,
                         &domains,
                         sum_pods,
                         &nodes,
                         evictable,
                         args_.topology_balance_node_fit,
                         handle_.pod_fits_any_other_node,
                         &node_groups};
      balanceDomains(input, chosen);
    }
  }

  std::set<std::string> full_nodes;
  for (const PodPtr& pod : chosen) {
    if (full_nodes.contains(pod->spec.nodeName) || !podFilter(*pod) ||
        !evictor.preEvictionFilter(*pod)) {
      continue;
    }
    framework::EvictOptions options{std::string(kRemovePodsViolatingTopologySpreadConstraintName),
                                    ""};
    if (evictor.evict(*pod, options)) {
      continue;
    }
    auto node = node_map.find(pod->spec.nodeName);
    if (node != node_map.end() && evictor.nodeLimitExceeded(*node->second)) {
      full_nodes.insert(pod->spec.nodeName);
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemovePodsViolatingTopologySpreadConstraint(
    const nlohmann::json& args, framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(TopologySpreadArgs decoded, decodeTopologySpreadArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<RemovePodsViolatingTopologySpreadConstraint>(std::move(decoded), handle));
}

}  // namespace koord::manager::descheduler::plugins::spreading
