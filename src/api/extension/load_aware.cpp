#include "koord/api/extension/load_aware.hpp"

#include <charconv>

#include "koord/api/extension/annotation.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

namespace {

// The Go duration text is checked as it is read; the key is last in the list, so a type error in
// any other field is reported first.
Status aggregatedDurationFromJson(const Json& j, std::optional<std::string>& out,
                                  const std::string& path) {
  KOORD_RETURN_IF_ERROR(api::fromJson(j, out, path));
  if (out) {
    auto parsed = parseDuration(*out);
    if (!parsed.ok()) {
      return parsed.status().withPrefix(path);
    }
  }
  return Status::ok();
}

}  // namespace

constexpr auto kCustomAggregatedUsageFields = std::tuple{
    field("usageThresholds", &CustomAggregatedUsage::usageThresholds),
    field("usageAggregationType", &CustomAggregatedUsage::usageAggregationType),
    field("usageAggregatedDuration", &CustomAggregatedUsage::usageAggregatedDuration)
        .decodeWith(&aggregatedDurationFromJson),
};

Status fromJson(const Json& j, CustomAggregatedUsage& out, const std::string& path) {
  return decodeFields(j, out, path, kCustomAggregatedUsageFields);
}

Json toJson(const CustomAggregatedUsage& v) {
  return encodeFields(v, kCustomAggregatedUsageFields);
}

constexpr auto kCustomUsageThresholdsFields = std::tuple{
    field("usageThresholds", &CustomUsageThresholds::usageThresholds),
    field("prodUsageThresholds", &CustomUsageThresholds::prodUsageThresholds),
    field("aggregatedUsage", &CustomUsageThresholds::aggregatedUsage).ifSet(),
};

Status fromJson(const Json& j, CustomUsageThresholds& out, const std::string& path) {
  return decodeFields(j, out, path, kCustomUsageThresholdsFields);
}

Json toJson(const CustomUsageThresholds& v) {
  return encodeFields(v, kCustomUsageThresholdsFields);
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
