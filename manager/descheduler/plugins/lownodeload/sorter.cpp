#include "manager/descheduler/plugins/lownodeload/sorter.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::descheduler::lownodeload {

namespace lownodeload_sorter_detail {

constexpr char kAnnotationPodDeletionCost[] = "controller.kubernetes.io/pod-deletion-cost";

int64_t weightOf(const ResourceWeights& weights, const std::string& name) {
  auto it = weights.find(name);
  return it == weights.end() ? 0 : it->second;
}

int64_t mostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) {
    return 0;
  }
  requested = std::min(requested, capacity);
  return requested * 1000 / capacity;
}

double mostRequestedScorePod(int64_t requested, int64_t capacity) {
  if (capacity == 0) {
    return 0;
  }
  const double ratio = static_cast<double>(requested) / static_cast<double>(capacity);
  return ratio >= 1 ? 1 / ratio + 1 : ratio;
}

int priorityClassOrder(const api::core::Pod& pod) {
  const api::PriorityClass priority = priorityClassWithDefault(pod);
  switch (priority) {
    case api::PriorityClass::kNone:
      return 5;
    case api::PriorityClass::kProd:
      return 4;
    case api::PriorityClass::kMid:
      return 3;
    case api::PriorityClass::kBatch:
      return 2;
    case api::PriorityClass::kFree:
      return 1;
  }
  return 5;
}

int kubeQosOrder(const api::core::Pod& pod) {
  switch (api::core::podQosClass(pod)) {
    case api::core::QosClass::kGuaranteed:
      return 3;
    case api::core::QosClass::kBurstable:
      return 2;
    case api::core::QosClass::kBestEffort:
      return 1;
  }
  return 0;
}

int koordQosOrder(const api::core::Pod& pod) {
  switch (api::qosClassWithDefault(pod.metadata.labels,
                                   api::core::qosClassName(api::core::podQosClass(pod)))) {
    case api::QoSClass::kNone:
      return 5;
    case api::QoSClass::kSystem:
    case api::QoSClass::kLSE:
      return 4;
    case api::QoSClass::kLSR:
      return 3;
    case api::QoSClass::kLS:
      return 2;
    case api::QoSClass::kBE:
      return 1;
  }
  return 5;
}

// An int32 annotation as Kubernetes reads a deletion cost: no '+' nor leading zeros; 0 otherwise.
int32_t costAnnotation(const api::core::Pod& pod, std::string_view key) {
  auto it = pod.metadata.annotations.find(std::string(key));
  if (it == pod.metadata.annotations.end()) {
    return 0;
  }
  const std::string& text = it->second;
  if (text.empty() || !(text[0] == '-' || text == "0" || (text[0] >= '1' && text[0] <= '9'))) {
    return 0;
  }
  try {
    size_t used = 0;
    const long long value = std::stoll(text, &used, 10);
    if (used != text.size() || value < INT32_MIN || value > INT32_MAX) {
      return 0;
    }
    return static_cast<int32_t>(value);
  } catch (...) {
    return 0;
  }
}

std::chrono::system_clock::time_point created(const api::core::Pod& pod) {
  auto parsed = api::core::parseTime(pod.metadata.creationTimestamp);
  return parsed.ok() ? *parsed : std::chrono::system_clock::time_point{};
}

template <typename T>
int compare(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace lownodeload_sorter_detail

int64_t nodeUsageScore(const Usage& usage, const resource::ResourceList& allocatable,
                       const ResourceWeights& weights) {
  namespace d = lownodeload_sorter_detail;
  int64_t score = 0;
  int64_t weight_sum = 0;
  for (const auto& [name, used] : usage) {
    const int64_t weight = d::weightOf(weights, name);
    const int64_t capacity = milliOf(resource::get(allocatable, name));
    score += d::mostRequestedScore(scoreValue(name, used), scoreValue(name, capacity)) * weight;
    weight_sum += weight;
  }
  return weight_sum == 0 ? 0 : score / weight_sum;
}

void sortNodesByUsage(std::vector<size_t>& indexes, const std::vector<NodeInfo>& nodes,
                      const ResourceWeights& weights, bool prod) {
  std::vector<std::pair<int64_t, size_t>> scored;
  for (size_t index : indexes) {
    const NodeInfo& info = nodes[index];
    scored.emplace_back(
        nodeUsageScore(prod ? info.prod_usage : info.usage, info.node->status.allocatable, weights),
        index);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < scored.size(); ++i) {
    indexes[i] = scored[i].second;
  }
}

double podUsageScore(const resource::ResourceList& pod_usage, const Usage& excess,
                     const ResourceWeights& weights) {
  namespace d = lownodeload_sorter_detail;
  double score = 0;
  int64_t weight_sum = 0;
  for (const auto& [name, quantity] : pod_usage) {
    const int64_t weight = d::weightOf(weights, name);
    auto it = excess.find(name);
    const int64_t capacity = it == excess.end() ? 0 : scoreValue(name, it->second);
    score += d::mostRequestedScorePod(scoreValue(name, milliOf(quantity)), capacity) *
             static_cast<double>(weight);
    weight_sum += weight;
  }
  return weight_sum == 0 ? 0 : score / static_cast<double>(weight_sum);
}

void sortPodsOnOverloadedNode(const NodeInfo& node, std::vector<framework::PodPtr>& pods,
                              const ResourceWeights& pool_weights, bool prod) {
  namespace d = lownodeload_sorter_detail;
  const Usage& usage = prod ? node.prod_usage : node.usage;
  const Usage& limits = prod ? node.thresholds.prod_high : node.thresholds.high;
  ResourceWeights weights;
  Usage excess;
  for (const std::string& name : overutilizedResources(usage, limits)) {
    weights[name] = d::weightOf(pool_weights, name);
    excess[name] = usage.find(name)->second - limits.find(name)->second;
  }

  struct Keys {
    int priority_class;
    int32_t priority;
    int kube_qos;
    int koord_qos;
    int32_t deletion_cost;
    int32_t eviction_cost;
    std::optional<double> usage_score;  // nullopt: no podsMetric entry
    std::chrono::system_clock::time_point created;
  };
  std::vector<std::pair<Keys, framework::PodPtr>> keyed;
  for (const framework::PodPtr& pod : pods) {
    Keys keys{d::priorityClassOrder(*pod),
              pod->spec.priority.value_or(0),
              d::kubeQosOrder(*pod),
              d::koordQosOrder(*pod),
              d::costAnnotation(*pod, d::kAnnotationPodDeletionCost),
              d::costAnnotation(*pod, api::kAnnotationEvictionCost),
              std::nullopt,
              d::created(*pod)};
    auto metric = node.pod_metrics.find(podKey(*pod));
    if (metric != node.pod_metrics.end()) {
      keys.usage_score = podUsageScore(metric->second, excess, weights);
    }
    keyed.emplace_back(keys, pod);
  }
  auto less = [](const auto& left, const auto& right) {
    const Keys& a = left.first;
    const Keys& b = right.first;
    int by_usage = 0;
    if (a.usage_score.has_value() != b.usage_score.has_value()) {
      by_usage = a.usage_score.has_value() ? -1 : 1;  // pods with a metric first
    } else if (a.usage_score) {
      by_usage = d::compare(*b.usage_score, *a.usage_score);  // higher usage first
    }
    for (int c :
         {d::compare(a.priority_class, b.priority_class), d::compare(a.priority, b.priority),
          d::compare(a.kube_qos, b.kube_qos), d::compare(a.koord_qos, b.koord_qos),
          d::compare(a.deletion_cost, b.deletion_cost),
          d::compare(a.eviction_cost, b.eviction_cost), by_usage,
          d::compare(b.created, a.created)}) {  // newest first
      if (c != 0) {
        return c < 0;
      }
    }
    return false;
  };
  std::stable_sort(keyed.begin(), keyed.end(), less);
  for (size_t i = 0; i < keyed.size(); ++i) {
    pods[i] = keyed[i].second;
  }
}

}  // namespace koord::manager::descheduler::lownodeload
