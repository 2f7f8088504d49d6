// PodLifeTimeArgs as the community descheduler v0.36 has them (podlifetime/types.go), their
// strict decoding and ValidatePodLifeTimeArgs. No defaults beyond the zero values.
//
// Validation errors read "PodLifeTimeArgs.<field>: <the community's message>"; several are
// reported together as "[first, second]". Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/args_decode.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

// Owner kinds a pod must (include) or must not (exclude) have; at most one list may be set.
struct OwnerKinds {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

// Matches a status.conditions entry: every set field must be equal; with
// minTimeSinceLastTransitionSeconds the condition must also have last transitioned at least that
// long ago.
struct PodConditionFilter {
  std::string type;
  std::string status;
  std::string reason;
  std::optional<uint64_t> minTimeSinceLastTransitionSeconds;
};

struct PodLifeTimeArgs {
  std::optional<Namespaces> namespaces;
  std::optional<api::core::LabelSelector> labelSelector;
  std::optional<OwnerKinds> ownerKinds;
  std::optional<uint64_t> maxPodLifeTimeSeconds;
  // Pod phases, pod status reasons, container waiting and terminated reasons.
  std::vector<std::string> states;
  std::vector<PodConditionFilter> conditions;
  std::vector<int32_t> exitCodes;
  bool includingInitContainers = false;
  bool includingEphemeralContainers = false;
};

// Decodes (null: all unset, which validation refuses) and validates.
[[nodiscard]] Result<PodLifeTimeArgs> decodePodLifeTimeArgs(const nlohmann::json& args);
[[nodiscard]] Status validatePodLifeTimeArgs(const PodLifeTimeArgs& args);

}  // namespace koord::manager::descheduler::pod_lifecycle
