#include "manager/descheduler/plugins/pod_lifecycle/pod_lifetime.hpp"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

namespace koord::manager::descheduler::pod_lifecycle {

namespace pod_lifetime_detail {

bool anyExitCodeIn(const std::vector<ContainerStatusFacts>& statuses,
                   const std::vector<int32_t>& codes) {
  return std::any_of(statuses.begin(), statuses.end(), [&](const ContainerStatusFacts& cs) {
    return cs.terminated && std::find(codes.begin(), codes.end(), cs.exit_code) != codes.end();
  });
}

bool fieldsMatch(const api::core::PodCondition& cond, const PodConditionFilter& filter) {
  return (filter.type.empty() || cond.type == filter.type) &&
         (filter.status.empty() || cond.status == filter.status) &&
         (filter.reason.empty() || cond.reason == filter.reason);
}

}  // namespace pod_lifetime_detail

PodLifeTime::PodLifeTime(PodLifeTimeArgs args, PodScope scope, framework::Handle& handle)
    : args_(std::move(args)), scope_(std::move(scope)), handle_(handle) {}

bool PodLifeTime::oldEnough(const api::core::Pod& pod) const {
  if (!args_.maxPodLifeTimeSeconds) {
    return true;
  }
  std::chrono::nanoseconds age = elapsedSince(pod.metadata.creationTimestamp, handle_.now);
  if (age < std::chrono::nanoseconds::zero()) {
    return false;
  }
  return goUintSeconds(age) > *args_.maxPodLifeTimeSeconds;
}

bool PodLifeTime::inStates(const api::core::Pod& pod) const {
  const std::vector<std::string>& states = args_.states;
  if (states.empty()) {
    return true;
  }
  if (contains(states, pod.status.phase) || contains(states, pod.status.reason)) {
    return true;
  }
  auto matches = [&](ContainerKind kind) {
    auto statuses = containerStatuses(pod, kind);
    return hasWaitingReasonIn(statuses, states) || hasTerminatedReasonIn(statuses, states);
  };
  return matches(ContainerKind::kRegular) ||
         (args_.includingInitContainers && matches(ContainerKind::kInit)) ||
         (args_.includingEphemeralContainers && matches(ContainerKind::kEphemeral));
}

bool PodLifeTime::ownerKindsAllow(const api::core::Pod& pod) const {
  if (!args_.ownerKinds) {
    return true;
  }
  const auto& owners = pod.metadata.ownerReferences;
  if (!args_.ownerKinds->include.empty()) {
    return std::any_of(owners.begin(), owners.end(), [&](const api::core::OwnerReference& o) {
      return contains(args_.ownerKinds->include, o.kind);
    });
  }
  if (!args_.ownerKinds->exclude.empty()) {
    return std::none_of(owners.begin(), owners.end(), [&](const api::core::OwnerReference& o) {
      return contains(args_.ownerKinds->exclude, o.kind);
    });
  }
  return true;
}

bool PodLifeTime::matchesConditions(const api::core::Pod& pod) const {
  if (args_.conditions.empty()) {
    return true;
  }
  for (const PodConditionFilter& filter : args_.conditions) {
    for (const api::core::PodCondition& cond : pod.status.conditions) {
      if (!pod_lifetime_detail::fieldsMatch(cond, filter)) {
        continue;
      }
      if (filter.minTimeSinceLastTransitionSeconds) {
        if (cond.lastTransitionTime.empty()) {
          continue;
        }
        std::chrono::nanoseconds idle = elapsedSince(cond.lastTransitionTime, handle_.now);
        if (idle < std::chrono::nanoseconds::zero() ||
            goUintSeconds(idle) < *filter.minTimeSinceLastTransitionSeconds) {
          continue;
        }
      }
      return true;
    }
  }
  return false;
}

bool PodLifeTime::matchesExitCodes(const api::core::Pod& pod) const {
  if (args_.exitCodes.empty()) {
    return true;
  }
  return pod_lifetime_detail::anyExitCodeIn(containerStatuses(pod, ContainerKind::kRegular),
                                            args_.exitCodes) ||
         (args_.includingInitContainers &&
          pod_lifetime_detail::anyExitCodeIn(containerStatuses(pod, ContainerKind::kInit),
                                             args_.exitCodes));
}

bool PodLifeTime::selects(const api::core::Pod& pod) const {
  // The community's filter order: namespaces and labels, the evictor, then the args' criteria.
  return scope_.matches(pod) && handle_.evictor->filter(pod) &&
         handle_.evictor->preEvictionFilter(pod) && oldEnough(pod) && inStates(pod) &&
         ownerKindsAllow(pod) && matchesConditions(pod) && matchesExitCodes(pod);
}

Status PodLifeTime::deschedule(const framework::NodeList& nodes) {
  if (handle_.snapshot == nullptr || handle_.evictor == nullptr) {
    return Status::failedPrecondition("PodLifeTime: the handle has no snapshot or evictor");
  }
  struct Candidate {
    framework::PodPtr pod;
    framework::NodePtr node;
    std::chrono::system_clock::time_point created;
  };
  std::vector<Candidate> candidates;
  for (const auto& node : nodes) {
    for (const framework::PodPtr& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
      if (selects(*pod)) {
        candidates.push_back({pod, node, creationTime(*pod)});
      }
    }
  }
  // Oldest first. The community's sort is not stable, but its listing order within a node is not
  // defined either; a stable sort keeps ours reproducible.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.created < b.created; });
  for (const Candidate& candidate : candidates) {
    if (handle_.evictor->nodeLimitExceeded(*candidate.node)) {
      continue;
    }
    framework::EvictOptions options{std::string(kPodLifeTimeName), ""};
    (void)handle_.evictor->evict(*candidate.pod, options);
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createPodLifeTime(const nlohmann::json& args,
                                                             framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(PodLifeTimeArgs decoded, decodePodLifeTimeArgs(args));
  KOORD_ASSIGN_OR_RETURN(PodScope scope,
                         PodScope::create(decoded.namespaces, decoded.labelSelector));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<PodLifeTime>(std::move(decoded), std::move(scope), handle));
}

}  // namespace koord::manager::descheduler::pod_lifecycle
