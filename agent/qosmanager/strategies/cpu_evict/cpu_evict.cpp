#include "agent/qosmanager/strategies/cpu_evict/cpu_evict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "agent/qosmanager/framework/be_pods.hpp"
#include "agent/qosmanager/framework/strategy_metrics.hpp"
#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_formula.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::cpu_evict {

namespace {

using framework::batchCpuRequestMilli;
using framework::isBE;
using framework::isRunning;
using framework::isTerminal;
using framework::podKey;
using framework::priorityAllowed;
using framework::priorityOf;

using metriccache::MetricKind;

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string percentText(double percent) {
  return std::isinf(percent) ? "inf%" : fixed(std::floor(percent), 0) + "%";
}

api::Json candidatesJson(const std::vector<framework::EvictionCandidate>& candidates) {
  api::Json out = api::Json::array();
  for (const framework::EvictionCandidate& candidate : framework::Evictor::order(candidates)) {
    out.push_back({{"pod", podKey(*candidate.pod)},
                   {"priority", priorityOf(*candidate.pod)},
                   {"request_milli", std::llround(candidate.usage * 1000)}});
  }
  return out;
}

}  // namespace

CpuEvict::CpuEvict(CpuEvictOptions options, log::Logger logger, metrics::MetricsRegistry* registry)
    : options_(options), logger_(std::move(logger)) {
  satisfaction_gauge_ = framework::strategyGauge(
      registry, logger_, "koord_agent_be_cpu_satisfaction",
      "BE CPU satisfaction (BE real limit / BE batch-cpu requests) as BE CPU eviction last "
      "computed it.");
  real_limit_gauge_ = framework::strategyGauge(
      registry, logger_, "koord_agent_be_cpu_real_limit_cores",
      "The CPU BE may use now (suppress cpuset or quota, else the BE pool), "
      "as BE CPU eviction last read it.");
  usage_gauge_ =
      framework::strategyGauge(registry, logger_, "koord_agent_be_cpu_usage_cores",
                               "The CPU the BE pods used, averaged over BE CPU eviction's window.");
  allocatable_percent_gauge_ = framework::strategyGauge(
      registry, logger_, "koord_agent_be_cpu_allocatable_percent",
      "The kubernetes.io/batch-cpu requests of BE pods in percent of the node's batch-cpu "
      "allocatable (policy evictByAllocatable).");
  release_gauge_ = framework::strategyGauge(
      registry, logger_, "koord_agent_be_cpu_evict_release_cores",
      "The batch-cpu requests BE CPU eviction asked to release at its last run "
      "(0: none).");
}

bool CpuEvict::enabled(const api::slo::NodeSLO* node_slo) const {
  return cpuEvictEnabled(node_slo);
}

Status CpuEvict::run(const framework::StrategyContext& context) {
  const Clock::TimePoint now = context.clock.now();
  api::Json state = api::Json::object();
  auto finish = [&](const Status& status) {
    if (!state.contains("decision")) {
      state["decision"] = "no pod evicted";
    }
    state["status"] = status.toString();
    if (last_eviction_) {
      state["last_eviction"] = {
          {"reason", last_eviction_->reason},
          {"seconds_ago", std::chrono::duration<double>(now - last_eviction_->at).count()},
          {"released_milli", std::llround(last_eviction_->released_cores * 1000)},
          {"evicted", last_eviction_->evicted},
          {"outcomes", last_eviction_->outcomes}};
    }
    last_ = std::move(state);
    return status;
  };

  std::shared_ptr<const api::slo::NodeSLO> node_slo = context.states.nodeSLO();
  if (!cpuEvictEnabled(node_slo.get())) {
    state["decision"] = "disabled by the NodeSLO";
    return finish(Status::ok());
  }
  Result<CpuEvictConfig> config =
      cpuEvictConfig(*node_slo->spec.resourceUsedThresholdWithBE, options_.collect_interval);
  if (!config.ok()) {
    logger_.warn("BE CPU eviction is misconfigured; nothing is evicted",
                 {{"error", config.status()}});
    state["decision"] = "invalid configuration: nothing evicted";
    return finish(config.status());
  }
  state["config"] = toJson(*config);

  if (cooling_since_ && now < *cooling_since_ + options_.cool_time) {
    state["cooling_left_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                                   *cooling_since_ + options_.cool_time - now)
                                   .count();
    state["decision"] = "cooling after the last eviction";
    return finish(Status::ok());
  }
  std::shared_ptr<const api::core::Node> node = context.states.node();
  if (node == nullptr) {
    state["decision"] = "skipped: no Node yet";
    return finish(Status::ok());
  }

  release_gauge_.set(0);
  const size_t evicted = config->allocatable
                             ? runAllocatable(context, *node, *config->allocatable, state)
                             : runRealLimit(context, *config, state);
  if (evicted > 0) {
    cooling_since_ = now;
  }
  return finish(Status::ok());
}

size_t CpuEvict::runRealLimit(const framework::StrategyContext& context,
                              const CpuEvictConfig& config, api::Json& state) {
  const SatisfactionThresholds& thresholds = *config.satisfaction;
  state["policy"] = "evictByRealLimit";
  const auto window = std::chrono::duration_cast<std::chrono::milliseconds>(thresholds.window);
  const auto max_age =
      std::chrono::duration_cast<std::chrono::milliseconds>(2 * options_.collect_interval);

  double request_milli = 0;
  double usage_window_milli = 0;
  double usage_current_milli = 0;
  size_t samples = 0;
  bool any_current = false;
  std::vector<framework::EvictionCandidate> candidates;
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    const api::core::Pod& pod = *entry.pod;
    if (!isBE(pod) || !isRunning(pod)) {
      continue;
    }
    const int64_t request = batchCpuRequestMilli(pod);
    request_milli += static_cast<double>(request);
    if (auto aggregate = context.metrics.window(MetricKind::kPodCpu, pod.metadata.uid, window)) {
      usage_window_milli += aggregate->avg * 1000;
      samples = std::max(samples, aggregate->count);
    }
    std::string usage_text = "no recent cpu sample";
    if (auto latest = context.metrics.latest(MetricKind::kPodCpu, pod.metadata.uid);
        latest && latest->time + max_age >= context.metrics.now()) {
      usage_current_milli += latest->value * 1000;
      any_current = true;
      usage_text = "cpu usage " + formatCores(latest->value * 1000);
    }
    if (priorityAllowed(pod, config.evict_priority_threshold)) {
      candidates.push_back(
          {entry.pod, static_cast<double>(request) / 1000,
           "batch-cpu request " + formatCores(static_cast<double>(request)) + ", " + usage_text});
    }
  }
  std::optional<RealLimit> limit = beRealLimit(context.shared, context.cpus);
  state["request_milli"] = std::llround(request_milli);
  state["usage_window_milli"] = std::llround(usage_window_milli);
  state["usage_window_samples"] = samples;
  state["usage_current_milli"] = std::llround(usage_current_milli);
  usage_gauge_.set(usage_window_milli / 1000);
  if (!limit) {
    state["decision"] = "skipped: BE real limit unknown (no suppress decision, no BE pool)";
    return 0;
  }
  state["real_limit_milli"] = std::llround(limit->milli);
  state["real_limit_source"] = limit->source;
  real_limit_gauge_.set(limit->milli / 1000);
  if (request_milli <= 0) {
    state["decision"] = "no Running BE pod requests kubernetes.io/batch-cpu";
    return 0;
  }
  const double rate = satisfaction(limit->milli, request_milli);
  state["satisfaction"] = rate;
  satisfaction_gauge_.set(rate);
  const bool valid = windowValid(samples, options_.collect_interval, thresholds.window);
  state["window_valid"] = valid;
  if (!valid) {
    state["decision"] = "skipped: " + std::to_string(samples) + " CPU sample(s) in the " +
                        std::to_string(thresholds.window.count()) +
                        " s window, fewer than a third of it";
    return 0;
  }
  if (!any_current) {
    state["decision"] =
        "skipped: no BE CPU sample in the last " + std::to_string(max_age.count()) + " ms";
    return 0;
  }
  const int64_t release = releaseMilliBySatisfaction(request_milli, limit->milli, thresholds);
  state["release_milli"] = release;
  if (release <= 0) {
    state["decision"] = "satisfaction above the lower percent";
    return 0;
  }
  if (!usageHighEnough(usage_window_milli, limit->milli, thresholds.usage_threshold_percent)) {
    state["decision"] = "BE usage over the window below the usage threshold";
    return 0;
  }
  if (!usageHighEnough(usage_current_milli, limit->milli, thresholds.usage_threshold_percent)) {
    state["decision"] = "BE usage now below the usage threshold";
    return 0;
  }
  state["candidates"] = candidatesJson(candidates);
  if (candidates.empty()) {
    state["decision"] = "unsatisfied, but no BE pod may be evicted";
    return 0;
  }
  release_gauge_.set(static_cast<double>(release) / 1000);

  framework::EvictionRequest request;
  request.reason = std::string(kReasonBECPUSatisfaction);
  request.message =
      "BE CPU satisfaction " + fixed(rate, 2) + " (real limit " + formatCores(limit->milli) +
      " from the " + limit->source + " / requests " + formatCores(request_milli) + ") <= lower " +
      fixed(static_cast<double>(thresholds.lower_percent) / 100, 2) + " and BE uses " +
      percentText(usage_window_milli * 100 / limit->milli) + " of the real limit over " +
      std::to_string(thresholds.window.count()) +
      " s (>= " + std::to_string(thresholds.usage_threshold_percent) + "%), releasing " +
      formatCores(static_cast<double>(release)) + " of requests to reach " +
      fixed(static_cast<double>(thresholds.upper_percent) / 100, 2);
  request.release = static_cast<double>(release) / 1000;
  request.candidates = std::move(candidates);
  state["decision"] = "unsatisfied: evicting";
  return evict(context, std::move(request), state);
}

size_t CpuEvict::runAllocatable(const framework::StrategyContext& context,
                                const api::core::Node& node,
                                const AllocatableThresholds& thresholds, api::Json& state) {
  state["policy"] = "evictByAllocatable";
  auto it = node.status.allocatable.find(api::kResourceBatchCPU);
  if (it == node.status.allocatable.end()) {
    state["decision"] = "skipped: the Node has no kubernetes.io/batch-cpu allocatable";
    return 0;
  }
  const int64_t allocatable = it->second.value();
  int64_t requested = 0;
  std::vector<framework::EvictionCandidate> candidates;
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    const api::core::Pod& pod = *entry.pod;
    if (!isBE(pod) || isTerminal(pod) || !priorityAllowed(pod, thresholds.priority_threshold)) {
      continue;
    }
    const int64_t request = batchCpuRequestMilli(pod);
    requested += request;
    if (isRunning(pod) && request > 0) {
      candidates.push_back({entry.pod, static_cast<double>(request) / 1000,
                            "batch-cpu request " + formatCores(static_cast<double>(request))});
    }
  }
  const double percent = allocatablePercent(requested, allocatable);
  const int64_t release = allocatableReleaseMilli(requested, allocatable, thresholds);
  state["requested_milli"] = requested;
  state["allocatable_milli"] = allocatable;
  state["requested_percent"] = std::isinf(percent) ? api::Json("inf") : api::Json(percent);
  state["release_milli"] = release;
  allocatable_percent_gauge_.set(percent);
  if (release <= 0) {
    state["decision"] = "below the threshold";
    return 0;
  }
  state["candidates"] = candidatesJson(candidates);
  if (candidates.empty()) {
    state["decision"] = "over the threshold, but no running BE pod may be evicted";
    return 0;
  }
  release_gauge_.set(static_cast<double>(release) / 1000);

  framework::EvictionRequest request;
  request.reason = std::string(kReasonBECPUAllocatable);
  request.message = "BE batch-cpu requests " + percentText(percent) +
                    " of allocatable > threshold " + std::to_string(thresholds.threshold_percent) +
                    "%, releasing " + formatCores(static_cast<double>(release)) +
                    " of requests to reach " + std::to_string(thresholds.lower_percent) + "% (" +
                    formatCores(static_cast<double>(requested)) + " requested of " +
                    formatCores(static_cast<double>(allocatable)) + " allocatable)";
  request.release = static_cast<double>(release) / 1000;
  request.candidates = std::move(candidates);
  state["decision"] = "over the threshold: evicting";
  return evict(context, std::move(request), state);
}

size_t CpuEvict::evict(const framework::StrategyContext& context,
                       framework::EvictionRequest request, api::Json& state) {
  framework::EvictionReport report = context.evictor.evict(request);
  api::Json outcomes = framework::outcomesJson(report);
  state["outcomes"] = outcomes;
  state["released_milli"] = std::llround(report.released * 1000);
  if (!report.outcomes.empty()) {
    last_eviction_ = LastEviction{context.clock.now(), request.reason, report.released,
                                  report.evicted, std::move(outcomes)};
  }
  if (report.evicted > 0) {
    state["decision"] = "evicted " + std::to_string(report.evicted) + " pod(s)";
  }
  logger_.info("BE CPU eviction", {{"reason", request.reason},
                                   {"message", request.message},
                                   {"evicted", report.evicted},
                                   {"released_cores", report.released}});
  return report.evicted;
}

}  // namespace koord::agent::qosmanager::strategies::cpu_evict
