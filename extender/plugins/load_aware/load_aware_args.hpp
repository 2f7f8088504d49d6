// LoadAwareScheduling's args: Koordinator's LoadAwareSchedulingArgs (koordinator-reference.md 5.2),
// with its defaults and validation:
//   filterExpiredNodeMetrics             bool, default true
//   nodeMetricExpirationSeconds          integer > 0, default 180
//   enableScheduleWhenNodeMetricsExpired bool, default false
//   resourceWeights                      resource -> 1..100, default cpu 1, memory 1 (only when
//                                        dominantResourceWeight is 0); every resource weighted
//                                        needs an estimatedScalingFactors entry
//   usageThresholds                      resource -> 0..100 percent, default cpu 65, memory 95
//                                        (an empty map also takes the default; 0 disables one)
//   prodUsageThresholds                  resource -> 0..100, default none
//   aggregated {usageThresholds, usageAggregationType, usageAggregatedDuration,
//               scoreAggregationType, scoreAggregatedDuration}
//                                        types avg|p50|p90|p95|p99, durations Go text >= 0
//   estimatedScalingFactors              resource -> 1..100, cpu 85 and memory 70 filled in
//   estimatedSecondsAfterPodScheduled    integer >= 0, unset by default
//   estimatedSecondsAfterInitialized     integer >= 0, unset by default
//   allowCustomizeEstimation, scoreAccordingProdUsage, prodUsageIncludeSys   bool, default false
//   dominantResourceWeight               0..100, default 0
//   supportedResources                   extra resource names to account (besides cpu, memory
//                                        and every resource named above)
// Unknown fields, wrong types and values out of range are errors, all reported at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::load_aware {

// Resource name -> an integer (a percent, a weight).
using ResourceAmounts = std::map<std::string, int64_t>;

struct AggregatedArgs {
  ResourceAmounts usage_thresholds;
  std::string usage_aggregation_type;  // "" or avg, p50, p90, p95, p99
  std::chrono::nanoseconds usage_aggregated_duration{0};
  std::string score_aggregation_type;
  std::chrono::nanoseconds score_aggregated_duration{0};
};

struct LoadAwareArgs {
  bool filter_expired_node_metrics = true;
  int64_t node_metric_expiration_seconds = 180;
  bool enable_schedule_when_node_metrics_expired = false;
  ResourceAmounts resource_weights;
  ResourceAmounts usage_thresholds;
  ResourceAmounts prod_usage_thresholds;
  std::optional<AggregatedArgs> aggregated;
  ResourceAmounts estimated_scaling_factors;
  std::optional<int64_t> estimated_seconds_after_pod_scheduled;
  std::optional<int64_t> estimated_seconds_after_initialized;
  bool allow_customize_estimation = false;
  bool score_according_prod_usage = false;
  bool prod_usage_include_sys = false;
  int64_t dominant_resource_weight = 0;
  std::vector<std::string> supported_resources;
};

// Decodes and validates `args` (null: every default) and applies the defaults. kInvalidArgument
// with one line per problem, each "failed to decode args of plugin '<plugin>': args.<path>: ...".
[[nodiscard]] Result<LoadAwareArgs> decodeArgs(const api::Json& args, const std::string& plugin);

}  // namespace koord::extender::plugins::load_aware
