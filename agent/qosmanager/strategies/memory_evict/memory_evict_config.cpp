#include "agent/qosmanager/strategies/memory_evict/memory_evict_config.hpp"

#include <algorithm>
#include <string>

namespace koord::agent::qosmanager::strategies::memory_evict {

namespace {

constexpr const char* kSection = "resourceUsedThresholdWithBE.";

Status invalid(const char* field, int64_t value, const std::string& rule) {
  return Status::invalidArgument(std::string(kSection) + field + " (" + std::to_string(value) +
                                 ") " + rule);
}

}  // namespace

bool memoryEvictEnabled(const api::slo::NodeSLO* node_slo) {
  if (node_slo == nullptr || !node_slo->spec.resourceUsedThresholdWithBE.has_value()) {
    return false;
  }
  const api::slo::ResourceThresholdStrategy& section = *node_slo->spec.resourceUsedThresholdWithBE;
  return section.enable.value_or(false) &&
         (section.memoryEvictThresholdPercent.has_value() ||
          section.memoryAllocatableEvictThresholdPercent.has_value());
}

Result<MemoryEvictConfig> memoryEvictConfig(const api::slo::ResourceThresholdStrategy& section) {
  MemoryEvictConfig config;
  config.evict_priority_threshold = section.evictEnabledPriorityThreshold;
  if (section.memoryEvictThresholdPercent.has_value()) {
    UsageThresholds usage;
    usage.threshold_percent = *section.memoryEvictThresholdPercent;
    if (usage.threshold_percent <= 0 || usage.threshold_percent > 100) {
      return invalid("memoryEvictThresholdPercent", usage.threshold_percent, "must be in (0, 100]");
    }
    usage.lower_percent = section.memoryEvictLowerPercent.value_or(
        std::max<int64_t>(0, usage.threshold_percent - kReleaseBufferPercent));
    if (usage.lower_percent < 0 || usage.lower_percent >= usage.threshold_percent) {
      return invalid("memoryEvictLowerPercent", usage.lower_percent,
                     "must be in [0, memoryEvictThresholdPercent " +
                         std::to_string(usage.threshold_percent) + ")");
    }
    config.usage = usage;
  }
  if (section.memoryAllocatableEvictThresholdPercent.has_value()) {
    AllocatableThresholds allocatable;
    allocatable.threshold_percent = *section.memoryAllocatableEvictThresholdPercent;
    if (allocatable.threshold_percent <= 0) {
      return invalid("memoryAllocatableEvictThresholdPercent", allocatable.threshold_percent,
                     "must be > 0");
    }
    allocatable.lower_percent = section.memoryAllocatableEvictLowerPercent.value_or(
        std::max<int64_t>(0, allocatable.threshold_percent - kReleaseBufferPercent));
    if (allocatable.lower_percent < 0 ||
        allocatable.lower_percent >= allocatable.threshold_percent) {
      return invalid("memoryAllocatableEvictLowerPercent", allocatable.lower_percent,
                     "must be in [0, memoryAllocatableEvictThresholdPercent " +
                         std::to_string(allocatable.threshold_percent) + ")");
    }
    allocatable.priority_threshold = section.allocatableEvictPriorityThreshold;
    if (allocatable.priority_threshold.has_value() &&
        *allocatable.priority_threshold > kMaxAllocatableEvictPriority) {
      return invalid("allocatableEvictPriorityThreshold", *allocatable.priority_threshold,
                     "must be at most " + std::to_string(kMaxAllocatableEvictPriority) +
                         " (koord-prod pods are never evicted)");
    }
    config.allocatable = allocatable;
  }
  if (!config.usage && !config.allocatable) {
    return Status::invalidArgument(
        std::string(kSection) +
        "memoryEvictThresholdPercent: neither it nor memoryAllocatableEvictThresholdPercent is "
        "set");
  }
  return config;
}

api::Json toJson(const MemoryEvictConfig& config) {
  api::Json out = api::Json::object();
  if (config.usage) {
    out["memoryEvictThresholdPercent"] = config.usage->threshold_percent;
    out["memoryEvictLowerPercent"] = config.usage->lower_percent;
  }
  if (config.allocatable) {
    out["memoryAllocatableEvictThresholdPercent"] = config.allocatable->threshold_percent;
    out["memoryAllocatableEvictLowerPercent"] = config.allocatable->lower_percent;
    if (config.allocatable->priority_threshold) {
      out["allocatableEvictPriorityThreshold"] = *config.allocatable->priority_threshold;
    }
  }
  if (config.evict_priority_threshold) {
    out["evictEnabledPriorityThreshold"] = *config.evict_priority_threshold;
  }
  return out;
}

}  // namespace koord::agent::qosmanager::strategies::memory_evict
