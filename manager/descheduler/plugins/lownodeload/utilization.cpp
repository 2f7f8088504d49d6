#include "manager/descheduler/plugins/lownodeload/utilization.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::descheduler::lownodeload {

namespace lownodeload_usage_detail {

constexpr double kMaxPercent = 100;
constexpr double kMinPercent = 0;
constexpr int64_t kMilli = 1000;

double normalize(double percent) {
  return std::clamp(percent, kMinPercent, kMaxPercent);
}

double percentOr0(const config::ResourceThresholds& thresholds, const std::string& name) {
  auto it = thresholds.find(name);
  return it == thresholds.end() ? 0 : it->second;
}

int64_t capacityMilli(const NodeInfo& info, const std::string& name) {
  return milliOf(resource::get(info.node->status.allocatable, name));
}

// Koordinator's resourceThreshold: a fraction of allocatable, truncated to millicores for cpu and
// to whole units otherwise.
int64_t threshold(const NodeInfo& info, const std::string& name, double percent) {
  const resource::Quantity capacity = resource::get(info.node->status.allocatable, name);
  if (name == api::kResourceCPU) {
    return static_cast<int64_t>(percent * 0.01 * static_cast<double>(capacity.milliValue()));
  }
  return static_cast<int64_t>(percent * 0.01 * static_cast<double>(capacity.value())) * kMilli;
}

int64_t valueOr0(const Usage& usage, std::string_view name) {
  auto it = usage.find(name);
  return it == usage.end() ? 0 : it->second;
}

// The average usage percent per resource over the pool's nodes (Koordinator's
// calcAverageResourceUsagePercent).
config::ResourceThresholds averagePercent(const std::vector<NodeInfo>& nodes, bool prod) {
  config::ResourceThresholds sums;
  for (const NodeInfo& info : nodes) {
    for (const auto& [name, used] : prod ? info.prod_usage : info.usage) {
      const resource::Quantity total = resource::get(info.node->status.allocatable, name);
      if (total.isZero()) {
        continue;
      }
      sums[name] += static_cast<double>(scoreValue(name, used)) /
                    static_cast<double>(scoreValue(name, milliOf(total))) * 100.0;
    }
  }
  for (auto& entry : sums) {
    entry.second /= static_cast<double>(nodes.size());
  }
  return sums;
}

}  // namespace lownodeload_usage_detail

int64_t milliOf(const resource::Quantity& q) {
  return q.milliValue();
}

int64_t scoreValue(std::string_view resource, int64_t milli) {
  if (resource == api::kResourceCPU) {
    return milli;
  }
  // Whole units rounded away from zero, as Quantity.Value().
  const int64_t whole = milli / lownodeload_usage_detail::kMilli;
  const int64_t rest = milli % lownodeload_usage_detail::kMilli;
  return rest > 0 ? whole + 1 : (rest < 0 ? whole - 1 : whole);
}

std::string podKey(const api::core::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

api::PriorityClass priorityClassWithDefault(const api::core::Pod& pod) {
  api::PriorityClass priority = api::PriorityClass::kNone;
  auto label = pod.metadata.labels.find(std::string(api::kLabelPodPriorityClass));
  if (label != pod.metadata.labels.end()) {
    priority = api::parsePriorityClass(label->second);
  } else {
    priority = api::priorityClassOfValue(pod.spec.priority);
  }
  if (priority != api::PriorityClass::kNone) {
    return priority;
  }
  switch (api::qosClassWithDefault(pod.metadata.labels,
                                   api::core::qosClassName(api::core::podQosClass(pod)))) {
    case api::QoSClass::kSystem:
    case api::QoSClass::kLSE:
    case api::QoSClass::kLSR:
    case api::QoSClass::kLS:
      return api::PriorityClass::kProd;
    case api::QoSClass::kBE:
      return api::PriorityClass::kBatch;
    case api::QoSClass::kNone:
      break;
  }
  return api::PriorityClass::kNone;
}

bool isProdPod(const api::core::Pod& pod) {
  return priorityClassWithDefault(pod) == api::PriorityClass::kProd;
}

PoolThresholds poolThresholds(const NodePool& pool) {
  PoolThresholds out{pool.low_thresholds,
                     pool.high_thresholds,
                     pool.prod_low_thresholds,
                     pool.prod_high_thresholds,
                     {}};
  std::set<std::string> names = {std::string(api::kResourceMemory)};
  for (const config::ResourceThresholds* thresholds :
       {&pool.low_thresholds, &pool.high_thresholds, &pool.prod_low_thresholds,
        &pool.prod_high_thresholds}) {
    for (const auto& entry : *thresholds) {
      names.insert(entry.first);
    }
  }
  const double fill = pool.use_deviation_thresholds ? lownodeload_usage_detail::kMinPercent
                                                    : lownodeload_usage_detail::kMaxPercent;
  for (const std::string& name : names) {
    if (!out.low.contains(name)) {
      out.low[name] = fill;
      out.high[name] = fill;
    }
    if (!out.prod_low.contains(name)) {
      out.prod_low[name] = fill;
      out.prod_high[name] = fill;
    }
  }
  for (const auto& entry : out.low) {
    out.resource_names.push_back(entry.first);
  }
  return out;
}

std::vector<NodeInfo> nodeUsages(const framework::NodeList& nodes,
                                 const std::vector<std::string>& resource_names,
                                 const framework::ClusterSnapshot& snapshot,
                                 int64_t expiration_seconds,
                                 std::chrono::system_clock::time_point now) {
  std::vector<NodeInfo> out;
  for (const framework::NodePtr& node : nodes) {
    NodeInfo info;
    info.node = node;
    std::set<std::string, std::less<>> prod_keys;
    for (const framework::PodPtr& pod : snapshot.podsOnNode(node->metadata.name)) {
      if (api::core::isPodTerminal(*pod)) {
        continue;
      }
      info.all_pods.push_back(pod);
      if (isProdPod(*pod)) {
        info.prod_pods.push_back(pod);
        prod_keys.insert(podKey(*pod));
      }
    }
    const framework::NodeMetricPtr metric = snapshot.nodeMetric(node->metadata.name);
    if (!metric || !metric->status.nodeMetric) {
      continue;
    }
    if (!metric->status.updateTime) {
      continue;
    }
    const auto updated = api::core::parseTime(*metric->status.updateTime);
    if (!updated.ok() || now - *updated >= std::chrono::seconds(expiration_seconds)) {
      continue;
    }
    const api::slo::NodeMetricStatus& status = metric->status;
    for (const std::string& name : resource_names) {
      int64_t used = milliOf(resource::get(status.nodeMetric->systemUsage.resources, name));
      int64_t prod_used = 0;
      for (const api::slo::PodMetricInfo& pod : status.podsMetric) {
        const int64_t pod_used = milliOf(resource::get(pod.podUsage.resources, name));
        used += pod_used;
        if (prod_keys.contains(pod.namespace_ + "/" + pod.name)) {
          prod_used += pod_used;
        }
      }
      info.usage[name] = used;
      info.prod_usage[name] = prod_used;
    }
    info.usage["pods"] = static_cast<int64_t>(info.all_pods.size()) * 1000;
    info.prod_usage["pods"] = static_cast<int64_t>(info.prod_pods.size()) * 1000;
    for (const api::slo::PodMetricInfo& pod : status.podsMetric) {
      info.pod_metrics[pod.namespace_ + "/" + pod.name] = pod.podUsage.resources;
    }
    out.push_back(std::move(info));
  }
  return out;
}

void setNodeThresholds(std::vector<NodeInfo>& nodes, const PoolThresholds& thresholds,
                       bool use_deviation_thresholds) {
  namespace d = lownodeload_usage_detail;
  config::ResourceThresholds average;
  config::ResourceThresholds prod_average;
  if (use_deviation_thresholds) {
    average = d::averagePercent(nodes, false);
    prod_average = d::averagePercent(nodes, true);
  }
  for (NodeInfo& info : nodes) {
    NodeThresholds& t = info.thresholds;
    t = NodeThresholds{};
    for (const std::string& name : thresholds.resource_names) {
      const double low = d::percentOr0(thresholds.low, name);
      const double high = d::percentOr0(thresholds.high, name);
      const double prod_low = d::percentOr0(thresholds.prod_low, name);
      const double prod_high = d::percentOr0(thresholds.prod_high, name);
      if (!use_deviation_thresholds) {
        t.low[name] = d::threshold(info, name, low);
        t.high[name] = d::threshold(info, name, high);
        t.prod_low[name] = d::threshold(info, name, prod_low);
        t.prod_high[name] = d::threshold(info, name, prod_high);
        continue;
      }
      const int64_t capacity = d::capacityMilli(info, name);
      if (low == d::kMinPercent) {
        t.low[name] = capacity;
        t.high[name] = capacity;
      } else {
        const double avg = d::percentOr0(average, name);
        t.low[name] = d::threshold(info, name, d::normalize(avg - low));
        t.high[name] = d::threshold(info, name, d::normalize(avg + high));
      }
      if (prod_low == d::kMinPercent) {
        t.prod_low[name] = capacity;
        t.prod_high[name] = capacity;
      } else {
        const double avg = d::percentOr0(prod_average, name);
        t.prod_low[name] = d::threshold(info, name, d::normalize(avg - prod_low));
        t.prod_high[name] = d::threshold(info, name, d::normalize(avg + prod_high));
      }
    }
  }
}

std::vector<std::string> overutilizedResources(const Usage& usage, const Usage& thresholds) {
  std::vector<std::string> out;
  for (const auto& [name, limit] : thresholds) {
    auto used = usage.find(name);
    if (used != usage.end() && used->second > limit) {
      out.push_back(name);
    }
  }
  return out;
}

bool isUnderutilized(const Usage& usage, const Usage& thresholds) {
  for (const auto& [name, limit] : thresholds) {
    auto used = usage.find(name);
    if (used != usage.end() && used->second > limit) {
      return false;
    }
  }
  return true;
}

Classification classifyNodes(const std::vector<NodeInfo>& nodes) {
  Classification out;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& info = nodes[i];
    const bool schedulable = !info.node->spec.unschedulable;
    const bool low = schedulable && isUnderutilized(info.usage, info.thresholds.low);
    const bool prod_high =
        !overutilizedResources(info.prod_usage, info.thresholds.prod_high).empty();
    const bool prod_low = schedulable && isUnderutilized(info.prod_usage, info.thresholds.prod_low);
    if (low) {
      if (prod_high) {
        out.prod_high.push_back(i);
      } else if (prod_low) {
        out.both_low.push_back(i);
      } else {
        out.low.push_back(i);
      }
    } else if (!overutilizedResources(info.usage, info.thresholds.high).empty()) {
      out.high.push_back(i);
    } else if (prod_high) {
      out.prod_high.push_back(i);
    } else if (prod_low) {
      out.prod_low.push_back(i);
    }
  }
  return out;
}

std::string overutilizedReason(const NodeInfo& node, bool prod, const PoolThresholds& thresholds) {
  const Usage& usage = prod ? node.prod_usage : node.usage;
  const Usage& limits = prod ? node.thresholds.prod_high : node.thresholds.high;
  const config::ResourceThresholds& percents = prod ? thresholds.prod_high : thresholds.high;
  const std::vector<std::string> over = overutilizedResources(usage, limits);
  std::string infos;
  for (const auto& entry : thresholds.high) {  // Koordinator lists the high thresholds' names
    const std::string& name = entry.first;
    if (std::find(over.begin(), over.end(), name) == over.end()) {
      continue;
    }
    double percent = 0;
    const int64_t capacity = lownodeload_usage_detail::capacityMilli(node, name);
    if (capacity != 0) {
      percent = 100 * static_cast<double>(lownodeload_usage_detail::valueOr0(usage, name)) /
                static_cast<double>(capacity);
    }
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), "%s %s usage(%.2f%%)>threshold(%.2f%%)",
                  prod ? "prod" : "node", name.c_str(), percent,
                  lownodeload_usage_detail::percentOr0(percents, name));
    infos += (infos.empty() ? "" : ", ") + std::string(buffer);
  }
  return "node is overutilized, " + infos;
}

}  // namespace koord::manager::descheduler::lownodeload
