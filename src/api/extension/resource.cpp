#include "koord/api/extension/resource.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

constexpr auto kExtendedResourceContainerSpecFields = std::tuple{
    field("limits", &ExtendedResourceContainerSpec::limits),
    field("requests", &ExtendedResourceContainerSpec::requests),
};

Status fromJson(const Json& j, ExtendedResourceContainerSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kExtendedResourceContainerSpecFields);
}

Json toJson(const ExtendedResourceContainerSpec& v) {
  return encodeFields(v, kExtendedResourceContainerSpecFields);
}

constexpr auto kExtendedResourceSpecFields = std::tuple{
    // Omitted only when there are no containers: a container with no extended resources is still
    // written, as `{}` (omitempty looks at the map, not at its values).
    field("containers", &ExtendedResourceSpec::containers),
};

Status fromJson(const Json& j, ExtendedResourceSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kExtendedResourceSpecFields);
}

Json toJson(const ExtendedResourceSpec& v) {
  return encodeFields(v, kExtendedResourceSpecFields);
}

constexpr auto kSoftEvictionSpecFields = std::tuple{
    field("timestamp", &SoftEvictionSpec::timestamp),
    field("deleteOptions", &SoftEvictionSpec::deleteOptions).ifSet(),
    field("initiator", &SoftEvictionSpec::initiator),
    field("reason", &SoftEvictionSpec::reason),
};

Status fromJson(const Json& j, SoftEvictionSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kSoftEvictionSpecFields);
}

Json toJson(const SoftEvictionSpec& v) {
  return encodeFields(v, kSoftEvictionSpecFields);
}

Result<ExtendedResourceSpec> parseExtendedResourceSpec(std::string_view value) {
  return parseAnnotationJson<ExtendedResourceSpec>(kAnnotationExtendedResourceSpec, value);
}
std::string formatExtendedResourceSpec(const ExtendedResourceSpec& spec) {
  return formatAnnotationJson(spec);
}

Result<SoftEvictionSpec> parseSoftEvictionSpec(std::string_view value) {
  return parseAnnotationJson<SoftEvictionSpec>(kAnnotationSoftEviction, value);
}
std::string formatSoftEvictionSpec(const SoftEvictionSpec& spec) {
  return formatAnnotationJson(spec);
}

}  // namespace koord::api::extension
