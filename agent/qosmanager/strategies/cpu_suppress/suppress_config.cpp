#include "agent/qosmanager/strategies/cpu_suppress/suppress_config.hpp"

#include <string>

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

constexpr const char* kSection = "spec.resourceUsedThresholdWithBE.";

Status checkPercent(const char* field, int64_t value) {
  if (value < 0 || value > 100) {
    return Status::invalidArgument(std::string(kSection) + field + ": " + std::to_string(value) +
                                   " is not a percentage in [0, 100]");
  }
  return Status::ok();
}

}  // namespace

Result<SuppressConfig> suppressConfigFrom(const api::slo::NodeSLO& slo) {
  SuppressConfig config;
  const auto& section = slo.spec.resourceUsedThresholdWithBE;
  if (!section.has_value()) {
    return config;  // off, with the defaults
  }
  config.enabled = section->enable.value_or(false);
  config.threshold_percent =
      section->cpuSuppressThresholdPercent.value_or(kDefaultThresholdPercent);
  config.min_percent = section->cpuSuppressMinPercent;
  config.policy = section->cpuSuppressPolicy.value_or(api::slo::CPUSuppressPolicy::kCPUSet);
  if (Status s = checkPercent("cpuSuppressThresholdPercent", config.threshold_percent); !s.isOk()) {
    return s;
  }
  if (config.min_percent.has_value()) {
    if (Status s = checkPercent("cpuSuppressMinPercent", *config.min_percent); !s.isOk()) {
      return s;
    }
    if (*config.min_percent > config.threshold_percent) {
      return Status::invalidArgument(
          std::string(kSection) + "cpuSuppressMinPercent: " + std::to_string(*config.min_percent) +
          " is above cpuSuppressThresholdPercent " + std::to_string(config.threshold_percent));
    }
  }
  return config;
}

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
