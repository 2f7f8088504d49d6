#include "manager/descheduler/plugins/utilization/high_node_utilization.hpp"

#include <algorithm>
#include <utility>

#include "manager/descheduler/plugins/utilization/eviction.hpp"
#include "manager/descheduler/plugins/utilization/node_usage.hpp"

namespace koord::manager::descheduler::utilization {

HighNodeUtilization::HighNodeUtilization(HighNodeUtilizationArgs args, framework::Handle& handle)
    : args_(std::move(args)), handle_(handle) {}

Status HighNodeUtilization::balance(const framework::NodeList& nodes) {
  const log::Logger& logger = handle_.logger;
  std::vector<std::string> threshold_names;
  ResourceThresholds full;
  for (const auto& [name, unused] : args_.thresholds) {
    threshold_names.push_back(name);
    full[name] = kMaxResourcePercentage;
  }
  const std::vector<std::string> names = withBasicResources(args_.thresholds);

  std::vector<NodeInfo> low_nodes;
  std::vector<NodeInfo> schedulable_nodes;
  for (const auto& node : nodes) {
    NodeUsage usage = nodeUsage(*handle_.snapshot, node, names);
    const Percentages percent = usagePercentages(usage.usage, nodeCapacity(*node));
    if (isBelowThreshold(percent, args_.thresholds)) {
      low_nodes.push_back(NodeInfo{std::move(usage), capCapacities(*node, full, names)});
    } else if (!node->spec.unschedulable) {
      schedulable_nodes.push_back(NodeInfo{std::move(usage), capCapacities(*node, full, names)});
    }
  }
  logger.debug("nodes classified", {{"plugin", name()},
                                    {"underutilized", low_nodes.size()},
                                    {"schedulable", schedulable_nodes.size()}});
  if (!worthBalancing(low_nodes.size(), nodes.size(), args_.number_of_nodes, logger)) {
    return Status::ok();
  }
  if (schedulable_nodes.empty()) {
    logger.debug("no node is available to schedule the pods, nothing to do here");
    return Status::ok();
  }

  sortNodesByUsage(low_nodes, /*ascending=*/true);
  EvictionRequest request;
  request.evictor = handle_.evictor;
  request.plugin = std::string(kHighNodeUtilizationName);
  framework::Evictor* evictor = handle_.evictor;
  const bool only_thresholding =
      std::find(args_.eviction_modes.begin(), args_.eviction_modes.end(),
                kEvictionModeOnlyThresholdingResources) != args_.eviction_modes.end();
  request.candidate_filter = [evictor, only_thresholding,
                              threshold_names](const api::core::Pod& pod) {
    if (!evictor->filter(pod))
      return false;
    return !only_thresholding || requestsAnyOf(pod, threshold_names);
  };
  request.excluded_namespaces = {args_.exclude_namespaces.begin(), args_.exclude_namespaces.end()};
  request.resource_names = names;
  request.keep_going = [](const NodeInfo&, const Usage& total_available) {
    for (const auto& [unused, quantity] : total_available) {
      if (quantity.sign() <= 0)
        return false;
    }
    return true;
  };
  evictPodsFromSourceNodes(low_nodes, schedulable_nodes, request, logger);
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createHighNodeUtilization(const nlohmann::json& args,
                                                                     framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(auto decoded, decodeHighNodeUtilizationArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<HighNodeUtilization>(std::move(decoded), handle));
}

}  // namespace koord::manager::descheduler::utilization
