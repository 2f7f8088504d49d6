#include "koord/api/extension/load_aware.hpp"

#include <charconv>

#include "koord/api/extension/annotation.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

Status fromJson(const Json& j, CustomAggregatedUsage& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("usageThresholds", out.usageThresholds)
      .field("usageAggregationType", out.usageAggregationType)
      .field("usageAggregatedDuration", out.usageAggregatedDuration);
  KOORD_RETURN_IF_ERROR(d.status());
  if (out.usageAggregatedDuration) {
    auto parsed = parseDuration(*out.usageAggregatedDuration);
    if (!parsed.ok()) {
      return parsed.status().withPrefix(childPath(path, "usageAggregatedDuration"));
    }
  }
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const CustomAggregatedUsage& v) {
  return ObjectEncoder()
      .field("usageThresholds", v.usageThresholds)
      .field("usageAggregationType", v.usageAggregationType)
      .field("usageAggregatedDuration", v.usageAggregatedDuration)
      .finish(v.extra);
}

Status fromJson(const Json& j, CustomUsageThresholds& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("usageThresholds", out.usageThresholds)
      .field("prodUsageThresholds", out.prodUsageThresholds)
      .field("aggregatedUsage", out.aggregatedUsage);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CustomUsageThresholds& v) {
  ObjectEncoder e;
  e.field("usageThresholds", v.usageThresholds).field("prodUsageThresholds", v.prodUsageThresholds);
  if (v.aggregatedUsage) {
    e.always("aggregatedUsage", *v.aggregatedUsage);
  }
  return e.finish(v.extra);
}

Result<CustomUsageThresholds> parseCustomUsageThresholds(std::string_view value) {
  return parseAnnotationJson<CustomUsageThresholds>(kAnnotationCustomUsageThresholds, value);
}
std::string formatCustomUsageThresholds(const CustomUsageThresholds& thresholds) {
  return formatAnnotationJson(thresholds);
}

Result<ResourceThresholds> parseEstimatedScalingFactors(std::string_view value) {
  return parseAnnotationJson<ResourceThresholds>(kAnnotationCustomEstimatedScalingFactors, value);
}
std::string formatEstimatedScalingFactors(const ResourceThresholds& factors) {
  return formatAnnotationJson(factors);
}

Result<int64_t> parseEstimatedSeconds(std::string_view key, std::string_view value) {
  int64_t seconds = 0;
  const char* begin = value.data();
  const char* end = value.data() + value.size();
  if (!value.empty() && value.front() == '+') {
    ++begin;  // strconv.ParseInt accepts a leading plus sign
  }
  auto [ptr, ec] = std::from_chars(begin, end, seconds);
  bool double_sign = begin != value.data() && begin != end && *begin == '-';
  if (value.empty() || double_sign || ec != std::errc() || ptr != end) {
    return annotationError(
        key, Status::invalidArgument("expected an integer, got \"" + std::string(value) + "\""));
  }
  return seconds;
}

}  // namespace koord::api::extension
