// A pod's topology spread constraints as RemovePodsViolatingTopologySpreadConstraint (v0.36) reads
// them: spec.topologySpreadConstraints is not modelled in PodSpec, so it is read from the pod's
// spec.extra JSON. matchLabelKeys are folded into the selector (the pod's values of those keys
// must match too, when the pod has labels); nodeAffinityPolicy defaults to Honor and
// nodeTaintsPolicy to Ignore; minDomains is not used (v0.36 does not). Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::manager::descheduler::plugins::spreading {

inline constexpr const char* kNodeInclusionPolicyHonor = "Honor";
inline constexpr const char* kNodeInclusionPolicyIgnore = "Ignore";

struct SpreadConstraint {
  std::string when_unsatisfiable;  // DoNotSchedule or ScheduleAnyway
  int32_t max_skew = 0;
  std::string topology_key;
  // nullopt: the constraint has no labelSelector and selects no pod.
  std::optional<api::core::LabelSelector> selector;
  std::string node_affinity_policy = kNodeInclusionPolicyHonor;
  std::string node_taints_policy = kNodeInclusionPolicyIgnore;
  // With node_affinity_policy Honor: the pod's nodeSelector and required node affinity.
  api::core::StringMap pod_node_selector;
  std::optional<api::core::NodeSelector> pod_required_affinity;
  // With node_taints_policy Honor: the pod's tolerations.
  std::vector<api::core::Toleration> pod_tolerations;

  // hasIdenticalConstraints' comparison (when_unsatisfiable aside, as the community's
  // internal constraint does not carry it).
  [[nodiscard]] bool sameAs(const SpreadConstraint& other) const;
};

// The constraints of `pod`, in spec order; entries that do not decode or whose selector is invalid
// are skipped (the community logs them and goes on).
[[nodiscard]] std::vector<SpreadConstraint> podSpreadConstraints(const api::core::Pod& pod);

// Whether pods matching `selector` are counted (a missing selector matches none).
[[nodiscard]] bool constraintSelects(const SpreadConstraint& constraint,
                                     const api::core::StringMap& labels);

// matchNodeInclusionPolicies: with Honor, the node must match the pod's node selector/required
// affinity (an affinity error counts as no match) and carry no untolerated NoSchedule/NoExecute
// taint.
[[nodiscard]] bool nodeIncluded(const SpreadConstraint& constraint, const api::core::Node& node);

}  // namespace koord::manager::descheduler::plugins::spreading
