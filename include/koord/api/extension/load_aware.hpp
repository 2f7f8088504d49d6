// LoadAware payloads (apis/extension/load_aware.go):
//   scheduling.koordinator.sh/usage-thresholds                CustomUsageThresholds (on the Node)
//   scheduling.koordinator.sh/load-estimated-scaling-factors  resource -> percent (on the pod)
//   scheduling.koordinator.sh/load-estimated-seconds-after-*  integer seconds (on the pod)
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/extension/enum_codec.hpp"

namespace koord::api::extension {

// The percentile of an aggregated usage; also the keys of NodeMetric aggregated usages.
enum class AggregationType { kAvg, kP50, kP90, kP95, kP99 };
constexpr std::array<EnumName<AggregationType>, 5> enumNames(AggregationType) {
  return {{{AggregationType::kAvg, "avg"},
           {AggregationType::kP50, "p50"},
           {AggregationType::kP90, "p90"},
           {AggregationType::kP95, "p95"},
           {AggregationType::kP99, "p99"}}};
}
KOORD_API_ENUM_CODEC(AggregationType)

// Resource name -> percent.
using ResourceThresholds = std::map<std::string, int64_t>;

struct CustomAggregatedUsage {
  ResourceThresholds usageThresholds;
  std::optional<AggregationType> usageAggregationType;
  std::optional<std::string> usageAggregatedDuration;  // Go duration text, e.g. "5m"
  Json extra;

  bool operator==(const CustomAggregatedUsage&) const = default;
};

struct CustomUsageThresholds {
  ResourceThresholds usageThresholds;
  ResourceThresholds prodUsageThresholds;
  std::optional<CustomAggregatedUsage> aggregatedUsage;
  Json extra;

  bool operator==(const CustomUsageThresholds&) const = default;
};

Status fromJson(const Json& j, CustomAggregatedUsage& out, const std::string& path);
Status fromJson(const Json& j, CustomUsageThresholds& out, const std::string& path);
Json toJson(const CustomAggregatedUsage& v);
Json toJson(const CustomUsageThresholds& v);

// usageAggregatedDuration must also be a valid Go duration.
[[nodiscard]] Result<CustomUsageThresholds> parseCustomUsageThresholds(std::string_view value);
[[nodiscard]] std::string formatCustomUsageThresholds(const CustomUsageThresholds& thresholds);
[[nodiscard]] Result<ResourceThresholds> parseEstimatedScalingFactors(std::string_view value);
[[nodiscard]] std::string formatEstimatedScalingFactors(const ResourceThresholds& factors);

// A load-estimated-seconds-after-* value: a decimal int64. `key` names the annotation in errors.
[[nodiscard]] Result<int64_t> parseEstimatedSeconds(std::string_view key, std::string_view value);

}  // namespace koord::api::extension
