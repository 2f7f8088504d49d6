#include "agent/qosmanager/strategies/memory_evict/memory_evict.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "agent/qosmanager/framework/be_pods.hpp"
#include "agent/qosmanager/framework/strategy_metrics.hpp"
#include "agent/qosmanager/strategies/memory_evict/memory_evict_formula.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {

namespace {

using framework::batchMemoryRequest;
using framework::isBE;
using framework::isRunning;
using framework::isTerminal;
using framework::podKey;
using framework::priorityAllowed;
using framework::priorityOf;

using metriccache::MetricKind;

std::string percentText(double percent) {
  if (std::isinf(percent)) {
    return "inf%";
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.0f%%", std::floor(percent));
  return text;
}

// The quantity `name` of `list` as an integer; nullopt when absent.
std::optional<int64_t> quantity(const resource::ResourceList& list, std::string_view name) {
  auto it = list.find(name);
  if (it == list.end()) {
    return std::nullopt;
  }
  return it->second.value();
}

api::Json candidatesJson(const std::vector<framework::EvictionCandidate>& candidates,
                         const char* weight) {
  api::Json out = api::Json::array();
  for (const framework::EvictionCandidate& candidate : framework::Evictor::order(candidates)) {
    out.push_back({{"pod", podKey(*candidate.pod)},
                   {"priority", priorityOf(*candidate.pod)},
                   {weight, static_cast<int64_t>(candidate.usage)}});
  }
  return out;
}

}  // namespace

MemoryEvict::MemoryEvict(MemoryEvictOptions options, log::Logger logger,
                         metrics::MetricsRegistry* registry)
    : options_(options), logger_(std::move(logger)) {
  usage_percent_gauge_ = framework::strategyGauge(
      registry, logger_, "koord_agent_be_memory_usage_percent",
      "The node's memory usage in percent of its capacity, as BE memory eviction last read "
      "it.");
  allocatable_percent_gauge_ = framework::strategyGauge(
      registry, logger_, "koord_agent_be_memory_allocatable_percent",
      "The kubernetes.io/batch-memory requests of BE pods in percent of the node's "
      "batch-memory allocatable, as BE memory eviction last computed it.");
  const std::string release_help =
      "The bytes BE memory eviction asked to release at its last run (0: none), per variant "
      "(usage: node memory usage; allocatable: batch-memory requests).";
  usage_release_gauge_ =
      framework::strategyGauge(registry, logger_, "koord_agent_be_memory_evict_release_bytes",
                               release_help, {{"variant", "usage"}});
  allocatable_release_gauge_ =
      framework::strategyGauge(registry, logger_, "koord_agent_be_memory_evict_release_bytes",
                               release_help, {{"variant", "allocatable"}});
}

bool MemoryEvict::enabled(const api::slo::NodeSLO* node_slo) const {
  return memoryEvictEnabled(node_slo);
}

Status MemoryEvict::run(const framework::StrategyContext& context) {
  const Clock::TimePoint now = context.clock.now();
  api::Json state = api::Json::object();
  auto finish = [&](std::string decision, const Status& status) {
    state["decision"] = std::move(decision);
    state["status"] = status.toString();
    if (last_eviction_) {
      state["last_eviction"] = lastEvictionJson(now);
    }
    last_ = std::move(state);
    return status;
  };

  std::shared_ptr<const api::slo::NodeSLO> node_slo = context.states.nodeSLO();
  if (!memoryEvictEnabled(node_slo.get())) {
    return finish("disabled by the NodeSLO", Status::ok());
  }
  Result<MemoryEvictConfig> config = memoryEvictConfig(*node_slo->spec.resourceUsedThresholdWithBE);
  if (!config.ok()) {
    logger_.warn("BE memory eviction is misconfigured; nothing is evicted",
                 {{"error", config.status()}});
    return finish("invalid configuration: nothing evicted", config.status());
  }
  state["config"] = toJson(*config);

  if (cooling_since_ && now < *cooling_since_ + options_.cool_time) {
    state["cooling_left_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                                   *cooling_since_ + options_.cool_time - now)
                                   .count();
    return finish("cooling after the last eviction", Status::ok());
  }

  std::shared_ptr<const api::core::Node> node = context.states.node();
  if (node == nullptr) {
    return finish("skipped: no Node yet", Status::ok());
  }

  size_t evicted = 0;
  if (config->usage) {
    api::Json usage = api::Json::object();
    evicted += runUsage(context, *node, *config, usage);
    state["usage"] = std::move(usage);
  } else {
    usage_release_gauge_.set(0);
  }
  if (config->allocatable) {
    api::Json allocatable = api::Json::object();
    evicted += runAllocatable(context, *node, *config->allocatable, allocatable);
    state["allocatable"] = std::move(allocatable);
  } else {
    allocatable_release_gauge_.set(0);
  }
  if (evicted > 0) {
    cooling_since_ = now;
    return finish("evicted " + std::to_string(evicted) + " pod(s)", Status::ok());
  }
  return finish("no pod evicted", Status::ok());
}

size_t MemoryEvict::runUsage(const framework::StrategyContext& context, const api::core::Node& node,
                             const MemoryEvictConfig& config, api::Json& state) {
  const UsageThresholds& thresholds = *config.usage;
  state["threshold_percent"] = thresholds.threshold_percent;
  state["lower_percent"] = thresholds.lower_percent;
  usage_release_gauge_.set(0);
  const int64_t capacity = quantity(node.status.capacity, "memory").value_or(0);
  state["capacity_bytes"] = capacity;
  if (capacity <= 0) {
    state["decision"] = "skipped: the Node has no memory capacity";
    return 0;
  }
  std::optional<double> used =
      context.metrics.fresh(MetricKind::kNodeMemory, "", options_.max_sample_age);
  if (!used) {
    state["decision"] = "skipped: no node memory sample in the last " +
                        std::to_string(options_.max_sample_age.count()) + " ms";
    return 0;
  }
  const auto used_bytes = static_cast<int64_t>(*used);
  const int64_t percent = usagePercent(used_bytes, capacity);
  const int64_t release = usageRelease(capacity, percent, thresholds);
  state["node_memory_bytes"] = used_bytes;
  state["usage_percent"] = percent;
  state["release_bytes"] = release;
  usage_percent_gauge_.set(static_cast<double>(percent));
  if (release <= 0) {
    state["decision"] = "below the threshold";
    return 0;
  }
  usage_release_gauge_.set(static_cast<double>(release));

  framework::EvictionRequest request;
  request.reason = std::string(kReasonNodeMemoryUsage);
  request.message = "node memory usage " + std::to_string(percent) + "% >= threshold " +
                    std::to_string(thresholds.threshold_percent) + "%, releasing " +
                    formatBytes(static_cast<double>(release)) + " to reach " +
                    std::to_string(thresholds.lower_percent) + "% (" +
                    formatBytes(static_cast<double>(used_bytes)) + " used of " +
                    formatBytes(static_cast<double>(capacity)) + ")";
  request.release = static_cast<double>(release);
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    const api::core::Pod& pod = *entry.pod;
    if (!isBE(pod) || !isRunning(pod) || !priorityAllowed(pod, config.evict_priority_threshold)) {
      continue;
    }
    std::optional<double> working_set =
        context.metrics.fresh(MetricKind::kPodMemory, pod.metadata.uid, options_.max_sample_age);
    framework::EvictionCandidate candidate;
    candidate.pod = entry.pod;
    candidate.usage = working_set.value_or(0);
    candidate.detail =
        working_set ? "memory working set " + formatBytes(*working_set) : "no recent memory sample";
    request.candidates.push_back(std::move(candidate));
  }
  state["candidates"] = candidatesJson(request.candidates, "usage_bytes");
  if (request.candidates.empty()) {
    state["decision"] = "over the threshold, but no BE pod may be evicted";
    logger_.warn("node memory over the BE eviction threshold with no BE pod to evict",
                 {{"message", request.message}});
    return 0;
  }
  state["decision"] = "over the threshold: evicting";
  return evict(context, std::move(request), state);
}

size_t MemoryEvict::runAllocatable(const framework::StrategyContext& context,
                                   const api::core::Node& node,
                                   const AllocatableThresholds& thresholds, api::Json& state) {
  state["threshold_percent"] = thresholds.threshold_percent;
  state["lower_percent"] = thresholds.lower_percent;
  allocatable_release_gauge_.set(0);
  std::optional<int64_t> allocatable = quantity(node.status.allocatable, api::kResourceBatchMemory);
  if (!allocatable) {
    state["decision"] = "skipped: the Node has no kubernetes.io/batch-memory allocatable";
    return 0;
  }
  int64_t requested = 0;
  std::vector<framework::EvictionCandidate> candidates;
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    const api::core::Pod& pod = *entry.pod;
    if (!isBE(pod) || isTerminal(pod) || !priorityAllowed(pod, thresholds.priority_threshold)) {
      continue;
    }
    const int64_t request = batchMemoryRequest(pod);
    requested += request;
    if (isRunning(pod) && request > 0) {
      candidates.push_back({entry.pod, static_cast<double>(request),
                            "batch-memory request " + formatBytes(static_cast<double>(request))});
    }
  }
  const double percent = allocatablePercent(requested, *allocatable);
  const int64_t release = allocatableRelease(requested, *allocatable, thresholds);
  state["requested_bytes"] = requested;
  state["allocatable_bytes"] = *allocatable;
  state["requested_percent"] = std::isinf(percent) ? api::Json("inf") : api::Json(percent);
  state["release_bytes"] = release;
  allocatable_percent_gauge_.set(percent);
  if (release <= 0) {
    state["decision"] = "below the threshold";
    return 0;
  }
  allocatable_release_gauge_.set(static_cast<double>(release));

  framework::EvictionRequest request;
  request.reason = std::string(kReasonBEMemoryAllocatable);
  request.message = "BE batch-memory requests " + percentText(percent) +
                    " of allocatable > threshold " + std::to_string(thresholds.threshold_percent) +
                    "%, releasing " + formatBytes(static_cast<double>(release)) +
                    " of requests to reach " + std::to_string(thresholds.lower_percent) + "% (" +
                    formatBytes(static_cast<double>(requested)) + " requested of " +
                    formatBytes(static_cast<double>(*allocatable)) + " allocatable)";
  request.release = static_cast<double>(release);
  request.candidates = std::move(candidates);
  state["candidates"] = candidatesJson(request.candidates, "request_bytes");
  if (request.candidates.empty()) {
    state["decision"] = "over the threshold, but no running BE pod may be evicted";
    return 0;
  }
  state["decision"] = "over the threshold: evicting";
  return evict(context, std::move(request), state);
}

size_t MemoryEvict::evict(const framework::StrategyContext& context,
                          framework::EvictionRequest request, api::Json& state) {
  framework::EvictionReport report = context.evictor.evict(request);
  api::Json outcomes = framework::outcomesJson(report);
  state["outcomes"] = outcomes;
  state["released_bytes"] = static_cast<int64_t>(report.released);
  if (!report.outcomes.empty()) {
    last_eviction_ = LastEviction{context.clock.now(), request.reason, report.released,
                                  report.evicted, std::move(outcomes)};
  }
  logger_.info("BE memory eviction", {{"reason", request.reason},
                                      {"message", request.message},
                                      {"evicted", report.evicted},
                                      {"released", report.released}});
  return report.evicted;
}

api::Json MemoryEvict::lastEvictionJson(Clock::TimePoint now) const {
  return {{"reason", last_eviction_->reason},
          {"seconds_ago", std::chrono::duration<double>(now - last_eviction_->at).count()},
          {"released_bytes", static_cast<int64_t>(last_eviction_->released)},
          {"evicted", last_eviction_->evicted},
          {"outcomes", last_eviction_->outcomes}};
}

}  // namespace koord::agent::qosmanager::strategies::memory_evict
