#include "koord/api/extension/resource.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

Status fromJson(const Json& j, ExtendedResourceContainerSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("limits", out.limits).field("requests", out.requests);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ExtendedResourceContainerSpec& v) {
  return ObjectEncoder().field("limits", v.limits).field("requests", v.requests).finish(v.extra);
}

Status fromJson(const Json& j, ExtendedResourceSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("containers", out.containers);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ExtendedResourceSpec& v) {
  ObjectEncoder e;
  if (!v.containers.empty()) {
    // A container with no extended resources is still written, as `{}`.
    e.always("containers", v.containers);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, SoftEvictionSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("timestamp", out.timestamp)
      .field("deleteOptions", out.deleteOptions)
      .field("initiator", out.initiator)
      .field("reason", out.reason);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const SoftEvictionSpec& v) {
  ObjectEncoder e;
  e.field("timestamp", v.timestamp);
  if (v.deleteOptions) {
    e.always("deleteOptions", *v.deleteOptions);
  }
  return e.field("initiator", v.initiator).field("reason", v.reason).finish(v.extra);
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
