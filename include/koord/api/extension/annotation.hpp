// Parsing and formatting of the JSON payloads Koordinator stores in label and annotation values.
//
// Every parse<Name>() in koord/api/extension/ goes through parseAnnotationJson(): the value is
// parsed as JSON and decoded with the model's fromJson; any failure is kInvalidArgument reading
//   failed to parse annotation '<key>': <field path>: <cause>
// Every format<Name>() writes the compact JSON Koordinator writes (omitempty honoured; key order
// is alphabetical, which Koordinator's readers do not depend on). Neither throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

// "failed to parse annotation '<key>': <cause's message>", with the cause's code.
[[nodiscard]] Status annotationError(std::string_view key, const Status& cause);

// Parses `value` as JSON; the error names `key`.
[[nodiscard]] Result<Json> parseAnnotationValue(std::string_view key, std::string_view value);

template <typename T>
Result<T> parseAnnotationJson(std::string_view key, std::string_view value) {
  using koord::api::fromJson;
  KOORD_ASSIGN_OR_RETURN(Json j, parseAnnotationValue(key, value));
  T out{};
  Status status = fromJson(j, out, "");
  if (!status.isOk()) {
    return annotationError(key, status);
  }
  return out;
}

template <typename T>
std::string formatAnnotationJson(const T& value) {
  using koord::api::toJson;
  return toJson(value).dump();
}

// A ResourceList payload ({"cpu":"4","memory":"8Gi"}): the quota annotations (shared-weight,
// runtime, request, child-request, guaranteed, allocated, non-preemptible-*, total-resource,
// unschedulable-resource, admission) and node.koordinator.sh/raw-allocatable.
[[nodiscard]] Result<resource::ResourceList> parseResourceListAnnotation(std::string_view key,
                                                                         std::string_view value);
[[nodiscard]] std::string formatResourceList(const resource::ResourceList& list);

// A JSON list of strings (["ns/gangA","ns/gangB"], ["cpu","memory"]).
[[nodiscard]] Result<std::vector<std::string>> parseStringListAnnotation(std::string_view key,
                                                                         std::string_view value);
[[nodiscard]] std::string formatStringList(const std::vector<std::string>& values);

}  // namespace koord::api::extension
