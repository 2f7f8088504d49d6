#include "manager/descheduler/plugins/spreading/topology_constraint.hpp"

#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"

namespace koord::manager::descheduler::plugins::spreading {

namespace topologyconstraint_detail {

std::string stringField(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Decodes one entry of spec.topologySpreadConstraints; nullopt when it is unusable.
std::optional<SpreadConstraint> decodeConstraint(const nlohmann::json& raw,
                                                 const api::core::Pod& pod) {
  if (!raw.is_object()) {
    return std::nullopt;
  }
  SpreadConstraint c;
  c.when_unsatisfiable = stringField(raw, "whenUnsatisfiable");
  c.topology_key = stringField(raw, "topologyKey");
  if (auto skew = raw.find("maxSkew"); skew != raw.end() && skew->is_number_integer()) {
    c.max_skew = skew->get<int32_t>();
  }
  if (auto sel = raw.find("labelSelector"); sel != raw.end() && !sel->is_null()) {
    api::core::LabelSelector selector;
    if (!api::core::fromJson(*sel, selector, "labelSelector").isOk() ||
        !api::core::validateLabelSelector(selector).isOk()) {
      return std::nullopt;
    }
    c.selector = std::move(selector);
  }
  if (auto keys = raw.find("matchLabelKeys");
      keys != raw.end() && keys->is_array() && !pod.metadata.labels.empty() && c.selector) {
    for (const auto& key : *keys) {
      if (!key.is_string()) {
        continue;
      }
      auto value = pod.metadata.labels.find(key.get<std::string>());
      if (value != pod.metadata.labels.end()) {
        c.selector->matchExpressions.push_back(
            api::core::LabelSelectorRequirement{value->first, "In", {value->second}, {}});
      }
    }
  }
  if (std::string policy = stringField(raw, "nodeAffinityPolicy"); !policy.empty()) {
    c.node_affinity_policy = policy;
  }
  if (std::string policy = stringField(raw, "nodeTaintsPolicy"); !policy.empty()) {
    c.node_taints_policy = policy;
  }
  if (c.node_affinity_policy == kNodeInclusionPolicyHonor) {
    c.pod_node_selector = pod.spec.nodeSelector;
    if (pod.spec.affinity.has_value() && pod.spec.affinity->nodeAffinity.has_value()) {
      c.pod_required_affinity = pod.spec.affinity->nodeAffinity->required;
    }
  }
  if (c.node_taints_policy == kNodeInclusionPolicyHonor) {
    c.pod_tolerations = pod.spec.tolerations;
  }
  return c;
}

}  // namespace topologyconstraint_detail

bool SpreadConstraint::sameAs(const SpreadConstraint& other) const {
  return max_skew == other.max_skew && topology_key == other.topology_key &&
         selector == other.selector && node_affinity_policy == other.node_affinity_policy &&
         node_taints_policy == other.node_taints_policy &&
         pod_node_selector == other.pod_node_selector &&
         pod_required_affinity == other.pod_required_affinity &&
         pod_tolerations == other.pod_tolerations;
}

std::vector<SpreadConstraint> podSpreadConstraints(const api::core::Pod& pod) {
  std::vector<SpreadConstraint> out;
  const nlohmann::json& extra = pod.spec.extra;
  if (!extra.is_object()) {
    return out;
  }
  auto list = extra.find("topologySpreadConstraints");
  if (list == extra.end() || !list->is_array()) {
    return out;
  }
  for (const auto& raw : *list) {
    if (auto c = topologyconstraint_detail::decodeConstraint(raw, pod)) {
      out.push_back(std::move(*c));
    }
  }
  return out;
}

bool constraintSelects(const SpreadConstraint& constraint, const api::core::StringMap& labels) {
  if (!constraint.selector.has_value()) {
    return false;
  }
  auto matched = api::core::matchesLabelSelector(*constraint.selector, labels);
  return matched.ok() && *matched;
}

bool nodeIncluded(const SpreadConstraint& constraint, const api::core::Node& node) {
  if (constraint.node_affinity_policy == kNodeInclusionPolicyHonor) {
    for (const auto& [key, value] : constraint.pod_node_selector) {
      auto label = node.metadata.labels.find(key);
      if (label == node.metadata.labels.end() || label->second != value) {
        return false;
      }
    }
    if (constraint.pod_required_affinity.has_value()) {
      auto matched = api::core::matchesNodeSelector(*constraint.pod_required_affinity, node);
      if (!matched.ok() || !*matched) {
        return false;
      }
    }
  }
  if (constraint.node_taints_policy == kNodeInclusionPolicyHonor) {
    auto untolerated = api::core::findUntoleratedTaint(
        node.spec.taints, constraint.pod_tolerations, [](const api::core::Taint& taint) {
          return taint.effect == api::core::kTaintEffectNoSchedule ||
                 taint.effect == api::core::kTaintEffectNoExecute;
        });
    if (untolerated.has_value()) {
      return false;
    }
  }
  return true;
}

}  // namespace koord::manager::descheduler::plugins::spreading
