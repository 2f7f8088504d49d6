#include "manager/descheduler/plugins/utilization/low_node_utilization.hpp"

#include <set>
#include <utility>

#include "manager/descheduler/plugins/utilization/eviction.hpp"
#include "manager/descheduler/plugins/utilization/node_usage.hpp"

namespace koord::manager::descheduler::utilization {

LowNodeUtilization::LowNodeUtilization(LowNodeUtilizationArgs args, framework::Handle& handle)
    : args_(std::move(args)), handle_(handle) {}

Status LowNodeUtilization::balance(const framework::NodeList& nodes) {
  const log::Logger& logger = handle_.logger;
  std::vector<std::string> threshold_names;
  for (const auto& [name, unused] : args_.thresholds)
    threshold_names.push_back(name);
  const std::vector<std::string> names = withBasicResources(args_.thresholds);

  std::vector<NodeUsage> usages;
  std::vector<Percentages> percentages;
  for (const auto& node : nodes) {
    usages.push_back(nodeUsage(*handle_.snapshot, node, names));
    const Usage& used = usages.back().usage;
    const Usage capacity = nodeCapacity(*node);
    percentages.push_back(args_.use_deviation_thresholds
                              ? usagePercentages(onlyResources(used, threshold_names), capacity)
                              : usagePercentages(used, capacity));
  }
  std::pair<Percentages, Percentages> bounds{args_.thresholds, args_.target_thresholds};
  if (args_.use_deviation_thresholds) {
    bounds = deviationThresholds(percentages, args_.thresholds, args_.target_thresholds);
  }
  const auto& [low, high] = bounds;

  std::vector<NodeInfo> low_nodes;
  std::vector<NodeInfo> high_nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& node = *nodes[i];
    if (!node.spec.unschedulable && isBelowThreshold(percentages[i], low)) {
      low_nodes.push_back(NodeInfo{usages[i], capCapacities(node, high, names)});
    } else if (isAboveThreshold(percentages[i], high)) {
      high_nodes.push_back(NodeInfo{usages[i], capCapacities(node, high, names)});
    }
  }
  logger.debug("nodes classified", {{"plugin", name()},
                                    {"underutilized", low_nodes.size()},
                                    {"overutilized", high_nodes.size()}});
  if (!worthBalancing(low_nodes.size(), nodes.size(), args_.number_of_nodes, logger)) {
    return Status::ok();
  }
  if (high_nodes.empty()) {
    logger.debug("all nodes are under target utilization, nothing to do here");
    return Status::ok();
  }

  sortNodesByUsage(high_nodes, /*ascending=*/false);
  EvictionRequest request;
  request.evictor = handle_.evictor;
  request.plugin = std::string(kLowNodeUtilizationName);
  framework::Evictor* evictor = handle_.evictor;
  request.candidate_filter = [evictor](const api::core::Pod& pod) { return evictor->filter(pod); };
  request.excluded_namespaces = {args_.exclude_namespaces.begin(), args_.exclude_namespaces.end()};
  request.resource_names = names;
  request.node_limit = args_.node_eviction_limit;
  request.keep_going = [](const NodeInfo& node, const Usage& total_available) {
    if (!isAboveTargetUtilization(node.usage.usage, node.available))
      return false;
    for (const auto& [unused, quantity] : total_available) {
      if (quantity.sign() <= 0)
        return false;
    }
    return true;
  };
  evictPodsFromSourceNodes(high_nodes, low_nodes, request, logger);
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createLowNodeUtilization(const nlohmann::json& args,
                                                                    framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(auto decoded, decodeLowNodeUtilizationArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<LowNodeUtilization>(std::move(decoded), handle));
}

}  // namespace koord::manager::descheduler::utilization
