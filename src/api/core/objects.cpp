#include "koord/api/core/objects.hpp"

#include "encode_helpers.hpp"

namespace koord::api::core {

using internal::ifSet;
using internal::nonZero;
using internal::timeOrNull;

Status fromJson(const Json& j, Binding& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("target", out.target);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Binding& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("target", v.target);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, EventSource& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("component", out.component).field("host", out.host);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const EventSource& v) {
  ObjectEncoder e;
  e.field("component", v.component).field("host", v.host);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Event& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("involvedObject", out.involvedObject)
      .field("reason", out.reason)
      .field("message", out.message)
      .field("source", out.source)
      .field("firstTimestamp", out.firstTimestamp)
      .field("lastTimestamp", out.lastTimestamp)
      .field("count", out.count)
      .field("type", out.type)
      .field("action", out.action)
      .field("reportingComponent", out.reportingComponent)
      .field("reportingInstance", out.reportingInstance);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Event& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("involvedObject", v.involvedObject)
      .field("reason", v.reason)
      .field("message", v.message)
      .always("source", v.source);
  timeOrNull(e, "firstTimestamp", v.firstTimestamp);
  timeOrNull(e, "lastTimestamp", v.lastTimestamp);
  nonZero(e, "count", v.count);
  e.field("type", v.type)
      .field("action", v.action)
      .always("reportingComponent", v.reportingComponent)
      .always("reportingInstance", v.reportingInstance);
  Json out = e.finish(v.extra);
  // Go writes the zero MicroTime as null; keep a decoded value, else write null as Go does.
  if (!out.contains("eventTime")) {
    out["eventTime"] = nullptr;
  }
  return out;
}

Status fromJson(const Json& j, LeaseSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("holderIdentity", out.holderIdentity)
      .field("leaseDurationSeconds", out.leaseDurationSeconds)
      .field("acquireTime", out.acquireTime)
      .field("renewTime", out.renewTime)
      .field("leaseTransitions", out.leaseTransitions);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const LeaseSpec& v) {
  ObjectEncoder e;
  ifSet(e, "holderIdentity", v.holderIdentity);
  ifSet(e, "leaseDurationSeconds", v.leaseDurationSeconds);
  ifSet(e, "acquireTime", v.acquireTime);
  ifSet(e, "renewTime", v.renewTime);
  ifSet(e, "leaseTransitions", v.leaseTransitions);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Lease& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Lease& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ConfigMap& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("data", out.data)
      .field("binaryData", out.binaryData);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ConfigMap& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .field("data", v.data)
      .field("binaryData", v.binaryData);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Preconditions& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("uid", out.uid).field("resourceVersion", out.resourceVersion);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Preconditions& v) {
  ObjectEncoder e;
  ifSet(e, "uid", v.uid);
  ifSet(e, "resourceVersion", v.resourceVersion);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, DeleteOptions& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("gracePeriodSeconds", out.gracePeriodSeconds)
      .field("preconditions", out.preconditions)
      .field("propagationPolicy", out.propagationPolicy)
      .field("dryRun", out.dryRun);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const DeleteOptions& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion).field("kind", v.kind);
  ifSet(e, "gracePeriodSeconds", v.gracePeriodSeconds);
  ifSet(e, "preconditions", v.preconditions);
  e.field("propagationPolicy", v.propagationPolicy).field("dryRun", v.dryRun);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Eviction& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("deleteOptions", out.deleteOptions);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Eviction& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion).field("kind", v.kind).always("metadata", v.metadata);
  ifSet(e, "deleteOptions", v.deleteOptions);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, StatusCause& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("reason", out.reason).field("message", out.message).field("field", out.field);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const StatusCause& v) {
  ObjectEncoder e;
  e.field("reason", v.reason).field("message", v.message).field("field", v.field);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, StatusDetails& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("group", out.group)
      .field("kind", out.kind)
      .field("uid", out.uid)
      .field("causes", out.causes)
      .field("retryAfterSeconds", out.retryAfterSeconds);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const StatusDetails& v) {
  ObjectEncoder e;
  e.field("name", v.name)
      .field("group", v.group)
      .field("kind", v.kind)
      .field("uid", v.uid)
      .field("causes", v.causes);
  nonZero(e, "retryAfterSeconds", v.retryAfterSeconds);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ApiStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("status", out.status)
      .field("message", out.message)
      .field("reason", out.reason)
      .field("details", out.details)
      .field("code", out.code);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ApiStatus& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .field("status", v.status)
      .field("message", v.message)
      .field("reason", v.reason);
  ifSet(e, "details", v.details);
  nonZero(e, "code", v.code);
  return e.finish(v.extra);
}

Binding makeBinding(const std::string& namespace_name, const std::string& pod_name,
                    const std::string& pod_uid, const std::string& node_name) {
  Binding b;
  b.apiVersion = "v1";
  b.kind = "Binding";
  b.metadata.name = pod_name;
  b.metadata.namespace_ = namespace_name;
  b.metadata.uid = pod_uid;
  b.target.kind = "Node";
  b.target.name = node_name;
  return b;
}

}  // namespace koord::api::core
