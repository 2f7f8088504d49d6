#include "koord/api/config/cluster_colocation_profile.hpp"

#include <algorithm>
#include <charconv>
#include <initializer_list>

#include "../extension/encode_util.hpp"

namespace koord::api::config {
namespace {

using extension::internal::ifPresent;

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

Status fromJson(const Json& j, ClusterColocationProfileSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("namespaceSelector", out.namespaceSelector)
      .field("selector", out.selector)
      .field("probability", out.probability)
      .field("qosClass", out.qosClass)
      .field("priorityClassName", out.priorityClassName)
      .field("koordinatorPriority", out.koordinatorPriority)
      .field("labels", out.labels)
      .field("annotations", out.annotations)
      .field("labelKeysMapping", out.labelKeysMapping)
      .field("annotationKeysMapping", out.annotationKeysMapping)
      .field("labelSuffixes", out.labelSuffixes)
      .field("schedulerName", out.schedulerName)
      .field("patch", out.patch);
  KOORD_RETURN_IF_ERROR(d.status());
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
  ObjectEncoder e;
  ifPresent(e, "namespaceSelector", v.namespaceSelector);
  ifPresent(e, "selector", v.selector);
  e.field("probability", v.probability)
      .always("qosClass", v.qosClass)
      .always("priorityClassName", v.priorityClassName)
      .field("koordinatorPriority", v.koordinatorPriority)
      .field("labels", v.labels)
      .field("annotations", v.annotations)
      .field("labelKeysMapping", v.labelKeysMapping)
      .field("annotationKeysMapping", v.annotationKeysMapping)
      .field("labelSuffixes", v.labelSuffixes)
      .field("schedulerName", v.schedulerName)
      .field("patch", v.patch);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ClusterColocationProfileStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ClusterColocationProfileStatus& v) {
  return ObjectEncoder().finish(v.extra);
}

Status fromJson(const Json& j, ClusterColocationProfile& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ClusterColocationProfile& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::config
