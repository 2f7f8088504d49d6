// UsageProfile: the usage thresholds the filter holds a node to (Koordinator's
// usageThresholdsFilterProfile): usageThresholds, prodUsageThresholds, and the aggregated
// (percentile) thresholds with their aggregation type and duration, as percents per resource.
//
// From the args, or from the node annotation scheduling.koordinator.sh/usage-thresholds
// (api::extension::CustomUsageThresholds) when it sets any of them: each part it sets replaces
// the args' part, the others stay. An aggregatedUsage without thresholds or without
// usageAggregationType counts as unset (as in Koordinator). Thresholds on resources the plugin
// does not account are ignored.
//
// Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "extender/plugins/load_aware/load_aware_args.hpp"
#include "extender/plugins/load_aware/resource_vector.hpp"
#include "koord/api/core/node.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::load_aware {

struct AggregatedProfile {
  ResourceVector thresholds;
  std::string type;  // avg, p50, p90, p95, p99
  std::chrono::nanoseconds duration{0};
};

struct UsageProfile {
  ResourceVector usage;  // all 0: no usage filter
  ResourceVector prod;   // all 0: prod pods are held to `usage` (or `aggregated`) too
  std::optional<AggregatedProfile> aggregated;
};

[[nodiscard]] UsageProfile argsProfile(const LoadAwareArgs& args, const ResourceNames& names);

// The profile for `node`: `base` (argsProfile) with the annotation's parts laid over it.
// kInvalidArgument "failed to parse annotation 'scheduling.koordinator.sh/usage-thresholds': ..."
// when the annotation cannot be read.
[[nodiscard]] Result<UsageProfile> nodeProfile(const api::core::Node& node,
                                               const UsageProfile& base,
                                               const ResourceNames& names);

}  // namespace koord::extender::plugins::load_aware
