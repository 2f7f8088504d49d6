#include "koord/api/extension/numa_aware.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

Status fromJson(const Json& j, ResourceSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("requiredCPUBindPolicy", out.requiredCPUBindPolicy)
      .field("preferredCPUBindPolicy", out.preferredCPUBindPolicy)
      .field("preferredCPUExclusivePolicy", out.preferredCPUExclusivePolicy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceSpec& v) {
  return ObjectEncoder()
      .field("requiredCPUBindPolicy", v.requiredCPUBindPolicy)
      .field("preferredCPUBindPolicy", v.preferredCPUBindPolicy)
      .field("preferredCPUExclusivePolicy", v.preferredCPUExclusivePolicy)
      .finish(v.extra);
}

Status fromJson(const Json& j, NUMANodeResource& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("node", out.node).field("resources", out.resources);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NUMANodeResource& v) {
  return ObjectEncoder().always("node", v.node).field("resources", v.resources).finish(v.extra);
}

Status fromJson(const Json& j, ResourceStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("cpuset", out.cpuset).field("numaNodeResources", out.numaNodeResources);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceStatus& v) {
  return ObjectEncoder()
      .field("cpuset", v.cpuset)
      .field("numaNodeResources", v.numaNodeResources)
      .finish(v.extra);
}

Status fromJson(const Json& j, NUMATopologySpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("numaTopologyPolicy", out.numaTopologyPolicy)
      .field("singleNUMANodeExclusive", out.singleNUMANodeExclusive);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NUMATopologySpec& v) {
  return ObjectEncoder()
      .field("numaTopologyPolicy", v.numaTopologyPolicy)
      .field("singleNUMANodeExclusive", v.singleNUMANodeExclusive)
      .finish(v.extra);
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
