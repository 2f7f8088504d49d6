// The NodeSLO's spec.systemStrategy as the SystemConfig strategy reads it. koordlet has no
// defaults of its own for these fields (reference 5.1: DefaultSystemStrategy sets only
// totalNetworkBandwidth; koord-manager renders what the slo-controller-config says): an unset
// field is left alone. memcgReapBackGround, schedGroupIdentityEnabled and the other fields are
// not applied (no kernel target covers them).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>

#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::qosmanager::strategies::system_config {

struct SystemConfigSettings {
  std::optional<int64_t> min_free_kbytes_factor;  // 1/10000 of memory; > 0
  std::optional<int64_t> watermark_scale_factor;  // 10..400
};

// kInvalidArgument naming the field ("systemStrategy.minFreeKbytesFactor is 0: must be > 0",
// "systemStrategy.watermarkScaleFactor is 500: must be 10..400") for a present value out of range.
[[nodiscard]] Result<SystemConfigSettings> systemConfigSettingsFrom(
    const api::slo::SystemStrategy& strategy);

}  // namespace koord::agent::qosmanager::strategies::system_config
