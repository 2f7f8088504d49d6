#include "extender/plugins/load_aware/load_aware_args.hpp"

#include <limits>
#include <string_view>
#include <utility>

#include "extender/plugins/common/args_decoder.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/extension/enum_codec.hpp"
#include "koord/api/extension/load_aware.hpp"

namespace koord::extender::plugins::load_aware {

namespace {

// The integer fields: ArgsDecoder reads booleans, strings and objects, so these are read here and
// left out of what it checks for unknown fields.
constexpr std::string_view kExpirationSeconds = "nodeMetricExpirationSeconds";
constexpr std::string_view kSecondsAfterScheduled = "estimatedSecondsAfterPodScheduled";
constexpr std::string_view kSecondsAfterInitialized = "estimatedSecondsAfterInitialized";
constexpr std::string_view kDominantWeight = "dominantResourceWeight";
constexpr std::string_view kIntegerFields[] = {kExpirationSeconds, kSecondsAfterScheduled,
                                               kSecondsAfterInitialized, kDominantWeight};

struct Range {
  int64_t min;
  int64_t max;
};

std::string rangeText(Range range) {
  if (range.max == std::numeric_limits<int64_t>::max())
    return "must be an integer >= " + std::to_string(range.min);
  return "must be an integer from " + std::to_string(range.min) + " to " +
         std::to_string(range.max);
}

// An int64 JSON number within `range`, or nullopt with an error recorded under `field`.
std::optional<int64_t> readInteger(common::ArgsDecoder& decoder, const std::string& field,
                                   const api::Json& value, Range range) {
  const bool fits =
      value.is_number_integer() &&
      !(value.is_number_unsigned() &&
        value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
  if (!fits || value.get<int64_t>() < range.min || value.get<int64_t>() > range.max) {
    decoder.addError(field, rangeText(range) + ", got " + value.dump());
    return std::nullopt;
  }
  return value.get<int64_t>();
}

std::optional<int64_t> readIntegerField(common::ArgsDecoder& decoder, const api::Json& args,
                                        std::string_view key, Range range) {
  if (!args.is_object())
    return std::nullopt;
  auto it = args.find(key);
  if (it == args.end() || it->is_null())
    return std::nullopt;
  return readInteger(decoder, std::string(key), *it, range);
}

// A resource -> integer map, each value within `range`.
ResourceAmounts readAmounts(common::ArgsDecoder& decoder, const std::string& field,
                            const api::Json* object, Range range) {
  ResourceAmounts out;
  if (object == nullptr)
    return out;
  for (const auto& [name, value] : object->items()) {
    const std::string path = field + "." + name;
    if (name.empty()) {
      decoder.addError(field, "a resource name must not be empty");
      continue;
    }
    if (auto amount = readInteger(decoder, path, value, range))
      out[name] = *amount;
  }
  return out;
}

std::string readAggregationType(common::ArgsDecoder& decoder, const std::string& field,
                                const api::Json& value) {
  if (!value.is_string()) {
    decoder.addError(field, "expected string, got " + std::string(api::jsonTypeName(value)));
    return "";
  }
  std::string text = value.get<std::string>();
  if (!text.empty() && !api::extension::enumFromString<api::extension::AggregationType>(text)) {
    decoder.addError(field,
                     "unsupported value \"" + text + "\": supported values: " +
                         api::extension::enumSupportedValues<api::extension::AggregationType>());
    return "";
  }
  return text;
}

std::chrono::nanoseconds readDuration(common::ArgsDecoder& decoder, const std::string& field,
                                      const api::Json& value) {
  if (!value.is_string()) {
    decoder.addError(
        field, "expected a duration such as \"5m\", got " + std::string(api::jsonTypeName(value)));
    return std::chrono::nanoseconds(0);
  }
  auto parsed = api::extension::parseDuration(value.get<std::string>());
  if (!parsed.ok()) {
    decoder.addError(field, parsed.status().message());
    return std::chrono::nanoseconds(0);
  }
  if (parsed->count() < 0) {
    decoder.addError(field, "must not be negative, got " + value.dump());
    return std::chrono::nanoseconds(0);
  }
  return *parsed;
}

AggregatedArgs readAggregated(common::ArgsDecoder& decoder, const api::Json& object) {
  AggregatedArgs out;
  for (const auto& [key, value] : object.items()) {
    const std::string path = "aggregated." + key;
    if (value.is_null())
      continue;
    if (key == "usageThresholds") {
      if (!value.is_object())
        decoder.addError(path, "expected object, got " + std::string(api::jsonTypeName(value)));
      else
        out.usage_thresholds = readAmounts(decoder, path, &value, {0, 100});
    } else if (key == "usageAggregationType") {
      out.usage_aggregation_type = readAggregationType(decoder, path, value);
    } else if (key == "usageAggregatedDuration") {
      out.usage_aggregated_duration = readDuration(decoder, path, value);
    } else if (key == "scoreAggregationType") {
      out.score_aggregation_type = readAggregationType(decoder, path, value);
    } else if (key == "scoreAggregatedDuration") {
      out.score_aggregated_duration = readDuration(decoder, path, value);
    } else {
      decoder.addError(path, "unknown field");
    }
  }
  return out;
}

}  // namespace

Result<LoadAwareArgs> decodeArgs(const api::Json& args, const std::string& plugin) {
  LoadAwareArgs out;
  api::Json rest = args;
  if (rest.is_object()) {
    for (std::string_view key : kIntegerFields)
      rest.erase(std::string(key));
  }
  common::ArgsDecoder decoder(rest, plugin);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

  decoder.optionalBool("filterExpiredNodeMetrics", out.filter_expired_node_metrics)
      .optionalBool("enableScheduleWhenNodeMetricsExpired",
                    out.enable_schedule_when_node_metrics_expired)
      .optionalBool("allowCustomizeEstimation", out.allow_customize_estimation)
      .optionalBool("scoreAccordingProdUsage", out.score_according_prod_usage)
      .optionalBool("prodUsageIncludeSys", out.prod_usage_include_sys)
      .optionalStringList("supportedResources", out.supported_resources);
  if (auto v = readIntegerField(decoder, args, kExpirationSeconds, {1, kMax}))
    out.node_metric_expiration_seconds = *v;
  out.estimated_seconds_after_pod_scheduled =
      readIntegerField(decoder, args, kSecondsAfterScheduled, {0, kMax});
  out.estimated_seconds_after_initialized =
      readIntegerField(decoder, args, kSecondsAfterInitialized, {0, kMax});
  if (auto v = readIntegerField(decoder, args, kDominantWeight, {0, 100}))
    out.dominant_resource_weight = *v;

  out.resource_weights =
      readAmounts(decoder, "resourceWeights", decoder.optionalObject("resourceWeights"), {1, 100});
  out.usage_thresholds =
      readAmounts(decoder, "usageThresholds", decoder.optionalObject("usageThresholds"), {0, 100});
  out.prod_usage_thresholds = readAmounts(decoder, "prodUsageThresholds",
                                          decoder.optionalObject("prodUsageThresholds"), {0, 100});
  out.estimated_scaling_factors =
      readAmounts(decoder, "estimatedScalingFactors",
                  decoder.optionalObject("estimatedScalingFactors"), {1, 100});
  if (const api::Json* aggregated = decoder.optionalObject("aggregated"))
    out.aggregated = readAggregated(decoder, *aggregated);
  for (size_t i = 0; i < out.supported_resources.size(); ++i) {
    if (out.supported_resources[i].empty())
      decoder.addError(api::indexPath("supportedResources", i), "must not be empty");
  }

  // Koordinator's SetDefaults_LoadAwareSchedulingArgs.
  if (out.resource_weights.empty() && out.dominant_resource_weight == 0)
    out.resource_weights = {{"cpu", 1}, {"memory", 1}};
  if (out.usage_thresholds.empty())
    out.usage_thresholds = {{"cpu", 65}, {"memory", 95}};
  out.estimated_scaling_factors.try_emplace("cpu", 85);
  out.estimated_scaling_factors.try_emplace("memory", 70);
  for (const auto& [name, weight] : out.resource_weights) {
    if (out.estimated_scaling_factors.count(name) == 0)
      decoder.addError("resourceWeights." + name,
                       "the resource has a weight but no estimatedScalingFactors entry");
  }
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return out;
}

}  // namespace koord::extender::plugins::load_aware
