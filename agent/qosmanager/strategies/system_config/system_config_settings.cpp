#include "agent/qosmanager/strategies/system_config/system_config_settings.hpp"

#include <string>

#include "agent/qosmanager/strategies/system_config/system_config_formula.hpp"

namespace koord::agent::qosmanager::strategies::system_config {

Result<SystemConfigSettings> systemConfigSettingsFrom(const api::slo::SystemStrategy& strategy) {
  SystemConfigSettings out;
  if (strategy.minFreeKbytesFactor.has_value()) {
    if (*strategy.minFreeKbytesFactor <= 0) {
      return Status::invalidArgument(
          "invalid system config: systemStrategy.minFreeKbytesFactor is " +
          std::to_string(*strategy.minFreeKbytesFactor) + ": must be > 0");
    }
    out.min_free_kbytes_factor = strategy.minFreeKbytesFactor;
  }
  if (strategy.watermarkScaleFactor.has_value()) {
    if (!watermarkScaleFactorInRange(*strategy.watermarkScaleFactor)) {
      return Status::invalidArgument(
          "invalid system config: systemStrategy.watermarkScaleFactor is " +
          std::to_string(*strategy.watermarkScaleFactor) + ": must be " +
          std::to_string(kWatermarkScaleFactorLowest) + ".." +
          std::to_string(kWatermarkScaleFactorHighest));
    }
    out.watermark_scale_factor = strategy.watermarkScaleFactor;
  }
  return out;
}

}  // namespace koord::agent::qosmanager::strategies::system_config
