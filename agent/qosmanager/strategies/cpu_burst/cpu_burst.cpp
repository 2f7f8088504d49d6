#include "agent/qosmanager/strategies/cpu_burst/cpu_burst.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {

namespace {

using metriccache::MetricKind;
using resourceexecutor::CgroupResource;
using resourceexecutor::ResourceUpdate;

// How far back node and pod usage is averaged: koordlet's min(5 × interval, 10 s).
std::chrono::milliseconds usageWindow(Clock::Duration interval) {
  return std::min(std::chrono::duration_cast<std::chrono::milliseconds>(interval * 5),
                  std::chrono::milliseconds(10000));
}

// The cpu limit of a container in milli-cores; 0 when it has none.
int64_t cpuLimitMilli(const api::core::Container& container) {
  auto it = container.resources.limits.find(api::kResourceCPU);
  return it == container.resources.limits.end() ? 0 : std::max<int64_t>(0, it->second.milliValue());
}

bool qualifies(const api::core::Pod& pod) {
  const api::QoSClass qos = api::qosClassOf(pod.metadata.labels);
  if (qos == api::QoSClass::kLSE || qos == api::QoSClass::kLSR || qos == api::QoSClass::kBE) {
    return false;
  }
  return pod.status.phase == "Pending" || pod.status.phase == "Running";
}

template <typename Metric>
Metric orNone(Result<Metric> metric, const log::Logger& logger, std::string_view name) {
  if (!metric.ok()) {
    logger.warn("cannot register metric", {{"metric", name}, {"error", metric.status()}});
    return Metric();
  }
  return *metric;
}

}  // namespace

CpuBurst::CpuBurst(Clock::Duration interval, log::Logger logger, metrics::MetricsRegistry* registry)
    : interval_(interval), logger_(std::move(logger)) {
  if (registry == nullptr) {
    return;
  }
  auto scaled = registry->counterFamily(std::string(kScaledMetric),
                                        "Containers whose CFS quota CPU burst raised or lowered.",
                                        {"direction"});
  if (scaled.ok()) {
    scaled_up_ = orNone(scaled->withLabels({"up"}), logger_, kScaledMetric);
    scaled_down_ = orNone(scaled->withLabels({"down"}), logger_, kScaledMetric);
  } else {
    logger_.warn("cannot register metric", {{"metric", kScaledMetric}, {"error", scaled.status()}});
  }
  throttled_gauge_ = orNone(registry->gauge(std::string(kThrottledMetric),
                                            "Containers under CFS quota burst throttled since "
                                            "the previous CPU burst run."),
                            logger_, kThrottledMetric);
  share_pool_gauge_ = orNone(registry->gauge(std::string(kSharePoolStateMetric),
                                             "The CPU share pool's state for CPU burst: 0 idle, "
                                             "1 cooling, 2 overload, 3 unknown."),
                             logger_, kSharePoolStateMetric);
  unsupported_gauge_ = orNone(registry->gauge(std::string(kUnsupportedMetric),
                                              "1 when a pod asked for cpu.cfs_burst_us and the "
                                              "kernel has none."),
                              logger_, kUnsupportedMetric);
}

CpuBurst::SharePool CpuBurst::sharePool(const framework::StrategyContext& context,
                                        int64_t threshold_percent) const {
  SharePool pool;
  const std::chrono::milliseconds window = usageWindow(interval_);
  pool.node_cores =
      static_cast<double>(!context.node.topology.cpus.empty() ? context.node.topology.cpus.size()
                                                              : context.cpus.online.size());
  auto node_used = context.metrics.window(MetricKind::kNodeCpu, "", window);
  if (!node_used.has_value() || pool.node_cores <= 0) {
    return pool;  // unknown
  }
  pool.node_used = node_used->avg;
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    const api::core::Pod& pod = *entry.pod;
    if (entry.terminal()) {
      continue;
    }
    const api::QoSClass qos = api::qosClassOf(pod.metadata.labels);
    const bool exclusive = qos == api::QoSClass::kLSE || qos == api::QoSClass::kLSR;
    if (exclusive) {
      auto requests = api::core::podRequests(pod);
      if (requests.ok()) {
        pool.excluded_requests +=
            static_cast<double>(resource::get(*requests, api::kResourceCPU).milliValue()) / 1000;
      }
    }
    if (exclusive || qos == api::QoSClass::kBE) {
      auto used = context.metrics.window(MetricKind::kPodCpu, pod.metadata.uid, window);
      if (used.has_value()) {
        pool.excluded_used += used->avg;
      }
    }
  }
  pool.ratio = sharePoolUsageRatio(pool.node_used, pool.excluded_used, pool.node_cores,
                                   pool.excluded_requests);
  pool.state = sharePoolState(pool.ratio, threshold_percent);
  return pool;
}

double CpuBurst::usagePercent(const framework::StrategyContext& context, const std::string& id,
                              int64_t limit_milli, const ContainerState& state) const {
  auto sample = context.metrics.latest(MetricKind::kContainerCpu, id);
  if (sample.has_value() && sample->time >= context.metrics.now() - usageWindow(interval_)) {
    return sample->value * 1000 / static_cast<double>(limit_milli) * 100;
  }
  // No recent usage: assume it used all of its current quota.
  return static_cast<double>(state.quota_us) / static_cast<double>(state.base_us) * 100;
}

void CpuBurst::warnBadAnnotation(const api::core::Pod& pod, const std::string& error) {
  auto it = pod.metadata.annotations.find(std::string(api::kAnnotationCPUBurst));
  const std::string text = it == pod.metadata.annotations.end() ? "" : it->second;
  auto [warned, inserted] = warned_annotations_.try_emplace(pod.metadata.uid, text);
  if (!inserted && warned->second == text) {
    return;
  }
  warned->second = text;
  logger_.warn("ignoring the pod's cpuBurst annotation, using the node's policy",
               {{"pod", pod.metadata.namespace_ + "/" + pod.metadata.name}, {"error", error}});
}

void CpuBurst::reportUnsupported() {
  if (unsupported_reported_) {
    return;
  }
  unsupported_reported_ = true;
  unsupported_gauge_.set(1);
  logger_.warn(
      "the kernel has no cpu.cfs_burst_us (cpu.max.burst): the cpuBurstOnly part of CPU burst is "
      "skipped");
}

void CpuBurst::runPod(const framework::StrategyContext& context,
                      const resourceexecutor::PodCgroup& entry, const BurstConfig& node_config,
                      SharePoolState node_state, RunTally& tally) {
  const api::core::Pod& pod = *entry.pod;
  const std::string who = pod.metadata.namespace_ + "/" + pod.metadata.name;
  if (!qualifies(pod) || !entry.dir.ok()) {
    return;  // not ours: its containers' state is forgotten
  }
  const PodConfig pod_config = podConfig(node_config, pod.metadata.annotations);
  if (pod_config.error.has_value()) {
    warnBadAnnotation(pod, *pod_config.error);
  } else {
    warned_annotations_.erase(pod.metadata.uid);
  }
  const BurstConfig& config = pod_config.config;
  const bool want_quota = cfsQuotaBurstEnabled(config.policy);
  bool want_burst = cpuBurstEnabled(config.policy);
  if (want_burst && !context.node.cfs_burst) {
    reportUnsupported();
    want_burst = false;
  }

  // The kubelet's pod quota: the pod's cpu limit × period, unlimited when a container has none.
  bool pod_unlimited = false;
  for (const api::core::Container& container : pod.spec.containers) {
    pod_unlimited = pod_unlimited || cpuLimitMilli(container) <= 0;
  }
  if (pod.spec.resources.has_value() &&
      pod.spec.resources->limits.contains(std::string(api::kResourceCPU))) {
    pod_unlimited = false;
  }
  int64_t pod_base = -1;
  if (!pod_unlimited) {
    auto limits = api::core::podLimits(pod);
    if (!limits.ok()) {
      logger_.warn("pod skipped: its limits do not add up",
                   {{"pod", who}, {"error", limits.status()}});
      return;
    }
    pod_base = baseQuotaUs(resource::get(*limits, api::kResourceCPU).milliValue());
  }

  struct Plan {
    const resourceexecutor::ContainerCgroup* cgroup = nullptr;
    ContainerState* state = nullptr;
    int64_t ceil_us = 0;
    int64_t quota_old = 0;
    int64_t quota_new = 0;
    bool write_quota = false;
    int64_t burst_new = 0;
    bool write_burst = false;
    bool throttled = false;
    std::string action;
  };
  std::vector<Plan> plans;
  const Clock::TimePoint now = context.clock.now();
  for (const api::core::Container& container : pod.spec.containers) {
    const int64_t limit_milli = cpuLimitMilli(container);
    const resourceexecutor::ContainerCgroup* cgroup = entry.container(container.name);
    if (limit_milli <= 0 || cgroup == nullptr || !cgroup->dir.ok()) {
      continue;
    }
    auto found = containers_.find(cgroup->id);
    if (!want_quota && !want_burst && found == containers_.end()) {
      continue;  // nothing asked, nothing to undo
    }
    tally.seen.insert(cgroup->id);
    const int64_t base = baseQuotaUs(limit_milli);
    if (found == containers_.end()) {
      ContainerState fresh;
      fresh.pod_uid = pod.metadata.uid;
      fresh.base_us = base;
      fresh.quota_us = base;
      found = containers_.emplace(cgroup->id, std::move(fresh)).first;
    }
    ContainerState& state = found->second;
    if (state.base_us != base) {  // the limit was changed in place
      state.base_us = base;
      state.quota_us = std::max(state.quota_us, base);
    }
    Plan plan;
    plan.cgroup = cgroup;
    plan.state = &state;
    plan.ceil_us = ceilQuotaUs(base, config.cfs_quota_burst_percent);
    plan.quota_old = state.quota_us;
    plan.quota_new = state.quota_us;
    if (want_quota) {
      auto stats = context.node.reader.cpuThrottling(cgroup->dir->string());
      if (!stats.ok() && stats.status().code() == StatusCode::kNotFound) {
        tally.rows.push_back({{"pod", who},
                              {"container", container.name},
                              {"id", cgroup->id},
                              {"action", "skipped"},
                              {"reason", stats.status().message()}});
        continue;  // ended just now: its pod's batch would fail the same way
      }
      if (stats.ok()) {
        plan.throttled =
            state.nr_throttled.has_value() && stats->nr_throttled > *state.nr_throttled;
        state.nr_throttled = stats->nr_throttled;
      } else {
        logger_.debug("cannot read cpu.stat, taking the container as not throttled",
                      {{"pod", who}, {"container", container.name}, {"error", stats.status()}});
      }
      bool allowed = true;
      if (config.cfs_quota_burst_period_seconds >= 0) {
        if (!state.limiter.has_value()) {
          state.limiter.emplace(config.cfs_quota_burst_period_seconds,
                                config.cfs_quota_burst_percent, now);
        } else {
          state.limiter->updateIfChanged(config.cfs_quota_burst_period_seconds,
                                         config.cfs_quota_burst_percent, now);
        }
        allowed = state.limiter->allow(now, usagePercent(context, cgroup->id, limit_milli, state));
      } else {
        state.limiter.reset();
      }
      const ScaleAction action =
          adjustForNode(containerAction(plan.throttled, allowed), node_state);
      plan.quota_new = nextQuotaUs(state.quota_us, action, base, plan.ceil_us);
      plan.write_quota = true;
      plan.action = std::string(toString(action));
    } else {
      state.nr_throttled.reset();
      state.limiter.reset();
      if (state.quota_managed) {
        plan.quota_new = base;
        plan.write_quota = true;
        plan.action = std::string(toString(ScaleAction::kReset));
      }
    }
    if (want_burst) {
      plan.burst_new =
          cappedBurstUs(burstUs(limit_milli, config.cpu_burst_percent), plan.quota_new);
      plan.write_burst = true;
    } else if (state.burst_managed) {
      plan.burst_new = 0;
      plan.write_burst = true;
    }
    if (plan.action.empty()) {
      plan.action = plan.write_burst ? (want_burst ? "burst" : "reset") : "none";
    }
    if (plan.throttled) {
      ++tally.throttled;
    }
    plans.push_back(std::move(plan));
  }

  // The pod's quota and burst, before and after.
  int64_t pod_quota_old = pod_base;
  int64_t pod_burst_new = 0;
  bool write_pod_quota = false;
  bool write_pod_burst = false;
  for (const auto& [id, state] : containers_) {
    if (state.pod_uid == pod.metadata.uid && !pod_unlimited) {
      pod_quota_old += state.quota_us - state.base_us;
    }
  }
  int64_t pod_quota_new = pod_quota_old;
  for (const Plan& plan : plans) {
    if (!pod_unlimited) {
      pod_quota_new += plan.quota_new - plan.quota_old;
    }
    write_pod_quota = write_pod_quota || plan.write_quota;
    write_pod_burst = write_pod_burst || plan.write_burst;
    pod_burst_new += plan.write_burst ? plan.burst_new : plan.state->burst_us;
  }
  pod_burst_new = cappedBurstUs(pod_burst_new, pod_quota_new);

  std::vector<ResourceUpdate> updates;
  const std::filesystem::path& pod_dir = *entry.dir;
  auto container_updates = [&](const Plan& plan, bool falling) {
    const std::filesystem::path& dir = *plan.cgroup->dir;
    ResourceUpdate quota{CgroupResource::kCpuCfsQuota, dir, std::to_string(plan.quota_new),
                         "cpu_burst: " + who + " quota " + plan.action};
    ResourceUpdate burst{CgroupResource::kCpuBurst, dir, std::to_string(plan.burst_new),
                         "cpu_burst: " + who + " cfs burst"};
    if (falling && plan.write_burst) {
      updates.push_back(burst);
    }
    if (plan.write_quota) {
      updates.push_back(quota);
    }
    if (!falling && plan.write_burst) {
      updates.push_back(burst);
    }
  };
  for (const Plan& plan : plans) {
    if (plan.write_quota && plan.quota_new < plan.quota_old) {
      container_updates(plan, true);
    }
  }
  {
    ResourceUpdate quota{CgroupResource::kCpuCfsQuota, pod_dir, std::to_string(pod_quota_new),
                         "cpu_burst: " + who + " pod quota, the sum of its containers'"};
    ResourceUpdate burst{CgroupResource::kCpuBurst, pod_dir, std::to_string(pod_burst_new),
                         "cpu_burst: " + who + " pod cfs burst, the sum of its containers'"};
    const bool falling = pod_quota_new < pod_quota_old;
    if (falling && write_pod_burst) {
      updates.push_back(burst);
    }
    if (write_pod_quota) {
      updates.push_back(quota);
    }
    if (!falling && write_pod_burst) {
      updates.push_back(burst);
    }
  }
  for (const Plan& plan : plans) {
    if (!(plan.write_quota && plan.quota_new < plan.quota_old)) {
      container_updates(plan, false);
    }
  }

  Status status = Status::ok();
  if (!updates.empty()) {
    status = context.executor.updateBatch(std::move(updates));
  }
  const bool applied = status.isOk();
  if (!applied && status.code() == StatusCode::kNotFound) {
    logger_.debug("pod cgroup vanished, skipped", {{"pod", who}, {"error", status}});
  } else if (!applied) {
    if (tally.first_error.isOk()) {
      tally.first_error = status;
    }
    tally.errors.push_back(who + ": " + status.message());
  }
  for (Plan& plan : plans) {
    ContainerState& state = *plan.state;
    if (applied) {
      if (plan.quota_new > plan.quota_old) {
        scaled_up_.inc();
      } else if (plan.quota_new < plan.quota_old) {
        scaled_down_.inc();
      }
      state.quota_us = plan.quota_new;
      state.quota_managed = want_quota;
      if (plan.write_burst) {
        state.burst_us = plan.burst_new;
        state.burst_managed = want_burst;
      }
    }
    tally.rows.push_back({{"pod", who},
                          {"container", plan.cgroup->name},
                          {"id", plan.cgroup->id},
                          {"policy", std::string(api::slo::toString(config.policy))},
                          {"from_annotation", pod_config.from_annotation},
                          {"base", state.base_us},
                          {"ceil", plan.ceil_us},
                          {"quota", plan.quota_new},
                          {"burst", plan.write_burst ? plan.burst_new : state.burst_us},
                          {"throttled", plan.throttled},
                          {"action", plan.action},
                          {"applied", applied}});
    if (applied && !want_quota && !want_burst) {
      containers_.erase(plan.cgroup->id);  // reset done: forget it
      tally.seen.erase(plan.cgroup->id);
    }
  }
}

Status CpuBurst::run(const framework::StrategyContext& context) {
  std::shared_ptr<const api::slo::NodeSLO> node_slo = context.states.nodeSLO();
  if (node_slo == nullptr) {
    last_ = api::Json{{"error", "no NodeSLO"}};
    return Status::ok();
  }
  Result<BurstConfig> node_config = nodeConfig(*node_slo);
  if (!node_config.ok()) {
    last_ = api::Json{{"error", node_config.status().message()}};
    return node_config.status();
  }
  const SharePool pool = sharePool(context, node_config->share_pool_threshold_percent);
  RunTally tally;
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    runPod(context, entry, *node_config, pool.state, tally);
  }
  // Forget containers that left (or whose pod no longer qualifies), and pods' warnings.
  std::set<std::string, std::less<>> live_pods;
  for (const resourceexecutor::PodCgroup& entry : context.pods.pods()) {
    live_pods.insert(entry.pod->metadata.uid);
  }
  std::erase_if(containers_, [&](const auto& item) { return !tally.seen.contains(item.first); });
  std::erase_if(warned_annotations_,
                [&](const auto& item) { return !live_pods.contains(item.first); });

  throttled_gauge_.set(static_cast<double>(tally.throttled));
  share_pool_gauge_.set(static_cast<double>(static_cast<int>(pool.state)));
  api::Json share_pool{{"state", std::string(toString(pool.state))},
                       {"node_used_cores", pool.node_used},
                       {"excluded_used_cores", pool.excluded_used},
                       {"node_cores", pool.node_cores},
                       {"excluded_request_cores", pool.excluded_requests},
                       {"threshold_percent", node_config->share_pool_threshold_percent}};
  share_pool["usage_ratio"] = pool.ratio.has_value() ? api::Json(*pool.ratio) : api::Json();
  last_ = api::Json{{"policy", std::string(api::slo::toString(node_config->policy))},
                    {"config", toJson(*node_config)},
                    {"share_pool", share_pool},
                    {"containers", tally.rows},
                    {"errors", tally.errors},
                    {"cfs_burst_supported", context.node.cfs_burst}};
  if (!tally.errors.empty()) {
    return Status(tally.first_error.code(), "failed to apply CPU burst to " +
                                                std::to_string(tally.errors.size()) +
                                                " pod(s): " + tally.errors.front());
  }
  return Status::ok();
}

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
