#include "koord/api/extension/numa_aware.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

constexpr auto kResourceSpecFields = std::tuple{
    field("requiredCPUBindPolicy", &ResourceSpec::requiredCPUBindPolicy),
    field("preferredCPUBindPolicy", &ResourceSpec::preferredCPUBindPolicy),
    field("preferredCPUExclusivePolicy", &ResourceSpec::preferredCPUExclusivePolicy),
};

Status fromJson(const Json& j, ResourceSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceSpecFields);
}

Json toJson(const ResourceSpec& v) {
  return encodeFields(v, kResourceSpecFields);
}

constexpr auto kNUMANodeResourceFields = std::tuple{
    field("node", &NUMANodeResource::node).always(),
    field("resources", &NUMANodeResource::resources),
};

Status fromJson(const Json& j, NUMANodeResource& out, const std::string& path) {
  return decodeFields(j, out, path, kNUMANodeResourceFields);
}

Json toJson(const NUMANodeResource& v) {
  return encodeFields(v, kNUMANodeResourceFields);
}

constexpr auto kResourceStatusFields = std::tuple{
    field("cpuset", &ResourceStatus::cpuset),
    field("numaNodeResources", &ResourceStatus::numaNodeResources),
};

Status fromJson(const Json& j, ResourceStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceStatusFields);
}

Json toJson(const ResourceStatus& v) {
  return encodeFields(v, kResourceStatusFields);
}

constexpr auto kNUMATopologySpecFields = std::tuple{
    field("numaTopologyPolicy", &NUMATopologySpec::numaTopologyPolicy),
    field("singleNUMANodeExclusive", &NUMATopologySpec::singleNUMANodeExclusive),
};

Status fromJson(const Json& j, NUMATopologySpec& out, const std::string& path) {
  return decodeFields(j, out, path, kNUMATopologySpecFields);
}

Json toJson(const NUMATopologySpec& v) {
  return encodeFields(v, kNUMATopologySpecFields);
}

Result<ResourceSpec> parseResourceSpec(std::string_view value) {
  return parseAnnotationJson<ResourceSpec>(kAnnotationResourceSpec, value);
}
std::string formatResourceSpec(const ResourceSpec& spec) {
  return formatAnnotationJson(spec);
}

Result<ResourceStatus> parseResourceStatus(std::string_view value) {
  return parseAnnotationJson<ResourceStatus>(kAnnotationResourceStatus, value);
}
std::string formatResourceStatus(const ResourceStatus& status) {
  return formatAnnotationJson(status);
}

Result<NUMATopologySpec> parseNUMATopologySpec(std::string_view value) {
  return parseAnnotationJson<NUMATopologySpec>(kAnnotationNUMATopologySpec, value);
}
std::string formatNUMATopologySpec(const NUMATopologySpec& spec) {
  return formatAnnotationJson(spec);
}

}  // namespace koord::api::extension
