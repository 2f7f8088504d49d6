#include "manager/descheduler/plugins/utilization/node_usage.hpp"

#include <algorithm>
#include <set>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::manager::descheduler::utilization {

namespace nodeusage_detail {

using resource::Quantity;
using resource::QuantityFormat;

Quantity plus(const Quantity& a, const Quantity& b) {
  return a.add(b).valueOr(a);
}

// Go's Value() for everything but cpu, which counts in millicores.
int64_t scaled(const std::string& name, const Quantity& q) {
  return name == kResourceCpu ? q.milliValue() : q.value();
}

double clampPercent(double v) {
  return std::min(std::max(v, 0.0), 100.0);
}

}  // namespace nodeusage_detail

std::vector<std::string> withBasicResources(const ResourceThresholds& thresholds) {
  std::set<std::string> names = {kResourceCpu, kResourceMemory, kResourcePods};
  for (const auto& [name, unused] : thresholds)
    names.insert(name);
  return {names.begin(), names.end()};
}

Usage podUsage(const api::core::Pod& pod, const std::vector<std::string>& names) {
  const auto requests = api::core::podRequests(pod).valueOr({});
  Usage usage;
  for (const auto& name : names)
    usage[name] = resource::get(requests, name);
  return usage;
}

NodeUsage nodeUsage(const framework::ClusterSnapshot& snapshot, const framework::NodePtr& node,
                    const std::vector<std::string>& names) {
  NodeUsage out;
  out.node = node;
  for (const auto& pod : snapshot.podsOnNode(node->metadata.name)) {
    if (api::core::isPodTerminal(*pod))
      continue;
    out.pods.push_back(pod);
  }
  for (const auto& name : names) {
    if (name == kResourcePods) {
      out.usage[name] = resource::Quantity::fromInt(static_cast<int64_t>(out.pods.size()));
    } else {
      out.usage[name] = resource::Quantity();
    }
  }
  for (const auto& pod : out.pods) {
    const auto requests = api::core::podRequests(*pod).valueOr({});
    for (const auto& name : names) {
      auto it = requests.find(name);
      if (it == requests.end() || name == kResourcePods)
        continue;
      out.usage[name] = nodeusage_detail::plus(out.usage[name], it->second);
    }
  }
  return out;
}

Usage nodeCapacity(const api::core::Node& node) {
  const auto& source =
      node.status.allocatable.empty() ? node.status.capacity : node.status.allocatable;
  Usage capacity(source.begin(), source.end());
  capacity[kMetricResource] = resource::Quantity::fromInt(100);
  return capacity;
}

Percentages usagePercentages(const Usage& usage, const Usage& capacity) {
  Percentages out;
  for (const auto& [name, used] : usage) {
    auto total = capacity.find(name);
    if (total == capacity.end())
      continue;
    const int64_t u = nodeusage_detail::scaled(name, used);
    const int64_t c = nodeusage_detail::scaled(name, total->second);
    out[name] = c > 0 ? static_cast<double>(u) / static_cast<double>(c) * 100 : 0.0;
  }
  return out;
}

Usage onlyResources(const Usage& usage, const std::vector<std::string>& names) {
  Usage out;
  for (const auto& name : names) {
    auto it = usage.find(name);
    if (it != usage.end())
      out[name] = it->second;
  }
  return out;
}

std::pair<Percentages, Percentages> deviationThresholds(const std::vector<Percentages>& usages,
                                                        const ResourceThresholds& low,
                                                        const ResourceThresholds& high) {
  Percentages average;
  std::map<std::string, int> counter;
  for (const auto& usage : usages) {
    for (const auto& [name, value] : usage) {
      average[name] += value;
      ++counter[name];
    }
  }
  Percentages lower;
  Percentages higher;
  for (auto& [name, value] : average) {
    value /= counter[name];
    auto l = low.find(name);
    auto h = high.find(name);
    lower[name] = nodeusage_detail::clampPercent(value - (l == low.end() ? 0.0 : l->second));
    higher[name] = nodeusage_detail::clampPercent(value + (h == high.end() ? 0.0 : h->second));
  }
  return {lower, higher};
}

Usage capCapacities(const api::core::Node& node, const ResourceThresholds& threshold,
                    const std::vector<std::string>& names) {
  using nodeusage_detail::QuantityFormat;
  const Usage capacity = nodeCapacity(node);
  Usage out;
  for (const auto& name : names) {
    auto cap = capacity.find(name);
    if (cap == capacity.end()) {
      out[name] = resource::Quantity();
      continue;
    }
    auto pct = threshold.find(name);
    if (pct == threshold.end()) {
      out[name] = cap->second;
      continue;
    }
    const auto format =
        name == kResourceMemory ? QuantityFormat::kBinarySI : QuantityFormat::kDecimalSI;
    const int64_t amount = nodeusage_detail::scaled(name, cap->second);
    const auto capped = static_cast<int64_t>(pct->second * 0.01 * static_cast<double>(amount));
    out[name] = name == kResourceCpu ? resource::Quantity::fromMilli(capped, format)
                                     : resource::Quantity::fromInt(capped, format);
  }
  return out;
}

bool isBelowThreshold(const Percentages& usage, const ResourceThresholds& threshold) {
  for (const auto& [name, limit] : threshold) {
    auto it = usage.find(name);
    if (limit < (it == usage.end() ? 0.0 : it->second))
      return false;
  }
  return true;
}

bool isAboveThreshold(const Percentages& usage, const ResourceThresholds& threshold) {
  for (const auto& [name, limit] : threshold) {
    auto it = usage.find(name);
    if (limit < (it == usage.end() ? 0.0 : it->second))
      return true;
  }
  return false;
}

bool isAboveTargetUtilization(const Usage& usage, const Usage& available) {
  for (const auto& [name, used] : usage) {
    auto it = available.find(name);
    const resource::Quantity limit = it == available.end() ? resource::Quantity() : it->second;
    if (limit < used)
      return true;
  }
  return false;
}

int64_t usageSortKey(const Usage& usage) {
  int64_t total = 0;
  for (const auto& [name, quantity] : usage)
    total += nodeusage_detail::scaled(name, quantity);
  return total;
}

bool worthBalancing(size_t underutilized, size_t nodes, int64_t number_of_nodes,
                    const log::Logger& logger) {
  if (underutilized == 0) {
    logger.debug("no node is underutilized, nothing to do here");
    return false;
  }
  if (static_cast<int64_t>(underutilized) <= number_of_nodes) {
    logger.debug("number of underutilized nodes is at most numberOfNodes, nothing to do here");
    return false;
  }
  if (underutilized == nodes) {
    logger.debug("all nodes are underutilized, nothing to do here");
    return false;
  }
  return true;
}

}  // namespace koord::manager::descheduler::utilization
