#include "agent/reporters/node_metric.hpp"

#include <algorithm>
#include <cmath>

#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/event_recorder.hpp"

namespace koord::agent::reporters {

namespace {

using metriccache::AggregateResult;
using metriccache::MetricKind;

constexpr std::chrono::seconds kMinAggregateDuration{60};
constexpr std::chrono::seconds kMinReportInterval{30};

resource::ResourceList usage(double cores, double bytes) {
  resource::ResourceList out;
  out["cpu"] = resource::Quantity::fromMilli(static_cast<int64_t>(std::llround(cores * 1000)));
  out["memory"] = resource::Quantity::fromInt(static_cast<int64_t>(std::llround(bytes)),
                                              resource::QuantityFormat::BinarySI);
  return out;
}

std::optional<api::slo::ResourceMap> average(const metriccache::MetricCache& cache, MetricKind cpu,
                                             MetricKind memory, std::string_view id,
                                             metriccache::TimePoint from,
                                             metriccache::TimePoint to) {
  auto cpu_avg = cache.aggregate(cpu, id, from, to);
  auto memory_avg = cache.aggregate(memory, id, from, to);
  if (!cpu_avg && !memory_avg) {
    return std::nullopt;
  }
  api::slo::ResourceMap out;
  out.resources = usage(cpu_avg ? cpu_avg->avg : 0, memory_avg ? memory_avg->avg : 0);
  return out;
}

// avg/p50/p90/p95/p99 of cpu and memory over each duration the cache covers by half or more.
std::vector<api::slo::AggregatedUsage> aggregated(const metriccache::MetricCache& cache,
                                                  const EffectiveCollectPolicy& policy,
                                                  MetricKind cpu, MetricKind memory,
                                                  metriccache::TimePoint now) {
  std::vector<api::slo::AggregatedUsage> out;
  for (size_t i = 0; i < policy.aggregate_durations.size(); ++i) {
    const auto duration = policy.aggregate_durations[i];
    auto cpu_result = cache.aggregate(cpu, "", now - duration, now);
    auto memory_result = cache.aggregate(memory, "", now - duration, now);
    if (!cpu_result || !memory_result || cpu_result->span() * 2 < duration) {
      continue;
    }
    api::slo::AggregatedUsage entry;
    entry.duration = policy.aggregate_duration_texts[i];
    auto put = [&](const char* name, double AggregateResult::*field) {
      entry.usage[name].resources = usage((*cpu_result).*field, (*memory_result).*field);
    };
    put("avg", &AggregateResult::avg);
    put("p50", &AggregateResult::p50);
    put("p90", &AggregateResult::p90);
    put("p95", &AggregateResult::p95);
    put("p99", &AggregateResult::p99);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

EffectiveCollectPolicy effectivePolicy(const api::slo::NodeMetricSpec& spec) {
  EffectiveCollectPolicy out;
  if (!spec.metricCollectPolicy) {
    return out;
  }
  const api::slo::NodeMetricCollectPolicy& policy = *spec.metricCollectPolicy;
  if (policy.aggregateDurationSeconds) {
    out.aggregate_duration =
        std::max(std::chrono::seconds(*policy.aggregateDurationSeconds), kMinAggregateDuration);
  }
  if (policy.reportIntervalSeconds) {
    out.report_interval =
        std::max(std::chrono::seconds(*policy.reportIntervalSeconds), kMinReportInterval);
  }
  if (policy.nodeAggregatePolicy) {
    for (const std::string& text : policy.nodeAggregatePolicy->durations) {
      auto parsed = api::extension::parseDuration(text);
      if (parsed.ok() && parsed->count() > 0) {
        out.aggregate_durations.push_back(
            std::chrono::duration_cast<std::chrono::seconds>(*parsed));
        out.aggregate_duration_texts.push_back(text);
      }
    }
  }
  return out;
}

api::slo::NodeMetricStatus buildNodeMetricStatus(
    const metriccache::MetricCache& cache, const EffectiveCollectPolicy& policy,
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods, metriccache::TimePoint now) {
  api::slo::NodeMetricStatus status;
  status.updateTime = k8s::formatTime(now);
  const metriccache::TimePoint from = now - policy.aggregate_duration;
  api::slo::NodeMetricInfo info;
  info.nodeUsage = average(cache, MetricKind::NodeCpu, MetricKind::NodeMemory, "", from, now)
                       .value_or(api::slo::ResourceMap{});
  info.systemUsage = average(cache, MetricKind::SystemCpu, MetricKind::SystemMemory, "", from, now)
                         .value_or(api::slo::ResourceMap{});
  info.aggregatedNodeUsages =
      aggregated(cache, policy, MetricKind::NodeCpu, MetricKind::NodeMemory, now);
  info.aggregatedSystemUsages =
      aggregated(cache, policy, MetricKind::SystemCpu, MetricKind::SystemMemory, now);
  status.nodeMetric = std::move(info);
  for (const auto& pod : pods) {
    auto pod_usage =
        average(cache, MetricKind::PodCpu, MetricKind::PodMemory, pod->metadata.uid, from, now);
    if (!pod_usage) {
      continue;
    }
    api::slo::PodMetricInfo metric;
    metric.namespace_ = pod->metadata.namespace_;
    metric.name = pod->metadata.name;
    metric.podUsage = std::move(*pod_usage);
    metric.priority =
        std::string(api::toString(api::priorityClassOf(pod->spec.priority, pod->metadata.labels)));
    api::QoSClass qos = api::qosClassOf(pod->metadata.labels);
    if (qos == api::QoSClass::kNone) {
      qos = api::qosClassFromKubeQoS(pod->status.qosClass);
    }
    metric.qos = std::string(api::toString(qos));
    status.podsMetric.push_back(std::move(metric));
  }
  return status;
}

}  // namespace koord::agent::reporters
