#include "manager/noderesource/strategy_config.hpp"

#include <string>
#include <vector>

namespace koord::manager::noderesource {

namespace {

template <typename T>
void take(T& out, const std::optional<T>& in) {
  if (in) {
    out = *in;
  }
}

}  // namespace

Result<ColocationStrategy> toCalculationStrategy(const sloconfig::ColocationStrategy& config) {
  ColocationStrategy out;
  std::vector<std::string> errors;
  take(out.enable, config.enable);
  take(out.cpuReclaimThresholdPercent, config.cpuReclaimThresholdPercent);
  take(out.memoryReclaimThresholdPercent, config.memoryReclaimThresholdPercent);
  if (config.cpuCalculatePolicy) {
    auto policy = parseCalculatePolicy(*config.cpuCalculatePolicy);
    if (policy && *policy != CalculatePolicy::kRequest) {
      out.cpuCalculatePolicy = *policy;
    } else {
      errors.push_back("cpuCalculatePolicy \"" + *config.cpuCalculatePolicy +
                       "\" is not one of usage, maxUsageRequest");
    }
  }
  if (config.memoryCalculatePolicy) {
    if (auto policy = parseCalculatePolicy(*config.memoryCalculatePolicy)) {
      out.memoryCalculatePolicy = *policy;
    } else {
      errors.push_back("memoryCalculatePolicy \"" + *config.memoryCalculatePolicy +
                       "\" is not one of usage, request, maxUsageRequest");
    }
  }
  take(out.degradeTimeMinutes, config.degradeTimeMinutes);
  take(out.updateTimeThresholdSeconds, config.updateTimeThresholdSeconds);
  take(out.resourceDiffThreshold, config.resourceDiffThreshold);
  take(out.midCPUThresholdPercent, config.midCPUThresholdPercent);
  take(out.midMemoryThresholdPercent, config.midMemoryThresholdPercent);
  take(out.midUnallocatedPercent, config.midUnallocatedPercent);
  take(out.midStaticCPUReservedPercent, config.midStaticCPUReservedPercent);
  take(out.midStaticMemoryReservedPercent, config.midStaticMemoryReservedPercent);
  if (config.midReclaimMode) {
    if (auto mode = parseMidReclaimMode(*config.midReclaimMode)) {
      out.midReclaimMode = *mode;
    } else {
      errors.push_back("midReclaimMode \"" + *config.midReclaimMode +
                       "\" is not one of dynamic, static");
    }
  }
  out.batchCPUThresholdPercent = config.batchCPUThresholdPercent;
  out.batchMemoryThresholdPercent = config.batchMemoryThresholdPercent;

  const Status valid = validate(out);
  if (!valid.isOk()) {
    static constexpr std::string_view kPrefix = "invalid colocation strategy: ";
    std::string_view message = valid.message();
    if (message.substr(0, kPrefix.size()) == kPrefix) {
      message.remove_prefix(kPrefix.size());
    }
    errors.emplace_back(message);
  }
  if (errors.empty()) {
    return out;
  }
  std::string message = "invalid colocation strategy: ";
  for (size_t i = 0; i < errors.size(); ++i) {
    message += (i == 0 ? "" : "; ") + errors[i];
  }
  return Status::invalidArgument(message);
}

Result<ColocationStrategy> strategyForNode(const sloconfig::ColocationConfig& config,
                                           const api::core::Node& node) {
  KOORD_ASSIGN_OR_RETURN(ColocationStrategy strategy, toCalculationStrategy(config.forNode(node)));
  strategy.enable = strategy.enable && config.cluster.enable.value_or(false);
  return strategy;
}

}  // namespace koord::manager::noderesource
