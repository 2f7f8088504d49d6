#include "manager/descheduler/plugins/node_rules/node_taints.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/taints.hpp"
#include "manager/descheduler/plugins/node_rules/args_util.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

namespace nodetaints_detail {

// The list names the taint's key, or "key=value" when the taint has a value.
bool namesTaint(const std::vector<std::string>& list, const api::core::Taint& taint) {
  auto has = [&list](const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  return has(taint.key) || (!taint.value.empty() && has(taint.key + "=" + taint.value));
}

}  // namespace nodetaints_detail

Result<RemovePodsViolatingNodeTaintsArgs> decodeRemovePodsViolatingNodeTaintsArgs(
    const nlohmann::json& json) {
  ArgsReader reader(json, "RemovePodsViolatingNodeTaintsArgs");
  KOORD_RETURN_IF_ERROR(reader.checkKeys({"namespaces", "labelSelector", "includePreferNoSchedule",
                                          "excludedTaints", "includedTaints"}));
  RemovePodsViolatingNodeTaintsArgs args;
  KOORD_RETURN_IF_ERROR(reader.readNamespaces("namespaces", args.namespaces));
  KOORD_RETURN_IF_ERROR(reader.read("labelSelector", args.label_selector));
  KOORD_RETURN_IF_ERROR(reader.read("includePreferNoSchedule", args.include_prefer_no_schedule));
  KOORD_RETURN_IF_ERROR(reader.read("excludedTaints", args.excluded_taints));
  KOORD_RETURN_IF_ERROR(reader.read("includedTaints", args.included_taints));
  KOORD_RETURN_IF_ERROR(
      validateNamespacesAndSelector(reader, args.namespaces, args.label_selector));
  if (!args.excluded_taints.empty() && args.included_taints && !args.included_taints->empty()) {
    return reader.invalid("either includedTaints or excludedTaints can be set, but not both");
  }
  return args;
}

bool RemovePodsViolatingNodeTaints::countsTaint(const api::core::Taint& taint) const {
  const bool effect =
      taint.effect == api::core::kTaintEffectNoSchedule ||
      (args_.include_prefer_no_schedule && taint.effect == api::core::kTaintEffectPreferNoSchedule);
  if (!effect || nodetaints_detail::namesTaint(args_.excluded_taints, taint))
    return false;
  return !args_.included_taints || nodetaints_detail::namesTaint(*args_.included_taints, taint);
}

Status RemovePodsViolatingNodeTaints::deschedule(const framework::NodeList& nodes) {
  if (handle_.snapshot == nullptr || handle_.evictor == nullptr) {
    return Status::failedPrecondition("RemovePodsViolatingNodeTaints: no snapshot or evictor");
  }
  auto counts = [this](const api::core::Taint& taint) { return countsTaint(taint); };
  for (const auto& node : nodes) {
    std::vector<framework::PodPtr> pods;
    for (const auto& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
      if (api::core::isPodTerminal(*pod))
        continue;
      if (passesPodFilter(*pod, args_.namespaces, args_.label_selector, *handle_.evictor)) {
        pods.push_back(pod);
      }
    }
    for (const auto& pod : pods) {
      if (!api::core::findUntoleratedTaint(node->spec.taints, pod->spec.tolerations, counts)) {
        continue;
      }
      framework::EvictOptions options{std::string(kRemovePodsViolatingNodeTaintsName), ""};
      if (!handle_.evictor->evict(*pod, options) && handle_.evictor->nodeLimitExceeded(*node)) {
        break;
      }
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemovePodsViolatingNodeTaints(
    const nlohmann::json& args, framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(auto decoded, decodeRemovePodsViolatingNodeTaintsArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<RemovePodsViolatingNodeTaints>(std::move(decoded), handle));
}

}  // namespace koord::manager::descheduler::plugins::node_rules
