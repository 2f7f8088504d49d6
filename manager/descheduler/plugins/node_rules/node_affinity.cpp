#include "manager/descheduler/plugins/node_rules/node_affinity.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/selectors.hpp"
#include "manager/descheduler/framework/node_fit.hpp"
#include "manager/descheduler/plugins/node_rules/args_util.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

namespace nodeaffinity_detail {

constexpr std::string_view kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
constexpr std::string_view kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";

const api::core::NodeAffinity* nodeAffinityOf(const api::core::Pod& pod) {
  if (!pod.spec.affinity || !pod.spec.affinity->nodeAffinity)
    return nullptr;
  return &*pod.spec.affinity->nodeAffinity;
}

// The summed weight of the pod's preferred terms the node matches (a bad term counts nothing).
int64_t preferredWeight(const api::core::Pod& pod, const api::core::Node& node) {
  const auto* affinity = nodeAffinityOf(pod);
  if (affinity == nullptr)
    return 0;
  int64_t sum = 0;
  for (const auto& term : affinity->preferred) {
    auto matches = api::core::matchesNodeSelectorTerm(term.preference, node);
    if (matches.ok() && *matches)
      sum += term.weight;
  }
  return sum;
}

// GetBestNodeWeightGivenPodPreferredAffinity(pod, nodes) > own, without scanning the nodes when
// the answer is known: the best weight is at least 0, and no node can weigh more than the sum of
// the positive weights.
bool someNodeWeighsMore(const api::core::Pod& pod, int64_t own, const framework::NodeList& nodes) {
  if (own < 0)
    return true;
  int64_t most = 0;
  for (const auto& term : nodeAffinityOf(pod)->preferred)
    most += std::max<int64_t>(term.weight, 0);
  if (own >= most)
    return false;
  return std::any_of(nodes.begin(), nodes.end(), [&](const framework::NodePtr& candidate) {
    return preferredWeight(pod, *candidate) > own;
  });
}

}  // namespace nodeaffinity_detail

namespace nad = nodeaffinity_detail;

Result<RemovePodsViolatingNodeAffinityArgs> decodeRemovePodsViolatingNodeAffinityArgs(
    const nlohmann::json& json) {
  ArgsReader reader(json, "RemovePodsViolatingNodeAffinityArgs");
  KOORD_RETURN_IF_ERROR(reader.checkKeys({"namespaces", "labelSelector", "nodeAffinityType"}));
  RemovePodsViolatingNodeAffinityArgs args;
  KOORD_RETURN_IF_ERROR(reader.readNamespaces("namespaces", args.namespaces));
  KOORD_RETURN_IF_ERROR(reader.read("labelSelector", args.label_selector));
  KOORD_RETURN_IF_ERROR(reader.read("nodeAffinityType", args.node_affinity_type));
  if (args.node_affinity_type.empty()) {
    return reader.invalid("nodeAffinityType needs to be set");
  }
  KOORD_RETURN_IF_ERROR(
      validateNamespacesAndSelector(reader, args.namespaces, args.label_selector));
  return args;
}

// The community's conditions are ANDed pure checks; the cheap node-local ones go first, so that
// the checks over every node of the pass (podFitsAnyNode, the best preferred weight) run only for
// pods that would otherwise be evicted. The answers are the same.
bool RemovePodsViolatingNodeAffinity::violates(Kind kind, const api::core::Pod& pod,
                                               const api::core::Node& node,
                                               const framework::NodeList& nodes) const {
  const auto* affinity = nad::nodeAffinityOf(pod);
  const auto& snapshot = *handle_.snapshot;
  if (kind == Kind::kRequired) {
    if (affinity == nullptr || !affinity->required)
      return false;
    auto matches = api::core::matchesRequiredNodeAffinity(pod, node);
    if (matches.ok() && *matches)
      return false;
    return handle_.evictor->filter(pod) && framework::podFitsAnyNode(pod, nodes, snapshot);
  }
  if (affinity == nullptr || affinity->preferred.empty())
    return false;
  if (!nad::someNodeWeighsMore(pod, nad::preferredWeight(pod, node), nodes))
    return false;
  return handle_.evictor->filter(pod) && framework::podFitsAnyNode(pod, nodes, snapshot);
}

void RemovePodsViolatingNodeAffinity::processNodes(Kind kind, const framework::NodeList& nodes) {
  for (const auto& node : nodes) {
    std::vector<framework::PodPtr> victims;
    for (const auto& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
      if (api::core::isPodTerminal(*pod))
        continue;
      if (!passesPodFilter(*pod, args_.namespaces, args_.label_selector, *handle_.evictor)) {
        continue;
      }
      if (violates(kind, *pod, *node, nodes))
        victims.push_back(pod);
    }
    for (const auto& pod : victims) {
      framework::EvictOptions options{std::string(kRemovePodsViolatingNodeAffinityName), ""};
      if (!handle_.evictor->evict(*pod, options) && handle_.evictor->nodeLimitExceeded(*node)) {
        break;
      }
    }
  }
}

Status RemovePodsViolatingNodeAffinity::deschedule(const framework::NodeList& nodes) {
  if (handle_.snapshot == nullptr || handle_.evictor == nullptr) {
    return Status::failedPrecondition("RemovePodsViolatingNodeAffinity: no snapshot or evictor");
  }
  for (const auto& type : args_.node_affinity_type) {
    if (type == nad::kRequired) {
      processNodes(Kind::kRequired, nodes);
    } else if (type == nad::kPreferred) {
      processNodes(Kind::kPreferred, nodes);
    } else {
      handle_.logger.error("Invalid nodeAffinityType", {{"nodeAffinity", type}});
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemovePodsViolatingNodeAffinity(
    const nlohmann::json& args, framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(auto decoded, decodeRemovePodsViolatingNodeAffinityArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<RemovePodsViolatingNodeAffinity>(std::move(decoded), handle));
}

}  // namespace koord::manager::descheduler::plugins::node_rules
