#include "manager/descheduler/plugins/lownodeload/balance.hpp"

#include <algorithm>

#include "manager/descheduler/plugins/lownodeload/low_node_load.hpp"

namespace koord::manager::descheduler::lownodeload {

namespace lownodeload_balance_detail {

// Each target's headroom below its high (prod: prod high) thresholds, summed per resource.
Usage headroom(const std::vector<NodeInfo>& nodes, const std::vector<size_t>& targets,
               const std::vector<std::string>& names, bool prod) {
  Usage total;
  for (const std::string& name : names) {
    total[name] = 0;
  }
  for (size_t index : targets) {
    const NodeInfo& info = nodes[index];
    const Usage& limits = prod ? info.thresholds.prod_high : info.thresholds.high;
    const Usage& usage = prod ? info.prod_usage : info.usage;
    for (const std::string& name : names) {
      auto limit = limits.find(name);
      auto used = usage.find(name);
      total[name] +=
          (limit == limits.end() ? 0 : limit->second) - (used == usage.end() ? 0 : used->second);
    }
  }
  return total;
}

int64_t quantityOr0(const resource::ResourceList* metric, const std::string& name) {
  return metric == nullptr ? 0 : milliOf(resource::get(*metric, name));
}

// Some resource of `usage` is already above its limit.
bool aboveALimit(const Usage& usage, const Usage& limits) {
  for (const auto& [name, limit] : limits) {
    auto used = usage.find(name);
    if (used != usage.end() && used->second > limit) {
      return true;
    }
  }
  return false;
}

// Whether the targets' usage can only grow during one step: no target is also a source, and no
// pod metric of a source is negative. Then a target once above a limit stays above it, so every
// later check against it ends "exceeded" whatever nodeFit says, and what that check would add to
// its usage is never read again (a step reads a target's usage only in these checks).
bool targetUsageOnlyGrows(const PoolEviction& pass, const std::vector<size_t>& sources,
                          const std::vector<size_t>& targets) {
  std::vector<char> is_source(pass.nodes->size(), 0);
  for (size_t index : sources) {
    is_source[index] = 1;
  }
  for (size_t index : targets) {
    if (is_source[index] != 0) {
      return false;
    }
  }
  for (size_t index : sources) {
    for (const auto& [key, usage] : (*pass.nodes)[index].pod_metrics) {
      for (const auto& [name, quantity] : usage) {
        if (milliOf(quantity) < 0) {
          return false;
        }
      }
    }
  }
  return true;
}

// Koordinator's podFitsAnyNodeWithThreshold over the targets. `saturated` (empty: not used)
// marks the targets known to stay above a limit for the rest of the step; they are skipped, which
// gives the same answers without asking nodeFit (see targetUsageOnlyGrows).
bool podFitsAnyTarget(PoolEviction& pass, const api::core::Pod& pod,
                      const std::vector<size_t>& targets, bool prod,
                      const resource::ResourceList* metric, std::vector<char>& saturated) {
  const bool skip_saturated = !saturated.empty();
  framework::NodeList single(1);
  for (size_t index : targets) {
    NodeInfo& target = (*pass.nodes)[index];
    Usage& usage = prod ? target.prod_usage : target.usage;
    const Usage& limits = prod ? target.thresholds.prod_high : target.thresholds.high;
    if (skip_saturated) {
      if (saturated[index] != 0) {
        continue;
      }
      if (aboveALimit(usage, limits)) {
        saturated[index] = 1;
        continue;
      }
    }
    single.front() = target.node;
    if (pass.handle->pod_fits_any_other_node &&
        !pass.handle->pod_fits_any_other_node(pod, single)) {
      continue;
    }
    bool exceeded = false;
    for (const auto& [name, limit] : limits) {
      auto used = usage.find(name);
      if (used == usage.end()) {
        continue;
      }
      used->second += quantityOr0(metric, name);  // kept, as Koordinator does
      if (used->second > limit) {
        exceeded = true;
        break;
      }
    }
    if (!exceeded) {
      return true;
    }
    if (skip_saturated) {
      saturated[index] = 1;
    }
  }
  return false;
}

void evictPods(PoolEviction& pass, const std::vector<framework::PodPtr>& pods, NodeInfo& source,
               Usage& available, bool prod) {
  for (const framework::PodPtr& pod : pods) {
    if (!pass.continue_eviction(source, available, prod)) {
      return;
    }
    if (!pass.pod_filter(*pod)) {
      continue;
    }
    if (pass.dry_run) {
      pass.handle->logger.info("Evict pod in dry run mode", {{"pod", podKey(*pod)},
                                                             {"node", source.node->metadata.name},
                                                             {"nodePool", pass.pool_name}});
    } else {
      framework::EvictOptions options{std::string(kLowNodeLoadName),
                                      overutilizedReason(source, prod, *pass.thresholds)};
      if (!pass.handle->evictor->evict(*pod, options)) {
        continue;
      }
    }
    auto metric = source.pod_metrics.find(podKey(*pod));
    if (metric == source.pod_metrics.end()) {
      continue;
    }
    for (auto& [name, headroom] : available) {
      const int64_t quantity = name == "pods" ? 1000 : milliOf(resource::get(metric->second, name));
      headroom -= quantity;
      if (auto used = source.usage.find(name); used != source.usage.end()) {
        used->second -= quantity;
      }
      if (auto used = source.prod_usage.find(name); prod && used != source.prod_usage.end()) {
        used->second -= quantity;
      }
    }
  }
}

void balancePods(PoolEviction& pass, const std::vector<size_t>& sources,
                 const std::vector<size_t>& targets, Usage& available, bool prod) {
  std::vector<char> saturated;
  if (pass.node_fit && targetUsageOnlyGrows(pass, sources, targets)) {
    saturated.assign(pass.nodes->size(), 0);
  }
  for (size_t index : sources) {
    NodeInfo& source = (*pass.nodes)[index];
    std::vector<framework::PodPtr> removable;
    for (const framework::PodPtr& pod : prod ? source.prod_pods : source.all_pods) {
      if (!pass.pod_filter(*pod)) {
        continue;
      }
      if (pass.node_fit) {
        auto metric = source.pod_metrics.find(podKey(*pod));
        if (!podFitsAnyTarget(pass, *pod, targets, prod,
                              metric == source.pod_metrics.end() ? nullptr : &metric->second,
                              saturated)) {
          continue;
        }
      }
      removable.push_back(pod);
    }
    if (removable.empty()) {
      continue;
    }
    sortPodsOnOverloadedNode(source, removable, *pass.weights, prod);
    evictPods(pass, removable, source, available, prod);
  }
}

}  // namespace lownodeload_balance_detail

void evictPodsFromSourceNodes(PoolEviction& pass, const PoolNodes& nodes) {
  namespace d = lownodeload_balance_detail;
  const std::vector<std::string>& names = pass.thresholds->resource_names;
  const Usage low_headroom = d::headroom(*pass.nodes, nodes.low, names, false);
  const Usage prod_low_headroom = d::headroom(*pass.nodes, nodes.prod_low, names, true);
  Usage both_headroom = d::headroom(*pass.nodes, nodes.both_low, names, false);
  const Usage prod_both_headroom = d::headroom(*pass.nodes, nodes.both_low, names, true);

  Usage available;
  for (const std::string& name : names) {
    available[name] = low_headroom.at(name) + both_headroom.at(name);
  }
  std::vector<size_t> targets = nodes.low;
  targets.insert(targets.end(), nodes.both_low.begin(), nodes.both_low.end());
  d::balancePods(pass, nodes.sources, targets, available, false);

  // What the first step left of the both-low nodes is what the prod step may use of them.
  for (const std::string& name : names) {
    both_headroom[name] = std::min(both_headroom[name], available[name]);
  }
  Usage prod_available;
  for (const std::string& name : names) {
    prod_available[name] =
        prod_low_headroom.at(name) + std::min(prod_both_headroom.at(name), both_headroom.at(name));
  }
  std::vector<size_t> prod_targets = nodes.prod_low;
  prod_targets.insert(prod_targets.end(), nodes.both_low.begin(), nodes.both_low.end());
  d::balancePods(pass, nodes.prod_sources, prod_targets, prod_available, true);
}

}  // namespace koord::manager::descheduler::lownodeload
