#include "koord/api/config/cluster_colocation_profile.hpp"

#include <algorithm>
#include <charconv>
#include <initializer_list>

#include "koord/api/fields.hpp"

namespace koord::api::config {
namespace {

Status checkOneOf(const std::string& path, const std::string& value,
                  std::initializer_list<std::string_view> allowed) {
  std::string supported;
  for (std::string_view a : allowed) {
    if (value == a) {
      return Status::ok();
    }
    supported += supported.empty() ? "\"" : ", \"";
    supported += a;
    supported += '"';
  }
  return Status::invalidArgument(path + ": unsupported value \"" + value +
                                 "\": supported values: " + supported);
}

}  // namespace

Result<int32_t> probabilityPercent(const ClusterColocationProfileSpec& spec) {
  const Json& p = spec.probability;
  int64_t percent = 0;
  if (p.is_null()) {
    return 100;
  }
  if (p.is_number_unsigned()) {
    // Anything above 100 is rejected below; clamp so the cast cannot wrap.
    percent = static_cast<int64_t>(std::min<uint64_t>(p.get<uint64_t>(), 101));
  } else if (p.is_number_integer()) {
    percent = p.get<int64_t>();
  } else if (p.is_string()) {
    const auto& text = p.get_ref<const std::string&>();
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, percent);
    if (text.empty() || text.back() != '%' || ec != std::errc() || ptr != end - 1) {
      return Status::invalidArgument("spec.probability: invalid value \"" + text +
                                     "\": expected an integer or a percentage like \"50%\"");
    }
  } else {
    return typeError("spec.probability", "integer or string", p);
  }
  if (percent < 0 || percent > 100) {
    return Status::invalidArgument("spec.probability: " + std::to_string(percent) +
                                   "% is outside 0..100");
  }
  return static_cast<int32_t>(percent);
}

constexpr auto kClusterColocationProfileSpecFields = std::tuple{
    field("namespaceSelector", &ClusterColocationProfileSpec::namespaceSelector).ifSet(),
    field("selector", &ClusterColocationProfileSpec::selector).ifSet(),
    field("probability", &ClusterColocationProfileSpec::probability),
    field("qosClass", &ClusterColocationProfileSpec::qosClass).always(),
    field("priorityClassName", &ClusterColocationProfileSpec::priorityClassName).always(),
    field("koordinatorPriority", &ClusterColocationProfileSpec::koordinatorPriority),
    field("labels", &ClusterColocationProfileSpec::labels),
    field("annotations", &ClusterColocationProfileSpec::annotations),
    field("labelKeysMapping", &ClusterColocationProfileSpec::labelKeysMapping),
    field("annotationKeysMapping", &ClusterColocationProfileSpec::annotationKeysMapping),
    field("labelSuffixes", &ClusterColocationProfileSpec::labelSuffixes),
    field("schedulerName", &ClusterColocationProfileSpec::schedulerName),
    field("patch", &ClusterColocationProfileSpec::patch),
};

Status fromJson(const Json& j, ClusterColocationProfileSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  readFields(d, out, kClusterColocationProfileSpecFields);
  KOORD_RETURN_IF_ERROR(d.status());
  // Hand-written: value checks that run once every field decoded, so that a type error in any
  // field is reported before them.
  const Json& p = out.probability;
  if (!(p.is_null() || p.is_string() || p.is_number_integer() || p.is_number_unsigned())) {
    return typeError(childPath(path, "probability"), "integer or string", p);
  }
  KOORD_RETURN_IF_ERROR(checkOneOf(childPath(path, "qosClass"), out.qosClass,
                                   {"", "LSE", "LSR", "LS", "BE", "SYSTEM"}));
  KOORD_RETURN_IF_ERROR(checkOneOf(childPath(path, "priorityClassName"), out.priorityClassName,
                                   {"", "koord-prod", "koord-mid", "koord-batch", "koord-free"}));
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ClusterColocationProfileSpec& v) {
  return encodeFields(v, kClusterColocationProfileSpecFields);
}

// No typed fields: everything is kept in `extra`.
constexpr auto kClusterColocationProfileStatusFields = std::tuple{};

Status fromJson(const Json& j, ClusterColocationProfileStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kClusterColocationProfileStatusFields);
}

Json toJson(const ClusterColocationProfileStatus& v) {
  return encodeFields(v, kClusterColocationProfileStatusFields);
}

constexpr auto kClusterColocationProfileFields = std::tuple{
    field("apiVersion", &ClusterColocationProfile::apiVersion),
    field("kind", &ClusterColocationProfile::kind),
    field("metadata", &ClusterColocationProfile::metadata).always(),
    field("spec", &ClusterColocationProfile::spec).always(),
    field("status", &ClusterColocationProfile::status).always(),
};

Status fromJson(const Json& j, ClusterColocationProfile& out, const std::string& path) {
  return decodeFields(j, out, path, kClusterColocationProfileFields);
}

Json toJson(const ClusterColocationProfile& v) {
  return encodeFields(v, kClusterColocationProfileFields);
}

}  // namespace koord::api::config
