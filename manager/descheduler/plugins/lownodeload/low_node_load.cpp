#include "manager/descheduler/plugins/lownodeload/low_node_load.hpp"

#include <algorithm>

#include "koord/api/core/selectors.hpp"
#include "manager/descheduler/plugins/lownodeload/balance.hpp"
#include "manager/descheduler/plugins/lownodeload/sorter.hpp"
#include "manager/descheduler/plugins/lownodeload/utilization.hpp"

namespace koord::manager::descheduler::lownodeload {

namespace lownodeload_plugin_detail {

// The pool's nodes: all of them without a selector; else the matching ones not yet processed.
framework::NodeList poolNodes(const NodePool& pool, const framework::NodeList& nodes,
                              const std::set<std::string>& processed) {
  if (!pool.node_selector) {
    return nodes;
  }
  framework::NodeList out;
  for (const framework::NodePtr& node : nodes) {
    if (processed.contains(node->metadata.name)) {
      continue;
    }
    const Result<bool> matches =
        api::core::matchesLabelSelector(*pool.node_selector, node->metadata.labels);
    if (matches.ok() && *matches) {
      out.push_back(node);
    }
  }
  return out;
}

void resetDetectors(const std::vector<NodeInfo>& nodes, const std::vector<size_t>& indexes,
                    DetectorCache& cache, TimePoint now) {
  for (size_t index : indexes) {
    if (AnomalyDetector* detector = cache.find(nodes[index].node->metadata.name, now)) {
      detector->reset();
    }
  }
}

void markNormal(const std::vector<NodeInfo>& nodes, const std::vector<size_t>& indexes,
                DetectorCache& cache, TimePoint now) {
  for (size_t index : indexes) {
    if (AnomalyDetector* detector = cache.find(nodes[index].node->metadata.name, now)) {
      detector->mark(true, now);
    }
  }
}

// The sources whose detector says they have been abnormal long enough (each is marked abnormal).
std::vector<size_t> abnormalNodes(const std::vector<NodeInfo>& nodes,
                                  const std::vector<size_t>& sources, DetectorCache& cache,
                                  const std::optional<config::LoadAnomalyCondition>& condition,
                                  TimePoint now) {
  if (!condition || condition->consecutive_abnormalities == 1) {
    return sources;
  }
  std::vector<size_t> out;
  for (size_t index : sources) {
    const std::string& name = nodes[index].node->metadata.name;
    AnomalyDetector* found = cache.find(name, now);
    AnomalyDetector detector =
        found != nullptr ? *found
                         : AnomalyDetector(condition->timeout, condition->consecutive_abnormalities,
                                           condition->consecutive_normalities);
    if (detector.mark(false, now) == AnomalyState::kAnomaly) {
      out.push_back(index);
    }
    cache.store(name, detector, now);
  }
  return out;
}

}  // namespace lownodeload_plugin_detail

LowNodeLoad::LowNodeLoad(LowNodeLoadSettings settings, framework::Handle& handle)
    : settings_(std::move(settings)),
      handle_(handle),
      node_detectors_(settings_.args.detector_cache_timeout),
      prod_detectors_(settings_.args.detector_cache_timeout) {}

Status LowNodeLoad::balance(const framework::NodeList& nodes) {
  if (settings_.args.paused) {
    handle_.logger.info("LowNodeLoad is paused and will do nothing.");
    return Status::ok();
  }
  std::set<std::string> processed;
  for (const NodePool& pool : settings_.pools) {
    processPool(pool, nodes, processed);
  }
  return Status::ok();
}

bool LowNodeLoad::podFilter(const api::core::Pod& pod) const {
  if (const auto& namespaces = settings_.args.evictable_namespaces) {
    const std::string& ns = pod.metadata.namespace_;
    if (!namespaces->include.empty() &&
        std::find(namespaces->include.begin(), namespaces->include.end(), ns) ==
            namespaces->include.end()) {
      return false;
    }
    if (std::find(namespaces->exclude.begin(), namespaces->exclude.end(), ns) !=
        namespaces->exclude.end()) {
      return false;
    }
  }
  if (!handle_.evictor->filter(pod)) {
    return false;
  }
  bool any_selector = false;
  for (const config::LowNodeLoadPodSelector& selector : settings_.args.pod_selectors) {
    if (!selector.selector) {
      continue;
    }
    any_selector = true;
    const Result<bool> matches =
        api::core::matchesLabelSelector(*selector.selector, pod.metadata.labels);
    if (matches.ok() && *matches) {
      return true;
    }
  }
  return !any_selector;
}

void LowNodeLoad::processPool(const NodePool& pool, const framework::NodeList& all_nodes,
                              std::set<std::string>& processed) {
  namespace d = lownodeload_plugin_detail;
  const TimePoint now = handle_.now;
  const framework::NodeList nodes = d::poolNodes(pool, all_nodes, processed);
  if (nodes.empty()) {
    return;
  }
  const PoolThresholds thresholds = poolThresholds(pool);
  std::vector<NodeInfo> infos = nodeUsages(nodes, thresholds.resource_names, *handle_.snapshot,
                                           settings_.args.node_metric_expiration_seconds, now);
  setNodeThresholds(infos, thresholds, pool.use_deviation_thresholds);
  const Classification classes = classifyNodes(infos);
  handle_.logger.debug("LowNodeLoad node pool classified",
                       {{"nodePool", pool.name},
                        {"lowNodes", classes.low.size()},
                        {"highNodes", classes.high.size()},
                        {"prodLowNodes", classes.prod_low.size()},
                        {"prodHighNodes", classes.prod_high.size()},
                        {"bothLowNodes", classes.both_low.size()},
                        {"totalNodes", nodes.size()}});
  if (classes.high.empty() && classes.prod_high.empty()) {
    return;
  }
  PoolNodes pool_nodes;
  pool_nodes.sources =
      d::abnormalNodes(infos, classes.high, node_detectors_, pool.anomaly_condition, now);
  pool_nodes.prod_sources =
      d::abnormalNodes(infos, classes.prod_high, prod_detectors_, pool.anomaly_condition, now);
  if (pool_nodes.sources.empty() && pool_nodes.prod_sources.empty()) {
    return;
  }
  if (classes.low.empty() && classes.prod_low.empty() && classes.both_low.empty()) {
    return;
  }
  d::resetDetectors(infos, classes.low, node_detectors_, now);
  d::resetDetectors(infos, classes.prod_low, prod_detectors_, now);
  d::resetDetectors(infos, classes.both_low, node_detectors_, now);
  const size_t all_low = classes.low.size() + classes.prod_low.size() + classes.both_low.size();
  if (static_cast<int64_t>(all_low) <= settings_.args.number_of_nodes) {
    return;
  }
  if (all_low == nodes.size()) {
    return;
  }

  sortNodesByUsage(pool_nodes.sources, infos, pool.resource_weights, false);
  sortNodesByUsage(pool_nodes.prod_sources, infos, pool.resource_weights, true);
  pool_nodes.low = classes.low;
  pool_nodes.prod_low = classes.prod_low;
  pool_nodes.both_low = classes.both_low;

  PoolEviction pass;
  pass.pool_name = pool.name;
  pass.nodes = &infos;
  pass.thresholds = &thresholds;
  pass.weights = &pool.resource_weights;
  pass.dry_run = settings_.args.dry_run;
  pass.node_fit = settings_.args.node_fit;
  pass.handle = &handle_;
  pass.pod_filter = [this](const api::core::Pod& pod) { return podFilter(pod); };
  pass.continue_eviction = [this, &thresholds, now](NodeInfo& node, const Usage& available,
                                                    bool prod) {
    const Usage& usage = prod ? node.prod_usage : node.usage;
    const Usage& limits = prod ? node.thresholds.prod_high : node.thresholds.high;
    if (overutilizedResources(usage, limits).empty()) {
      DetectorCache& cache = prod ? prod_detectors_ : node_detectors_;
      if (AnomalyDetector* detector = cache.find(node.node->metadata.name, now)) {
        detector->reset();
      }
      return false;
    }
    for (const std::string& name : thresholds.resource_names) {
      auto headroom = available.find(name);
      if (headroom != available.end() && headroom->second <= 0) {
        return false;
      }
    }
    return true;
  };
  evictPodsFromSourceNodes(pass, pool_nodes);

  d::markNormal(infos, pool_nodes.sources, node_detectors_, now);
  d::markNormal(infos, pool_nodes.prod_sources, prod_detectors_, now);
  for (size_t index : classes.high) {
    processed.insert(infos[index].node->metadata.name);
  }
}

Result<std::unique_ptr<framework::Plugin>> createLowNodeLoad(const nlohmann::json& args,
                                                             framework::Handle& handle) {
  Result<LowNodeLoadSettings> settings = decodeLowNodeLoadSettings(args);
  if (!settings.ok()) {
    return settings.status();
  }
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<LowNodeLoad>(std::move(settings).value(), handle));
}

}  // namespace koord::manager::descheduler::lownodeload
