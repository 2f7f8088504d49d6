#include "agent/qosmanager/strategies/cpu_suppress/cpu_suppress.hpp"

#include <algorithm>
#include <utility>

#include "agent/qosmanager/framework/strategy_metrics.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/be_cgroups.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/be_cpu_choice.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/suppress_formula.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/suppress_inputs.hpp"
#include "koord/api/well_known.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

void appendProblems(api::Json& debug, const std::vector<std::string>& problems) {
  for (const std::string& problem : problems) {
    debug["problems"].push_back(problem);
  }
}

}  // namespace

CpuSuppress::CpuSuppress(CpuSuppressOptions options, log::Logger logger,
                         metrics::MetricsRegistry* registry)
    : options_(options),
      logger_(std::move(logger)),
      cpus_gauge_(framework::strategyGauge(
          registry, logger_, std::string(kCpusMetric),
          "CPUs of the BestEffort cpuset under CPU suppress (policy cpuset; "
          "0 under cfsQuota or when suppress is off).")),
      quota_gauge_(
          framework::strategyGauge(registry, logger_, std::string(kQuotaMetric),
                                   "The BestEffort CFS quota in cores under CPU suppress (policy "
                                   "cfsQuota; -1 unlimited).")),
      milli_gauge_(framework::strategyGauge(
          registry, logger_, std::string(kMilliMetric),
          "The CPU BestEffort pods may use, in milli-cores, as CPU suppress "
          "last worked it out (0 when off).")) {}

void CpuSuppress::setGauges(double cpus, double quota_cores, double milli) const {
  cpus_gauge_.set(cpus);
  quota_gauge_.set(quota_cores);
  milli_gauge_.set(milli);
}

Status CpuSuppress::apply(const framework::StrategyContext& context,
                          std::vector<resourceexecutor::ResourceUpdate> updates) {
  last_["updates"] = static_cast<int64_t>(updates.size());
  if (updates.empty()) {
    return Status::ok();
  }
  Status status = context.executor.updateBatch(std::move(updates));
  if (status.code() == StatusCode::kNotFound) {
    // A pod ended while we wrote: its folder is gone, the others were written.
    last_["vanished"] = status.message();
    logger_.debug("a BE cgroup vanished during CPU suppress", {{"error", status}});
    return Status::ok();
  }
  return status;
}

Status CpuSuppress::run(const framework::StrategyContext& context) {
  last_ = api::Json::object();
  auto slo = context.states.nodeSLO();
  Result<SuppressConfig> config =
      slo == nullptr ? Result<SuppressConfig>(SuppressConfig{}) : suppressConfigFrom(*slo);
  if (!config.ok()) {
    last_["status"] = config.status().toString();
    return config.status();
  }
  last_["enabled"] = config->enabled;
  if (!config->enabled) {
    Status status = runDisabled(context);
    last_["status"] = status.toString();
    return status;
  }
  last_["policy"] = std::string(api::slo::toString(config->policy));
  last_["threshold_percent"] = config->threshold_percent;
  last_["min_percent"] =
      config->min_percent.has_value() ? api::Json(*config->min_percent) : api::Json();

  auto node = context.states.node();
  if (node == nullptr) {
    last_["skipped"] = "no Node yet";
    last_["status"] = "ok";
    return Status::ok();
  }
  const int64_t topology_cpus = static_cast<int64_t>(context.node.topology.cpus.size());
  int64_t capacity_milli = resource::get(node->status.capacity, api::kResourceCPU).milliValue();
  if (capacity_milli <= 0) {
    capacity_milli = topology_cpus * 1000;
  }
  if (capacity_milli <= 0) {
    last_["skipped"] = "the node's CPU capacity is not known (no status.capacity.cpu, no topology)";
    last_["status"] = "ok";
    return Status::ok();
  }
  const int64_t capacity_cores = (capacity_milli + 999) / 1000;
  last_["capacity_milli"] = capacity_milli;

  const UsageSnapshot usage =
      collectUsage(context.metrics, context.pods, options_.metric_freshness);
  if (!usage.node_cores.has_value()) {
    last_["skipped"] = "no node CPU usage sample in the last " +
                       std::to_string(options_.metric_freshness.count()) + " ms";
    last_["status"] = "ok";
    return Status::ok();
  }
  const NodeReservedCpu reserved = nodeReservedCpu(*node);
  if (!reserved.problem.empty()) {
    last_["problems"].push_back("node reservation ignored: " + reserved.problem);
  }
  SuppressInputs inputs;
  inputs.capacity_milli = capacity_milli;
  inputs.threshold_percent = config->threshold_percent;
  inputs.min_percent = config->min_percent;
  inputs.ls_usage_cores = usage.ls_cores;
  inputs.host_app_usage_cores = 0;  // host applications' usage is not collected (see inputs)
  inputs.system_usage_cores = usage.system_cores;
  inputs.node_reserved_milli = reserved.milli();
  const SuppressFigure figure = suppressFigure(inputs);
  last_["node_usage_milli"] = static_cast<int64_t>(*usage.node_cores * 1000);
  last_["ls_usage_milli"] = figure.ls_milli;
  last_["be_usage_milli"] = static_cast<int64_t>(usage.be_cores * 1000);
  last_["system_usage_milli"] = static_cast<int64_t>(usage.system_cores * 1000);
  last_["node_reserved_milli"] = {{"annotation", reserved.annotation_milli},
                                  {"kubelet", reserved.kubelet_milli}};
  last_["suppress_milli"] = figure.milli;
  last_["floored"] = figure.floored;

  Status status;
  if (config->policy == api::slo::CPUSuppressPolicy::kCFSQuota) {
    status = runCfsQuota(context, figure.milli, capacity_cores);
  } else {
    const int64_t online = static_cast<int64_t>(context.cpus.online.size());
    const int64_t num_cpus = topology_cpus > 0 ? topology_cpus
                             : online > 0      ? online
                                               : capacity_cores;
    status = runCpuset(context, *config, figure.milli, num_cpus);
  }
  last_["status"] = status.toString();
  if (!status.isOk()) {
    logger_.warn("CPU suppress failed", {{"error", status}});
  }
  return status;
}

Status CpuSuppress::runDisabled(const framework::StrategyContext& context) {
  std::vector<resourceexecutor::ResourceUpdate> updates;
  const bool reset_cpuset = cpuset_ != Applied::kRecovered;
  const bool reset_quota = quota_ != Applied::kRecovered;
  const cpuset::CpuSet pool = bePool(context.cpus, context.node.topology);
  bool cpuset_done = !reset_cpuset;
  if (reset_cpuset && !pool.empty()) {
    CgroupUpdates cpusets = beCpusetUpdates(context.node.naming, context.pods, pool,
                                            "cpu_suppress: off, BE back to the BE pool");
    updates = std::move(cpusets.updates);
    appendProblems(last_, cpusets.problems);
    cpuset_done = true;
  } else if (reset_cpuset) {
    last_["problems"].push_back("the BE pool is not known yet: BE cpusets not reset");
  }
  if (reset_quota) {
    updates.push_back(beQuotaUpdate(context.node.naming, kUnlimitedQuota,
                                    "cpu_suppress: off, BE quota unlimited"));
  }
  last_["reset"] = !updates.empty();
  Status status = apply(context, std::move(updates));
  if (status.isOk()) {
    if (cpuset_done) {
      cpuset_ = Applied::kRecovered;
    }
    quota_ = Applied::kRecovered;
    last_cpuset_.reset();
    last_quota_ = kUnlimitedQuota;
  }
  context.shared.be_cpuset.reset();
  context.shared.be_cfs_quota_us.reset();
  setGauges(0, -1, 0);
  return status;
}

Status CpuSuppress::runCpuset(const framework::StrategyContext& context,
                              const SuppressConfig& config, int64_t suppress_milli,
                              int64_t num_cpus) {
  const cpuset::CpuSet pool = bePool(context.cpus, context.node.topology);
  const ExclusiveCpus exclusive = lseLsrCpus(context.pods);
  appendProblems(last_, exclusive.problems);
  const cpuset::CpuSet candidates = pool.difference(exclusive.cpus);
  last_["candidates"] = candidates.toString();
  if (candidates.empty()) {
    last_["skipped"] =
        pool.empty() ? "the BE pool is not known yet" : "no CPU left for BE outside LSE/LSR pods";
    return Status::ok();
  }
  const int64_t current =
      static_cast<int64_t>(last_cpuset_.has_value() ? last_cpuset_->size() : candidates.size());
  const int64_t count =
      cpusetTarget(suppress_milli, current, num_cpus, static_cast<int64_t>(candidates.size()));
  const cpuset::CpuSet chosen = chooseBeCpus(count, candidates, context.node.topology);
  last_["be_cpus"] = static_cast<int64_t>(chosen.size());
  last_["be_cpuset"] = chosen.toString();

  std::string reason = "cpu_suppress: BE may use " + std::to_string(suppress_milli) + "m (" +
                       std::to_string(config.threshold_percent) +
                       "% threshold): " + std::to_string(chosen.size()) + " CPUs";
  CgroupUpdates cpusets = beCpusetUpdates(context.node.naming, context.pods, chosen, reason);
  appendProblems(last_, cpusets.problems);
  std::vector<resourceexecutor::ResourceUpdate> updates = std::move(cpusets.updates);
  const bool reset_quota = quota_ != Applied::kRecovered;
  if (reset_quota) {
    updates.push_back(beQuotaUpdate(context.node.naming, kUnlimitedQuota,
                                    "cpu_suppress: policy cpuset, BE quota unlimited"));
  }
  last_["reset"] = reset_quota;
  Status status = apply(context, std::move(updates));
  if (!status.isOk()) {
    return status;
  }
  cpuset_ = Applied::kUsing;
  last_cpuset_ = chosen;
  quota_ = Applied::kRecovered;
  last_quota_ = kUnlimitedQuota;
  context.shared.be_cpuset = chosen;
  context.shared.be_cfs_quota_us.reset();
  setGauges(static_cast<double>(chosen.size()), -1, static_cast<double>(suppress_milli));
  return Status::ok();
}

Status CpuSuppress::runCfsQuota(const framework::StrategyContext& context, int64_t suppress_milli,
                                int64_t capacity_cores) {
  const QuotaDecision decision = cfsQuotaDecision(suppress_milli, last_quota_, capacity_cores);
  std::vector<resourceexecutor::ResourceUpdate> updates;
  if (decision.write.has_value()) {
    updates.push_back(beQuotaUpdate(
        context.node.naming, *decision.write,
        "cpu_suppress: BE may use " + std::to_string(suppress_milli) + "m: cfs quota" +
            (decision.step_limited ? " (increase limited to 10% of the node)" : "")));
  } else {
    last_["skipped"] = decision.skipped;
  }
  const bool reset_cpuset = cpuset_ != Applied::kRecovered;
  const cpuset::CpuSet pool = bePool(context.cpus, context.node.topology);
  bool cpuset_done = !reset_cpuset;
  if (reset_cpuset && !pool.empty()) {
    CgroupUpdates cpusets =
        beCpusetUpdates(context.node.naming, context.pods, pool,
                        "cpu_suppress: policy cfsQuota, BE back to the BE pool");
    appendProblems(last_, cpusets.problems);
    updates.insert(updates.end(), cpusets.updates.begin(), cpusets.updates.end());
    cpuset_done = true;
  } else if (reset_cpuset) {
    last_["problems"].push_back("the BE pool is not known yet: BE cpusets not reset");
  }
  last_["reset"] = reset_cpuset && cpuset_done;
  Status status = apply(context, std::move(updates));
  if (!status.isOk()) {
    return status;
  }
  if (decision.write.has_value()) {
    last_quota_ = *decision.write;
    quota_ = Applied::kUsing;
  }
  if (cpuset_done) {
    cpuset_ = Applied::kRecovered;
    last_cpuset_.reset();
  }
  last_["be_cfs_quota_us"] = last_quota_;
  context.shared.be_cpuset.reset();
  if (last_quota_ == kUnlimitedQuota) {
    context.shared.be_cfs_quota_us.reset();
  } else {
    context.shared.be_cfs_quota_us = last_quota_;
  }
  setGauges(0,
            last_quota_ == kUnlimitedQuota
                ? -1.0
                : static_cast<double>(last_quota_) / static_cast<double>(kCfsPeriodUs),
            static_cast<double>(suppress_milli));
  return Status::ok();
}

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
