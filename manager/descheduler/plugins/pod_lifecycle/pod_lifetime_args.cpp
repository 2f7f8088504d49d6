#include "manager/descheduler/plugins/pod_lifecycle/pod_lifetime_args.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "koord/api/codec.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

namespace pod_lifetime_args_detail {

constexpr std::string_view kArgsName = "PodLifeTimeArgs";

// Sorted, as the community prints them.
constexpr std::array<std::string_view, 24> kAllowedStates = {
    "Completed",
    "ContainerCannotRun",
    "ContainerCreating",
    "CrashLoopBackOff",
    "CreateContainerConfigError",
    "CreateContainerError",
    "DeadlineExceeded",
    "ErrImagePull",
    "Error",
    "Evicted",
    "Failed",
    "ImagePullBackOff",
    "InvalidImageName",
    "NodeAffinity",
    "NodeLost",
    "OOMKilled",
    "Pending",
    "PodInitializing",
    "Running",
    "Shutdown",
    "StartError",
    "Succeeded",
    "UnexpectedAdmissionError",
    "Unknown",
};

std::string path(std::string_view key) {
  return api::childPath(std::string(kArgsName), key);
}

Status decodeOwnerKinds(const Json* value, const std::string& at, std::optional<OwnerKinds>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (Status st = checkKnownKeys(*value, at, {"include", "exclude"}); !st.isOk()) {
    return st;
  }
  OwnerKinds kinds;
  Status st =
      decodeStrings(member(*value, "include"), api::childPath(at, "include"), kinds.include);
  if (st.isOk()) {
    st = decodeStrings(member(*value, "exclude"), api::childPath(at, "exclude"), kinds.exclude);
  }
  if (!st.isOk()) {
    return st;
  }
  out = std::move(kinds);
  return Status::ok();
}

Status decodeConditions(const Json* value, const std::string& at,
                        std::vector<PodConditionFilter>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!value->is_array()) {
    return api::typeError(at, "array", *value);
  }
  out.clear();
  for (size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    std::string item_path = api::indexPath(at, i);
    PodConditionFilter filter;
    if (!item.is_null()) {
      if (Status st = checkKnownKeys(
              item, item_path, {"type", "status", "reason", "minTimeSinceLastTransitionSeconds"});
          !st.isOk()) {
        return st;
      }
      Status st =
          decodeString(member(item, "type"), api::childPath(item_path, "type"), filter.type);
      if (st.isOk()) {
        st = decodeString(member(item, "status"), api::childPath(item_path, "status"),
                          filter.status);
      }
      if (st.isOk()) {
        st = decodeString(member(item, "reason"), api::childPath(item_path, "reason"),
                          filter.reason);
      }
      if (st.isOk()) {
        st = decodeUint(member(item, "minTimeSinceLastTransitionSeconds"),
                        api::childPath(item_path, "minTimeSinceLastTransitionSeconds"),
                        filter.minTimeSinceLastTransitionSeconds);
      }
      if (!st.isOk()) {
        return st;
      }
    }
    out.push_back(std::move(filter));
  }
  return Status::ok();
}

}  // namespace pod_lifetime_args_detail

Result<PodLifeTimeArgs> decodePodLifeTimeArgs(const nlohmann::json& args) {
  namespace d = pod_lifetime_args_detail;
  PodLifeTimeArgs out;
  if (!args.is_null()) {
    if (Status st = checkKnownKeys(
            args, std::string(d::kArgsName),
            {"namespaces", "labelSelector", "ownerKinds", "maxPodLifeTimeSeconds", "states",
             "conditions", "exitCodes", "includingInitContainers", "includingEphemeralContainers"},
            true);
        !st.isOk()) {
      return st;
    }
    Status st = decodeNamespaces(member(args, "namespaces"), d::path("namespaces"), out.namespaces);
    if (st.isOk()) {
      st = decodeLabelSelector(member(args, "labelSelector"), d::path("labelSelector"),
                               out.labelSelector);
    }
    if (st.isOk()) {
      st = d::decodeOwnerKinds(member(args, "ownerKinds"), d::path("ownerKinds"), out.ownerKinds);
    }
    if (st.isOk()) {
      st = decodeUint(member(args, "maxPodLifeTimeSeconds"), d::path("maxPodLifeTimeSeconds"),
                      out.maxPodLifeTimeSeconds);
    }
    if (st.isOk()) {
      st = decodeStrings(member(args, "states"), d::path("states"), out.states);
    }
    if (st.isOk()) {
      st = d::decodeConditions(member(args, "conditions"), d::path("conditions"), out.conditions);
    }
    if (st.isOk()) {
      st = decodeInt32s(member(args, "exitCodes"), d::path("exitCodes"), out.exitCodes);
    }
    if (st.isOk()) {
      st = decodeBool(member(args, "includingInitContainers"), d::path("includingInitContainers"),
                      out.includingInitContainers);
    }
    if (st.isOk()) {
      st = decodeBool(member(args, "includingEphemeralContainers"),
                      d::path("includingEphemeralContainers"), out.includingEphemeralContainers);
    }
    if (!st.isOk()) {
      return st;
    }
  }
  if (Status valid = validatePodLifeTimeArgs(out); !valid.isOk()) {
    return valid;
  }
  return out;
}

Status validatePodLifeTimeArgs(const PodLifeTimeArgs& args) {
  namespace d = pod_lifetime_args_detail;
  ErrorList errors;
  if (args.namespaces && !args.namespaces->include.empty() && !args.namespaces->exclude.empty()) {
    errors.add(d::path("namespaces") + ": only one of Include/Exclude namespaces can be set");
  }
  if (args.ownerKinds && !args.ownerKinds->include.empty() && !args.ownerKinds->exclude.empty()) {
    errors.add(d::path("ownerKinds") + ": only one of Include/Exclude ownerKinds can be set");
  }
  validateNamespacesAndSelector(d::kArgsName, std::nullopt, args.labelSelector, errors);
  bool states_ok = std::all_of(args.states.begin(), args.states.end(), [](const std::string& s) {
    return std::find(d::kAllowedStates.begin(), d::kAllowedStates.end(), s) !=
           d::kAllowedStates.end();
  });
  if (!states_ok) {
    std::vector<std::string> allowed(d::kAllowedStates.begin(), d::kAllowedStates.end());
    errors.add(d::path("states") + ": states must be one of " + goStringList(allowed));
  }
  for (size_t i = 0; i < args.conditions.size(); ++i) {
    const PodConditionFilter& c = args.conditions[i];
    if (c.type.empty() && c.status.empty() && c.reason.empty() &&
        !c.minTimeSinceLastTransitionSeconds) {
      errors.add(d::path("conditions") + ": conditions[" + std::to_string(i) +
                 "]: at least one of type, status, reason, or minTimeSinceLastTransitionSeconds "
                 "must be set");
    }
  }
  bool has_filter = args.maxPodLifeTimeSeconds || !args.states.empty() ||
                    !args.conditions.empty() || !args.exitCodes.empty();
  if (!has_filter) {
    errors.add(d::path("maxPodLifeTimeSeconds") +
               ": at least one filtering criterion must be specified (maxPodLifeTimeSeconds, "
               "states, conditions, or exitCodes)");
  }
  return errors.toStatus();
}

}  // namespace koord::manager::descheduler::pod_lifecycle
