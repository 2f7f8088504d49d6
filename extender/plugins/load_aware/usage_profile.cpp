#include "extender/plugins/load_aware/usage_profile.hpp"

#include <string>

#include "koord/api/extension/duration.hpp"
#include "koord/api/extension/load_aware.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::load_aware {

UsageProfile argsProfile(const LoadAwareArgs& args, const ResourceNames& names) {
  UsageProfile out;
  out.usage = names.fromAmounts(args.usage_thresholds);
  out.prod = names.fromAmounts(args.prod_usage_thresholds);
  if (args.aggregated && !args.aggregated->usage_thresholds.empty() &&
      !args.aggregated->usage_aggregation_type.empty()) {
    out.aggregated = AggregatedProfile{names.fromAmounts(args.aggregated->usage_thresholds),
                                       args.aggregated->usage_aggregation_type,
                                       args.aggregated->usage_aggregated_duration};
  }
  return out;
}

Result<UsageProfile> nodeProfile(const api::core::Node& node, const UsageProfile& base,
                                 const ResourceNames& names) {
  auto it = node.metadata.annotations.find(std::string(api::kAnnotationCustomUsageThresholds));
  if (it == node.metadata.annotations.end())
    return base;
  KOORD_ASSIGN_OR_RETURN(api::extension::CustomUsageThresholds custom,
                         api::extension::parseCustomUsageThresholds(it->second));
  std::optional<api::extension::CustomAggregatedUsage> aggregated = custom.aggregatedUsage;
  if (aggregated && (aggregated->usageThresholds.empty() || !aggregated->usageAggregationType))
    aggregated.reset();
  if (custom.usageThresholds.empty() && custom.prodUsageThresholds.empty() && !aggregated)
    return base;
  UsageProfile out = base;
  if (!custom.usageThresholds.empty())
    out.usage = names.fromAmounts(custom.usageThresholds);
  if (!custom.prodUsageThresholds.empty())
    out.prod = names.fromAmounts(custom.prodUsageThresholds);
  if (aggregated) {
    AggregatedProfile profile;
    profile.thresholds = names.fromAmounts(aggregated->usageThresholds);
    profile.type = std::string(api::extension::toString(*aggregated->usageAggregationType));
    if (aggregated->usageAggregatedDuration) {
      // The decoder checked the text.
      auto duration = api::extension::parseDuration(*aggregated->usageAggregatedDuration);
      if (duration.ok())
        profile.duration = *duration;
    }
    out.aggregated = std::move(profile);
  }
  return out;
}

}  // namespace koord::extender::plugins::load_aware
