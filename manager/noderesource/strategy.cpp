#include "manager/noderesource/strategy.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace koord::manager::noderesource {

namespace {

void checkPercent(std::vector<std::string>& errors, std::string_view name, int64_t value,
                  bool bounded) {
  if (value < 0 || (bounded && value > 100)) {
    errors.push_back(std::string(name) + " " + std::to_string(value) +
                     (bounded ? " must be in [0, 100]" : " must be >= 0"));
  }
}

}  // namespace

std::string_view toString(CalculatePolicy policy) {
  switch (policy) {
    case CalculatePolicy::kUsage:
      return "usage";
    case CalculatePolicy::kRequest:
      return "request";
    case CalculatePolicy::kMaxUsageRequest:
      return "maxUsageRequest";
  }
  return "usage";
}

std::optional<CalculatePolicy> parseCalculatePolicy(std::string_view text) {
  for (CalculatePolicy policy :
       {CalculatePolicy::kUsage, CalculatePolicy::kRequest, CalculatePolicy::kMaxUsageRequest}) {
    if (text == toString(policy)) {
      return policy;
    }
  }
  return std::nullopt;
}

std::string_view toString(MidReclaimMode mode) {
  return mode == MidReclaimMode::kStatic ? "static" : "dynamic";
}

std::optional<MidReclaimMode> parseMidReclaimMode(std::string_view text) {
  if (text == "static") {
    return MidReclaimMode::kStatic;
  }
  if (text == "dynamic") {
    return MidReclaimMode::kDynamic;
  }
  return std::nullopt;
}

Status validate(const ColocationStrategy& s) {
  std::vector<std::string> errors;
  if (s.degradeTimeMinutes <= 0) {
    errors.push_back("degradeTimeMinutes " + std::to_string(s.degradeTimeMinutes) + " must be > 0");
  }
  if (s.updateTimeThresholdSeconds <= 0) {
    errors.push_back("updateTimeThresholdSeconds " + std::to_string(s.updateTimeThresholdSeconds) +
                     " must be > 0");
  }
  checkPercent(errors, "cpuReclaimThresholdPercent", s.cpuReclaimThresholdPercent, false);
  checkPercent(errors, "memoryReclaimThresholdPercent", s.memoryReclaimThresholdPercent, false);
  if (!(s.resourceDiffThreshold > 0 && s.resourceDiffThreshold <= 1)) {
    std::ostringstream value;
    value << s.resourceDiffThreshold;
    errors.push_back("resourceDiffThreshold " + value.str() + " must be in (0, 1]");
  }
  checkPercent(errors, "midCPUThresholdPercent", s.midCPUThresholdPercent, true);
  checkPercent(errors, "midMemoryThresholdPercent", s.midMemoryThresholdPercent, true);
  checkPercent(errors, "midUnallocatedPercent", s.midUnallocatedPercent, true);
  checkPercent(errors, "midStaticCPUReservedPercent", s.midStaticCPUReservedPercent, true);
  checkPercent(errors, "midStaticMemoryReservedPercent", s.midStaticMemoryReservedPercent, true);
  if (s.batchCPUThresholdPercent) {
    checkPercent(errors, "batchCPUThresholdPercent", *s.batchCPUThresholdPercent, false);
  }
  if (s.batchMemoryThresholdPercent) {
    checkPercent(errors, "batchMemoryThresholdPercent", *s.batchMemoryThresholdPercent, false);
  }
  if (s.cpuCalculatePolicy == CalculatePolicy::kRequest) {
    errors.push_back("cpuCalculatePolicy \"request\" must be \"usage\" or \"maxUsageRequest\"");
  }
  if (errors.empty()) {
    return Status::ok();
  }
  std::string message = "invalid colocation strategy: ";
  for (size_t i = 0; i < errors.size(); ++i) {
    message += (i == 0 ? "" : "; ") + errors[i];
  }
  return Status::invalidArgument(message);
}

}  // namespace koord::manager::noderesource
