#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_config.hpp"

#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {

using api::slo::CPUBurstPolicy;

bool cpuBurstEnabled(CPUBurstPolicy policy) {
  return policy == CPUBurstPolicy::kCPUBurstOnly || policy == CPUBurstPolicy::kAuto;
}

bool cfsQuotaBurstEnabled(CPUBurstPolicy policy) {
  return policy == CPUBurstPolicy::kCFSQuotaBurstOnly || policy == CPUBurstPolicy::kAuto;
}

BurstConfig mergeConfig(const BurstConfig& base, const api::slo::CPUBurstStrategy& strategy) {
  BurstConfig out = base;
  out.policy = strategy.policy.value_or(out.policy);
  out.cpu_burst_percent = strategy.cpuBurstPercent.value_or(out.cpu_burst_percent);
  out.cfs_quota_burst_percent = strategy.cfsQuotaBurstPercent.value_or(out.cfs_quota_burst_percent);
  out.cfs_quota_burst_period_seconds =
      strategy.cfsQuotaBurstPeriodSeconds.value_or(out.cfs_quota_burst_period_seconds);
  out.share_pool_threshold_percent =
      strategy.sharePoolThresholdPercent.value_or(out.share_pool_threshold_percent);
  return out;
}

Status validateConfig(const BurstConfig& config, const std::string& path) {
  auto bad = [&](const char* field, const char* rule, int64_t value) {
    return Status::invalidArgument(path + "." + field + ": " + rule + ", got " +
                                   std::to_string(value));
  };
  if (config.cpu_burst_percent <= 0) {
    return bad("cpuBurstPercent", "must be greater than 0", config.cpu_burst_percent);
  }
  if (config.cfs_quota_burst_percent <= 0) {
    return bad("cfsQuotaBurstPercent", "must be greater than 0", config.cfs_quota_burst_percent);
  }
  if (config.share_pool_threshold_percent <= 0 || config.share_pool_threshold_percent > 100) {
    return bad("sharePoolThresholdPercent", "must be in (0, 100]",
               config.share_pool_threshold_percent);
  }
  return Status::ok();
}

Result<BurstConfig> nodeConfig(const api::slo::NodeSLO& node_slo) {
  if (!node_slo.spec.cpuBurstStrategy.has_value()) {
    // koord-manager always writes the section; a NodeSLO written without it (by hand) means
    // koordlet's defaults: policy none, which undoes what an earlier policy wrote.
    return BurstConfig{};
  }
  BurstConfig config = mergeConfig(BurstConfig{}, *node_slo.spec.cpuBurstStrategy);
  KOORD_RETURN_IF_ERROR(validateConfig(config, "spec.cpuBurstStrategy"));
  return config;
}

PodConfig podConfig(const BurstConfig& node,
                    const std::map<std::string, std::string>& annotations) {
  PodConfig out{node, false, std::nullopt};
  auto it = annotations.find(std::string(api::kAnnotationCPUBurst));
  if (it == annotations.end()) {
    return out;
  }
  const std::string path = "annotations[" + std::string(api::kAnnotationCPUBurst) + "]";
  auto parsed = api::parseJson(it->second);
  if (!parsed.ok()) {
    out.error = path + ": " + parsed.status().message();
    return out;
  }
  api::slo::CPUBurstStrategy strategy;
  if (Status s = api::slo::fromJson(*parsed, strategy, path); !s.isOk()) {
    out.error = s.message();
    return out;
  }
  BurstConfig merged = mergeConfig(node, strategy);
  if (Status s = validateConfig(merged, path); !s.isOk()) {
    out.error = s.message();
    return out;
  }
  out.config = merged;
  out.from_annotation = true;
  return out;
}

api::Json toJson(const BurstConfig& config) {
  return api::Json{{"policy", std::string(api::slo::toString(config.policy))},
                   {"cpuBurstPercent", config.cpu_burst_percent},
                   {"cfsQuotaBurstPercent", config.cfs_quota_burst_percent},
                   {"cfsQuotaBurstPeriodSeconds", config.cfs_quota_burst_period_seconds},
                   {"sharePoolThresholdPercent", config.share_pool_threshold_percent}};
}

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
