#include "extender/plugins/load_aware/node_load.hpp"

#include <string_view>

#include "koord/api/core/time.hpp"
#include "koord/api/extension/load_aware.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::load_aware {

namespace {

// The lastTransitionTime of the pod's condition `type` when its status is True.
std::optional<WallTime> trueSince(const api::core::Pod& pod, std::string_view type) {
  for (const auto& condition : pod.status.conditions) {
    if (condition.type != type)
      continue;
    if (condition.status != "True" || condition.lastTransitionTime.empty())
      return std::nullopt;
    auto parsed = api::core::parseTime(condition.lastTransitionTime);
    if (!parsed.ok())
      return std::nullopt;
    return *parsed;
  }
  return std::nullopt;
}

// A load-estimated-seconds-after-* annotation; -1 when absent or unreadable.
int64_t customSeconds(const api::core::Pod& pod, std::string_view key) {
  auto it = pod.metadata.annotations.find(std::string(key));
  if (it == pod.metadata.annotations.end() || it->second.empty())
    return -1;
  auto seconds = api::extension::parseEstimatedSeconds(key, it->second);
  return seconds.ok() ? *seconds : -1;
}

// Koordinator's shouldEstimatePodDeadline.
std::optional<WallTime> estimateDeadline(const api::core::Pod& pod, const LoadAwareArgs& args,
                                         WallTime timestamp) {
  int64_t after_scheduled = -1;
  int64_t after_initialized = -1;
  if (args.allow_customize_estimation) {
    after_scheduled = customSeconds(pod, api::kAnnotationCustomEstimatedSecondsAfterPodScheduled);
    after_initialized = customSeconds(pod, api::kAnnotationCustomEstimatedSecondsAfterInitialized);
  }
  if (args.estimated_seconds_after_pod_scheduled && after_scheduled < 0)
    after_scheduled = *args.estimated_seconds_after_pod_scheduled;
  if (args.estimated_seconds_after_initialized && after_initialized < 0)
    after_initialized = *args.estimated_seconds_after_initialized;
  if (after_initialized > 0) {
    if (auto initialized = trueSince(pod, "Initialized"))
      return shifted(*initialized, clampSeconds(after_initialized));
  }
  if (after_scheduled > 0)
    return shifted(timestamp, clampSeconds(after_scheduled));
  return std::nullopt;
}

}  // namespace

PodLoad podLoad(const api::core::Pod& pod, const Estimator& estimator, const LoadAwareArgs& args,
                WallTime first_seen) {
  PodLoad out;
  out.key = pod.metadata.namespace_ + "/" + pod.metadata.name;
  out.estimated = estimator.estimatePod(pod);
  out.timestamp = trueSince(pod, "PodScheduled").value_or(first_seen);
  out.deadline = estimateDeadline(pod, args, out.timestamp);
  out.prod = priorityWithDefault(pod) == api::PriorityClass::kProd;
  return out;
}

NodeLoad emptyLoad(const MetricView& metric, bool prod_usage_include_sys) {
  NodeLoad out;
  out.prod_usage = prod_usage_include_sys && metric.has_node_metric
                       ? metric.system_usage
                       : ResourceVector(metric.node_usage.size(), 0);
  out.node_delta = ResourceVector(metric.node_usage.size(), 0);
  out.prod_delta = out.node_delta;
  out.node_estimated = out.node_delta;
  return out;
}

void NodeLoad::add(const PodLoad& pod, const MetricView& metric) {
  const ResourceVector* usage = nullptr;
  if (auto it = metric.pod_usages.find(pod.key); it != metric.pod_usages.end())
    usage = &it->second;
  // Only a pod that claims koord-prod and that koordlet also reports as koord-prod counts its
  // usage as prod: its band may have changed, or the report may be stale.
  const bool active_prod = pod.prod && usage != nullptr && metric.prod_pods.count(pod.key) != 0;
  if (active_prod)
    addTo(prod_usage, *usage);
  const WallTime update_time = metric.update_time.value_or(WallTime::min());
  bool should = usage == nullptr || shifted(update_time, -metric.report_interval) < pod.timestamp ||
                (pod.deadline && *pod.deadline > update_time);
  if (should)
    addDelta(node_delta, pod.estimated, usage);
  addTo(node_estimated, pod.estimated);
  if (!pod.prod)
    return;
  if (!active_prod && usage != nullptr) {
    usage = nullptr;
    should = true;
  }
  if (should)
    addDelta(prod_delta, pod.estimated, usage);
}

ResourceVector existingUsage(const NodeLoad& load, const MetricView& metric, bool prod,
                             const std::string& aggregation_type,
                             std::chrono::nanoseconds aggregation_duration) {
  if (prod) {
    ResourceVector out = load.prod_usage;
    addTo(out, load.prod_delta);
    return out;
  }
  const ResourceVector* usage = nullptr;
  if (!aggregation_type.empty())
    usage = metric.aggregatedUsage(aggregation_type, aggregation_duration);
  else if (metric.has_node_metric)
    usage = &metric.node_usage;
  if (usage == nullptr)
    return load.node_estimated;
  ResourceVector out = *usage;
  addTo(out, load.node_delta);
  return out;
}

}  // namespace koord::extender::plugins::load_aware
