#include "manager/descheduler/plugins/pod_lifecycle/too_many_restarts.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/codec.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

namespace too_many_restarts_detail {

constexpr std::string_view kArgsName = "RemovePodsHavingTooManyRestartsArgs";

std::string path(std::string_view key) {
  return api::childPath(std::string(kArgsName), key);
}

// Go adds int32 restart counts with wrap-around; so do we (through uint32).
int32_t sumRestarts(const std::vector<ContainerStatusFacts>& statuses, int32_t start) {
  auto total = static_cast<uint32_t>(start);
  for (const ContainerStatusFacts& cs : statuses) {
    total += static_cast<uint32_t>(cs.restart_count);
  }
  return static_cast<int32_t>(total);
}

}  // namespace too_many_restarts_detail

Result<RemovePodsHavingTooManyRestartsArgs> decodeRemovePodsHavingTooManyRestartsArgs(
    const nlohmann::json& args) {
  namespace d = too_many_restarts_detail;
  RemovePodsHavingTooManyRestartsArgs out;
  if (!args.is_null()) {
    if (Status st = checkKnownKeys(args, std::string(d::kArgsName),
                                   {"namespaces", "labelSelector", "podRestartThreshold",
                                    "includingInitContainers", "states"},
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
      st = decodeInt32(member(args, "podRestartThreshold"), d::path("podRestartThreshold"),
                       out.podRestartThreshold);
    }
    if (st.isOk()) {
      st = decodeBool(member(args, "includingInitContainers"), d::path("includingInitContainers"),
                      out.includingInitContainers);
    }
    if (st.isOk()) {
      st = decodeStrings(member(args, "states"), d::path("states"), out.states);
    }
    if (!st.isOk()) {
      return st;
    }
  }
  if (Status valid = validateRemovePodsHavingTooManyRestartsArgs(out); !valid.isOk()) {
    return valid;
  }
  return out;
}

Status validateRemovePodsHavingTooManyRestartsArgs(
    const RemovePodsHavingTooManyRestartsArgs& args) {
  namespace d = too_many_restarts_detail;
  ErrorList errors;
  validateNamespacesAndSelector(d::kArgsName, args.namespaces, args.labelSelector, errors);
  if (args.podRestartThreshold < 1) {
    errors.add(d::path("podRestartThreshold") + ": invalid PodsHavingTooManyRestarts threshold");
  }
  bool states_ok = std::all_of(args.states.begin(), args.states.end(), [](const std::string& s) {
    return s == "Running" || s == "CrashLoopBackOff";
  });
  if (!states_ok) {
    errors.add(d::path("states") + ": states must be one of [CrashLoopBackOff Running]");
  }
  return errors.toStatus();
}

int32_t podTotalRestarts(const api::core::Pod& pod, bool including_init_containers) {
  namespace d = too_many_restarts_detail;
  int32_t total = d::sumRestarts(containerStatuses(pod, ContainerKind::kRegular), 0);
  if (including_init_containers) {
    total = d::sumRestarts(containerStatuses(pod, ContainerKind::kInit), total);
  }
  return total;
}

RemovePodsHavingTooManyRestarts::RemovePodsHavingTooManyRestarts(
    RemovePodsHavingTooManyRestartsArgs args, PodScope scope, framework::Handle& handle)
    : args_(std::move(args)), scope_(std::move(scope)), handle_(handle) {}

bool RemovePodsHavingTooManyRestarts::inStates(const api::core::Pod& pod) const {
  if (args_.states.empty() || contains(args_.states, pod.status.phase)) {
    return true;
  }
  if (hasWaitingReasonIn(containerStatuses(pod, ContainerKind::kRegular), args_.states)) {
    return true;
  }
  return args_.includingInitContainers &&
         hasWaitingReasonIn(containerStatuses(pod, ContainerKind::kInit), args_.states);
}

bool RemovePodsHavingTooManyRestarts::selects(const api::core::Pod& pod) const {
  // The community's filter order: namespaces and labels, the evictor, the threshold, the states.
  return scope_.matches(pod) && handle_.evictor->filter(pod) &&
         handle_.evictor->preEvictionFilter(pod) &&
         podTotalRestarts(pod, args_.includingInitContainers) >= args_.podRestartThreshold &&
         inStates(pod);
}

Status RemovePodsHavingTooManyRestarts::deschedule(const framework::NodeList& nodes) {
  if (handle_.snapshot == nullptr || handle_.evictor == nullptr) {
    return Status::failedPrecondition(
        "RemovePodsHavingTooManyRestarts: the handle has no snapshot or evictor");
  }
  for (const auto& node : nodes) {
    std::vector<std::pair<framework::PodPtr, int32_t>> victims;
    for (const framework::PodPtr& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
      if (selects(*pod)) {
        victims.emplace_back(pod, podTotalRestarts(*pod, args_.includingInitContainers));
      }
    }
    // Most restarts first; a stable sort for ties (the community's listing order is undefined).
    std::stable_sort(victims.begin(), victims.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [pod, restarts] : victims) {
      framework::EvictOptions options{std::string(kRemovePodsHavingTooManyRestartsName), ""};
      if (!handle_.evictor->evict(*pod, options) && handle_.evictor->nodeLimitExceeded(*node)) {
        break;
      }
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemovePodsHavingTooManyRestarts(
    const nlohmann::json& args, framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(RemovePodsHavingTooManyRestartsArgs decoded,
                         decodeRemovePodsHavingTooManyRestartsArgs(args));
  KOORD_ASSIGN_OR_RETURN(PodScope scope,
                         PodScope::create(decoded.namespaces, decoded.labelSelector));
  return std::unique_ptr<framework::Plugin>(std::make_unique<RemovePodsHavingTooManyRestarts>(
      std::move(decoded), std::move(scope), handle));
}

}  // namespace koord::manager::descheduler::pod_lifecycle
