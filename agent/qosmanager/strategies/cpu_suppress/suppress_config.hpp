// CPU suppress's settings from the NodeSLO section spec.resourceUsedThresholdWithBE, merged with
// koord-manager's defaults (DefaultResourceThresholdStrategy, reference 5.1) and validated.
//
// - enable: default false; unset or false turns suppress off (what it wrote is reset).
// - cpuSuppressThresholdPercent: default 65; 0..100.
// - cpuSuppressMinPercent: default unset (no floor); 0..100 and not above the threshold.
// - cpuSuppressPolicy: default "cpuset"; "cpuset" or "cfsQuota" (the NodeSLO decoder already
//   refuses any other spelling).
//
// A NodeSLO without the section reads as suppress off, as koordlet's disableSuppress() does. Pure
// functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>

#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

inline constexpr int64_t kDefaultThresholdPercent = 65;

struct SuppressConfig {
  bool enabled = false;
  int64_t threshold_percent = kDefaultThresholdPercent;
  std::optional<int64_t> min_percent;
  api::slo::CPUSuppressPolicy policy = api::slo::CPUSuppressPolicy::kCPUSet;

  friend bool operator==(const SuppressConfig&, const SuppressConfig&) = default;
};

// The settings of `slo`; kInvalidArgument naming the field
// ("spec.resourceUsedThresholdWithBE.cpuSuppressMinPercent: 70 is above
// cpuSuppressThresholdPercent 65") for a value out of range, whether or not suppress is enabled.
[[nodiscard]] Result<SuppressConfig> suppressConfigFrom(const api::slo::NodeSLO& slo);

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
