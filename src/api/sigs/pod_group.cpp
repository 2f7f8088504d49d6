#include "koord/api/sigs/pod_group.hpp"

#include "../extension/encode_util.hpp"

namespace koord::api::sigs {
namespace {

using extension::internal::nonZero;

}  // namespace

Status fromJson(const Json& j, PodGroupSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("minMember", out.minMember)
      .field("minResources", out.minResources)
      .field("scheduleTimeoutSeconds", out.scheduleTimeoutSeconds);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodGroupSpec& v) {
  ObjectEncoder e;
  nonZero(e, "minMember", v.minMember);
  e.field("minResources", v.minResources);
  e.field("scheduleTimeoutSeconds", v.scheduleTimeoutSeconds);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodGroupStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("phase", out.phase)
      .field("occupiedBy", out.occupiedBy)
      .field("scheduled", out.scheduled)
      .field("running", out.running)
      .field("succeeded", out.succeeded)
      .field("failed", out.failed)
      .field("scheduleStartTime", out.scheduleStartTime);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodGroupStatus& v) {
  ObjectEncoder e;
  e.field("phase", v.phase).field("occupiedBy", v.occupiedBy);
  nonZero(e, "scheduled", v.scheduled);
  nonZero(e, "running", v.running);
  nonZero(e, "succeeded", v.succeeded);
  nonZero(e, "failed", v.failed);
  e.field("scheduleStartTime", v.scheduleStartTime);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodGroup& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodGroup& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::sigs
