#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_config.hpp"

#include <algorithm>
#include <string>

namespace koord::agent::qosmanager::strategies::cpu_evict {

namespace {

constexpr const char* kSection = "resourceUsedThresholdWithBE.";

Status invalid(const char* field, int64_t value, const std::string& rule) {
  return Status::invalidArgument(std::string(kSection) + field + " (" + std::to_string(value) +
                                 ") " + rule);
}

Status missing(const char* field, const char* policy) {
  return Status::invalidArgument(std::string(kSection) + field + " is required by cpuEvictPolicy " +
                                 policy);
}

Result<SatisfactionThresholds> satisfactionThresholds(
    const api::slo::ResourceThresholdStrategy& section, std::chrono::seconds collect_interval) {
  if (!section.cpuEvictBESatisfactionLowerPercent) {
    return missing("cpuEvictBESatisfactionLowerPercent", "evictByRealLimit");
  }
  if (!section.cpuEvictBESatisfactionUpperPercent) {
    return missing("cpuEvictBESatisfactionUpperPercent", "evictByRealLimit");
  }
  SatisfactionThresholds out;
  out.lower_percent = *section.cpuEvictBESatisfactionLowerPercent;
  out.upper_percent = *section.cpuEvictBESatisfactionUpperPercent;
  if (out.lower_percent <= 0 || out.lower_percent > kSatisfactionLowerMaxPercent) {
    return invalid("cpuEvictBESatisfactionLowerPercent", out.lower_percent,
                   "must be in (0, " + std::to_string(kSatisfactionLowerMaxPercent) + "]");
  }
  if (out.upper_percent <= 0 || out.upper_percent >= kSatisfactionUpperMaxPercent) {
    return invalid("cpuEvictBESatisfactionUpperPercent", out.upper_percent,
                   "must be in (0, " + std::to_string(kSatisfactionUpperMaxPercent) + ")");
  }
  if (out.upper_percent < out.lower_percent) {
    return invalid("cpuEvictBESatisfactionUpperPercent", out.upper_percent,
                   "must be >= cpuEvictBESatisfactionLowerPercent (" +
                       std::to_string(out.lower_percent) + ")");
  }
  out.usage_threshold_percent =
      section.cpuEvictBEUsageThresholdPercent.value_or(kDefaultBEUsageThresholdPercent);
  if (out.usage_threshold_percent <= 0 || out.usage_threshold_percent > 100) {
    return invalid("cpuEvictBEUsageThresholdPercent", out.usage_threshold_percent,
                   "must be in (0, 100]");
  }
  out.window = collect_interval;
  if (section.cpuEvictTimeWindowSeconds) {
    if (*section.cpuEvictTimeWindowSeconds <= 0) {
      return invalid("cpuEvictTimeWindowSeconds", *section.cpuEvictTimeWindowSeconds,
                     "must be > 0");
    }
    out.window =
        std::max(collect_interval, std::chrono::seconds(*section.cpuEvictTimeWindowSeconds));
  }
  return out;
}

Result<AllocatableThresholds> allocatableThresholds(
    const api::slo::ResourceThresholdStrategy& section) {
  if (!section.cpuAllocatableEvictThresholdPercent) {
    return missing("cpuAllocatableEvictThresholdPercent", "evictByAllocatable");
  }
  AllocatableThresholds out;
  out.threshold_percent = *section.cpuAllocatableEvictThresholdPercent;
  if (out.threshold_percent <= 0) {
    return invalid("cpuAllocatableEvictThresholdPercent", out.threshold_percent, "must be > 0");
  }
  out.lower_percent = section.cpuAllocatableEvictLowerPercent.value_or(
      std::max<int64_t>(0, out.threshold_percent - kReleaseBufferPercent));
  if (out.lower_percent < 0 || out.lower_percent >= out.threshold_percent) {
    return invalid("cpuAllocatableEvictLowerPercent", out.lower_percent,
                   "must be in [0, cpuAllocatableEvictThresholdPercent " +
                       std::to_string(out.threshold_percent) + ")");
  }
  out.priority_threshold = section.allocatableEvictPriorityThreshold;
  if (out.priority_threshold && *out.priority_threshold > kMaxAllocatableEvictPriority) {
    return invalid("allocatableEvictPriorityThreshold", *out.priority_threshold,
                   "must be at most " + std::to_string(kMaxAllocatableEvictPriority) +
                       " (koord-prod pods are never evicted)");
  }
  return out;
}

}  // namespace

bool cpuEvictEnabled(const api::slo::NodeSLO* node_slo) {
  if (node_slo == nullptr || !node_slo->spec.resourceUsedThresholdWithBE.has_value()) {
    return false;
  }
  const api::slo::ResourceThresholdStrategy& section = *node_slo->spec.resourceUsedThresholdWithBE;
  if (!section.enable.value_or(false)) {
    return false;
  }
  if (section.cpuEvictPolicy.value_or(api::slo::CPUEvictPolicy::kEvictByRealLimit) ==
      api::slo::CPUEvictPolicy::kEvictByAllocatable) {
    return section.cpuAllocatableEvictThresholdPercent.has_value();
  }
  return section.cpuEvictBESatisfactionLowerPercent.has_value() ||
         section.cpuEvictBESatisfactionUpperPercent.has_value();
}

Result<CpuEvictConfig> cpuEvictConfig(const api::slo::ResourceThresholdStrategy& section,
                                      std::chrono::seconds collect_interval) {
  CpuEvictConfig config;
  config.policy = section.cpuEvictPolicy.value_or(api::slo::CPUEvictPolicy::kEvictByRealLimit);
  config.evict_priority_threshold = section.evictEnabledPriorityThreshold;
  if (config.policy == api::slo::CPUEvictPolicy::kEvictByAllocatable) {
    KOORD_ASSIGN_OR_RETURN(AllocatableThresholds allocatable, allocatableThresholds(section));
    config.allocatable = allocatable;
  } else {
    KOORD_ASSIGN_OR_RETURN(SatisfactionThresholds satisfaction,
                           satisfactionThresholds(section, collect_interval));
    config.satisfaction = satisfaction;
  }
  return config;
}

api::Json toJson(const CpuEvictConfig& config) {
  api::Json out = api::Json::object();
  out["cpuEvictPolicy"] = config.policy == api::slo::CPUEvictPolicy::kEvictByAllocatable
                              ? "evictByAllocatable"
                              : "evictByRealLimit";
  if (config.satisfaction) {
    out["cpuEvictBESatisfactionLowerPercent"] = config.satisfaction->lower_percent;
    out["cpuEvictBESatisfactionUpperPercent"] = config.satisfaction->upper_percent;
    out["cpuEvictBEUsageThresholdPercent"] = config.satisfaction->usage_threshold_percent;
    out["cpuEvictTimeWindowSeconds"] = config.satisfaction->window.count();
  }
  if (config.allocatable) {
    out["cpuAllocatableEvictThresholdPercent"] = config.allocatable->threshold_percent;
    out["cpuAllocatableEvictLowerPercent"] = config.allocatable->lower_percent;
    if (config.allocatable->priority_threshold) {
      out["allocatableEvictPriorityThreshold"] = *config.allocatable->priority_threshold;
    }
  }
  if (config.evict_priority_threshold) {
    out["evictEnabledPriorityThreshold"] = *config.evict_priority_threshold;
  }
  return out;
}

}  // namespace koord::agent::qosmanager::strategies::cpu_evict
