#include "manager/descheduler/plugins/pod_lifecycle/remove_failed_pods.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/codec.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

namespace remove_failed_pods_detail {

constexpr std::string_view kArgsName = "RemoveFailedPodsArgs";

std::string path(std::string_view key) {
  return api::childPath(std::string(kArgsName), key);
}

// Reasons of waiting and terminated states (getFailedContainerStatusReasons).
void appendReasons(const std::vector<ContainerStatusFacts>& statuses,
                   std::vector<std::string>& out) {
  for (const ContainerStatusFacts& cs : statuses) {
    if (cs.waiting && !cs.waiting_reason.empty()) {
      out.push_back(cs.waiting_reason);
    }
    if (cs.terminated && !cs.terminated_reason.empty()) {
      out.push_back(cs.terminated_reason);
    }
  }
}

bool anyExitCodeIn(const std::vector<ContainerStatusFacts>& statuses,
                   const std::vector<int32_t>& codes) {
  return std::any_of(statuses.begin(), statuses.end(), [&](const ContainerStatusFacts& cs) {
    return cs.terminated && std::find(codes.begin(), codes.end(), cs.exit_code) != codes.end();
  });
}

}  // namespace remove_failed_pods_detail

Result<RemoveFailedPodsArgs> decodeRemoveFailedPodsArgs(const nlohmann::json& args) {
  namespace d = remove_failed_pods_detail;
  RemoveFailedPodsArgs out;
  if (args.is_null()) {
    return out;
  }
  const std::string root(d::kArgsName);
  if (Status st = checkKnownKeys(
          args, root,
          {"namespaces", "labelSelector", "excludeOwnerKinds", "minPodLifetimeSeconds", "reasons",
           "exitCodes", "includingInitContainers"},
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
    st = decodeStrings(member(args, "excludeOwnerKinds"), d::path("excludeOwnerKinds"),
                       out.excludeOwnerKinds);
  }
  if (st.isOk()) {
    st = decodeUint(member(args, "minPodLifetimeSeconds"), d::path("minPodLifetimeSeconds"),
                    out.minPodLifetimeSeconds);
  }
  if (st.isOk()) {
    st = decodeStrings(member(args, "reasons"), d::path("reasons"), out.reasons);
  }
  if (st.isOk()) {
    st = decodeInt32s(member(args, "exitCodes"), d::path("exitCodes"), out.exitCodes);
  }
  if (st.isOk()) {
    st = decodeBool(member(args, "includingInitContainers"), d::path("includingInitContainers"),
                    out.includingInitContainers);
  }
  if (!st.isOk()) {
    return st;
  }
  if (Status valid = validateRemoveFailedPodsArgs(out); !valid.isOk()) {
    return valid;
  }
  return out;
}

Status validateRemoveFailedPodsArgs(const RemoveFailedPodsArgs& args) {
  ErrorList errors;
  validateNamespacesAndSelector(remove_failed_pods_detail::kArgsName, args.namespaces,
                                args.labelSelector, errors);
  return errors.toStatus();
}

RemoveFailedPods::RemoveFailedPods(RemoveFailedPodsArgs args, PodScope scope,
                                   framework::Handle& handle)
    : args_(std::move(args)), scope_(std::move(scope)), handle_(handle) {}

bool RemoveFailedPods::meetsArgs(const api::core::Pod& pod) const {
  namespace d = remove_failed_pods_detail;
  if (args_.minPodLifetimeSeconds &&
      goUintSeconds(elapsedSince(pod.metadata.creationTimestamp, handle_.now)) <
          *args_.minPodLifetimeSeconds) {
    return false;
  }
  if (!args_.excludeOwnerKinds.empty()) {
    for (const api::core::OwnerReference& owner : pod.metadata.ownerReferences) {
      if (contains(args_.excludeOwnerKinds, owner.kind)) {
        return false;
      }
    }
  }
  const auto regular = containerStatuses(pod, ContainerKind::kRegular);
  const auto init = args_.includingInitContainers ? containerStatuses(pod, ContainerKind::kInit)
                                                  : std::vector<ContainerStatusFacts>{};
  if (!args_.reasons.empty()) {
    std::vector<std::string> reasons;
    d::appendReasons(regular, reasons);
    if (pod.status.phase == "Failed" && !pod.status.reason.empty()) {
      reasons.push_back(pod.status.reason);
    }
    d::appendReasons(init, reasons);
    bool any = std::any_of(reasons.begin(), reasons.end(), [&](const std::string& reason) {
      return contains(args_.reasons, reason);
    });
    if (!any) {
      return false;
    }
  }
  if (!args_.exitCodes.empty() && !d::anyExitCodeIn(regular, args_.exitCodes) &&
      !d::anyExitCodeIn(init, args_.exitCodes)) {
    return false;
  }
  return true;
}

bool RemoveFailedPods::selects(const api::core::Pod& pod) const {
  // The community's filter order: phase, namespaces and labels, the evictor, then the args.
  return pod.status.phase == "Failed" && scope_.matches(pod) && handle_.evictor->filter(pod) &&
         handle_.evictor->preEvictionFilter(pod) && meetsArgs(pod);
}

Status RemoveFailedPods::deschedule(const framework::NodeList& nodes) {
  if (handle_.snapshot == nullptr || handle_.evictor == nullptr) {
    return Status::failedPrecondition("RemoveFailedPods: the handle has no snapshot or evictor");
  }
  for (const auto& node : nodes) {
    std::vector<framework::PodPtr> victims;
    for (const framework::PodPtr& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
      if (selects(*pod)) {
        victims.push_back(pod);
      }
    }
    for (const framework::PodPtr& pod : victims) {
      framework::EvictOptions options{std::string(kRemoveFailedPodsName), ""};
      if (!handle_.evictor->evict(*pod, options) && handle_.evictor->nodeLimitExceeded(*node)) {
        break;
      }
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemoveFailedPods(const nlohmann::json& args,
                                                                  framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(RemoveFailedPodsArgs decoded, decodeRemoveFailedPodsArgs(args));
  KOORD_ASSIGN_OR_RETURN(PodScope scope,
                         PodScope::create(decoded.namespaces, decoded.labelSelector));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<RemoveFailedPods>(std::move(decoded), std::move(scope), handle));
}

}  // namespace koord::manager::descheduler::pod_lifecycle
