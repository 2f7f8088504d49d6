#include "agent/reporters/node_metric.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string>

#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/event_recorder.hpp"

namespace koord::agent::reporters {

namespace {

using metriccache::AggregateResult;
using metriccache::MetricKind;

constexpr std::string_view kPolicyField = "spec.metricCollectPolicy.";
// How much of the notes on the durations a correction carries (the used list comes on top).
constexpr size_t kMaxNotesBytes = 640;

// A user's text in a message: quoted, cut to a readable length (at a UTF-8 character boundary,
// so that the Event stays valid JSON).
std::string quoteValue(std::string_view text) {
  constexpr size_t kMax = 32;
  std::string out = "\"";
  if (text.size() > kMax) {
    size_t cut = kMax - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
      --cut;
    }
    out += std::string(text.substr(0, cut)) + "...";
  } else {
    out += text;
  }
  out += '"';
  return out;
}

std::string goDuration(std::chrono::seconds value) {
  return api::extension::formatDuration(std::chrono::nanoseconds(value));
}

// Notes joined with "; ", cut at kMaxNotesBytes with a count of what was left out.
class Notes {
 public:
  void add(const std::string& note) {
    if (text_.size() + note.size() + 2 > kMaxNotesBytes) {
      ++left_out_;
      return;
    }
    text_ += text_.empty() ? "" : "; ";
    text_ += note;
  }
  [[nodiscard]] bool empty() const { return text_.empty() && left_out_ == 0; }
  [[nodiscard]] std::string finish() const {
    return left_out_ == 0 ? text_ : text_ + "; and " + std::to_string(left_out_) + " more";
  }

 private:
  std::string text_;
  size_t left_out_ = 0;
};

// `value` held to [min, max] (whole seconds), with a correction when it was not already there.
std::chrono::seconds bounded(int64_t value, std::chrono::seconds min, std::chrono::seconds max,
                             std::string_view field, std::vector<std::string>& corrections) {
  const int64_t used = std::clamp<int64_t>(value, min.count(), max.count());
  if (used != value) {
    corrections.push_back(std::string(kPolicyField) + std::string(field) + ": " +
                          std::to_string(value) + " is " +
                          (value < used ? "below the minimum of " : "above the maximum of ") +
                          std::to_string(used) + "; used " + std::to_string(used));
  }
  return std::chrono::seconds(used);
}

// nodeAggregatePolicy.durations: parsed, each held to the retention, deduplicated, capped.
void aggregateDurations(const std::vector<std::string>& texts, std::chrono::seconds retention,
                        EffectiveCollectPolicy& out) {
  Notes notes;
  std::set<int64_t> seen;
  size_t duplicates = 0;
  size_t beyond = 0;
  std::string beyond_examples;
  for (const std::string& text : texts) {
    auto parsed = api::extension::parseDuration(text);
    if (!parsed.ok() || *parsed < std::chrono::seconds(1)) {
      notes.add(quoteValue(text) + " is not a duration of 1s or more, dropped");
      continue;
    }
    auto duration = std::chrono::duration_cast<std::chrono::seconds>(*parsed);
    std::string label = text;
    if (duration > retention) {
      notes.add(quoteValue(text) + " is longer than the " + goDuration(retention) +
                " of samples the agent keeps, used " + goDuration(retention));
      duration = retention;
      label = goDuration(retention);
    }
    if (!seen.insert(duration.count()).second) {
      ++duplicates;
      continue;
    }
    if (out.aggregate_durations.size() == kMaxAggregateDurations) {
      if (++beyond <= 3) {
        beyond_examples += (beyond_examples.empty() ? "" : ", ") + quoteValue(text);
      }
      continue;
    }
    out.aggregate_durations.push_back(duration);
    out.aggregate_duration_texts.push_back(std::move(label));
  }
  if (beyond > 0) {
    notes.add(std::to_string(beyond) + " beyond the first " +
              std::to_string(kMaxAggregateDurations) + " distinct durations dropped (" +
              beyond_examples + (beyond > 3 ? ", ..." : "") + ")");
  }
  if (duplicates > 0) {
    notes.add(std::to_string(duplicates) + " duplicates dropped");
  }
  if (notes.empty()) {
    return;
  }
  std::string used;
  for (const std::string& label : out.aggregate_duration_texts) {
    used += (used.empty() ? "" : ", ") + quoteValue(label);
  }
  out.corrections.push_back(std::string(kPolicyField) +
                            "nodeAggregatePolicy.durations: " + std::to_string(texts.size()) +
                            " given, used [" + used + "]: " + notes.finish());
}

// Which podsMetric entries fitNodeMetricStatus leaves out first: koord-free, koord-batch,
// koord-mid, then the rest.
int dropRank(std::string_view priority) {
  if (priority == api::toString(api::PriorityClass::kFree)) {
    return 0;
  }
  if (priority == api::toString(api::PriorityClass::kBatch)) {
    return 1;
  }
  if (priority == api::toString(api::PriorityClass::kMid)) {
    return 2;
  }
  return 3;
}

resource::ResourceList usage(double cores, double bytes) {
  resource::ResourceList out;
  out["cpu"] = resource::Quantity::fromMilli(static_cast<int64_t>(std::llround(cores * 1000)));
  out["memory"] = resource::Quantity::fromInt(static_cast<int64_t>(std::llround(bytes)),
                                              resource::QuantityFormat::kBinarySI);
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

EffectiveCollectPolicy effectivePolicy(const api::slo::NodeMetricSpec& spec,
                                       const CollectPolicyLimits& limits) {
  EffectiveCollectPolicy out;
  const std::chrono::seconds retention = std::max(limits.retention, kMinAggregateDuration);
  out.aggregate_duration = std::min(out.aggregate_duration, retention);
  if (!spec.metricCollectPolicy) {
    return out;
  }
  const api::slo::NodeMetricCollectPolicy& policy = *spec.metricCollectPolicy;
  if (policy.aggregateDurationSeconds) {
    out.aggregate_duration = bounded(*policy.aggregateDurationSeconds, kMinAggregateDuration,
                                     retention, "aggregateDurationSeconds", out.corrections);
  }
  if (policy.reportIntervalSeconds) {
    out.report_interval = bounded(*policy.reportIntervalSeconds, kMinReportInterval,
                                  kMaxReportInterval, "reportIntervalSeconds", out.corrections);
  }
  if (policy.nodeAggregatePolicy) {
    aggregateDurations(policy.nodeAggregatePolicy->durations, retention, out);
  }
  return out;
}

std::vector<ObjectProblem> collectPolicyProblems(const api::slo::NodeMetric& metric,
                                                 const EffectiveCollectPolicy& policy) {
  std::vector<ObjectProblem> out;
  for (const std::string& correction : policy.corrections) {
    out.push_back({objectReference(std::string(api::slo::kNodeMetricKind),
                                   std::string(api::slo::kGroupVersion), metric.metadata),
                   std::string(kReasonInvalidMetricCollectPolicy), correction});
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
  info.nodeUsage = average(cache, MetricKind::kNodeCpu, MetricKind::kNodeMemory, "", from, now)
                       .value_or(api::slo::ResourceMap{});
  info.systemUsage =
      average(cache, MetricKind::kSystemCpu, MetricKind::kSystemMemory, "", from, now)
          .value_or(api::slo::ResourceMap{});
  info.aggregatedNodeUsages =
      aggregated(cache, policy, MetricKind::kNodeCpu, MetricKind::kNodeMemory, now);
  info.aggregatedSystemUsages =
      aggregated(cache, policy, MetricKind::kSystemCpu, MetricKind::kSystemMemory, now);
  status.nodeMetric = std::move(info);
  for (const auto& pod : pods) {
    auto pod_usage =
        average(cache, MetricKind::kPodCpu, MetricKind::kPodMemory, pod->metadata.uid, from, now);
    if (!pod_usage) {
      continue;
    }
    api::slo::PodMetricInfo metric;
    metric.namespace_ = pod->metadata.namespace_;
    metric.name = pod->metadata.name;
    metric.podUsage = std::move(*pod_usage);
    metric.priority =
        std::string(api::toString(api::priorityClassOf(pod->spec.priority, pod->metadata.labels)));
    metric.qos = std::string(
        api::toString(api::qosClassWithDefault(pod->metadata.labels, pod->status.qosClass)));
    status.podsMetric.push_back(std::move(metric));
  }
  return status;
}

Result<StatusFit> fitNodeMetricStatus(api::slo::NodeMetricStatus& status, size_t budget) {
  StatusFit fit;
  fit.bytes = api::slo::toJson(status).dump().size();
  if (fit.bytes <= budget) {
    return fit;
  }
  // Leaving out an entry saves its own bytes and a comma (but for the last one): counting only
  // its own bytes overestimates what is left, so the estimate reaching the budget means the real
  // size did.
  std::vector<api::slo::PodMetricInfo>& pods = status.podsMetric;
  std::vector<size_t> order(pods.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&pods](size_t a, size_t b) {
    const int rank_a = dropRank(pods[a].priority);
    const int rank_b = dropRank(pods[b].priority);
    return rank_a != rank_b ? rank_a < rank_b : a > b;
  });
  std::vector<bool> dropped(pods.size(), false);
  size_t estimate = fit.bytes;
  for (size_t index : order) {
    if (estimate <= budget) {
      break;
    }
    estimate -= api::slo::toJson(pods[index]).dump().size();
    dropped[index] = true;
    ++fit.dropped_pods;
  }
  std::vector<api::slo::PodMetricInfo> kept;
  kept.reserve(pods.size() - fit.dropped_pods);
  for (size_t i = 0; i < pods.size(); ++i) {
    if (!dropped[i]) {
      kept.push_back(std::move(pods[i]));
    }
  }
  pods = std::move(kept);
  fit.bytes = api::slo::toJson(status).dump().size();
  if (fit.bytes > budget && status.nodeMetric) {
    fit.dropped_aggregates = !status.nodeMetric->aggregatedNodeUsages.empty() ||
                             !status.nodeMetric->aggregatedSystemUsages.empty();
    status.nodeMetric->aggregatedNodeUsages.clear();
    status.nodeMetric->aggregatedSystemUsages.clear();
    fit.bytes = api::slo::toJson(status).dump().size();
  }
  if (fit.bytes > budget) {
    return Status::resourceExhausted(
        "the NodeMetric status is " + std::to_string(fit.bytes) +
        " bytes even without podsMetric and aggregated usages, over its budget of " +
        std::to_string(budget) + " bytes: not written");
  }
  return fit;
}

}  // namespace koord::agent::reporters
