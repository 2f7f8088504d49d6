#include "koord/api/core/objects.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::core {

constexpr auto kBindingFields = std::tuple{
    field("apiVersion", &Binding::apiVersion),
    field("kind", &Binding::kind),
    field("metadata", &Binding::metadata).always(),
    field("target", &Binding::target).always(),
};

Status fromJson(const Json& j, Binding& out, const std::string& path) {
  return decodeFields(j, out, path, kBindingFields);
}

Json toJson(const Binding& v) {
  return encodeFields(v, kBindingFields);
}

constexpr auto kEventSourceFields = std::tuple{
    field("component", &EventSource::component),
    field("host", &EventSource::host),
};

Status fromJson(const Json& j, EventSource& out, const std::string& path) {
  return decodeFields(j, out, path, kEventSourceFields);
}

Json toJson(const EventSource& v) {
  return encodeFields(v, kEventSourceFields);
}

constexpr auto kEventFields = std::tuple{
    field("apiVersion", &Event::apiVersion),
    field("kind", &Event::kind),
    field("metadata", &Event::metadata).always(),
    field("involvedObject", &Event::involvedObject).always(),
    field("reason", &Event::reason),
    field("message", &Event::message),
    field("source", &Event::source).always(),
    field("firstTimestamp", &Event::firstTimestamp).nullIfEmpty(),
    field("lastTimestamp", &Event::lastTimestamp).nullIfEmpty(),
    field("count", &Event::count).omitZero(),
    field("type", &Event::type),
    field("action", &Event::action),
    field("reportingComponent", &Event::reportingComponent).always(),
    field("reportingInstance", &Event::reportingInstance).always(),
};

Status fromJson(const Json& j, Event& out, const std::string& path) {
  return decodeFields(j, out, path, kEventFields);
}

Json toJson(const Event& v) {
  Json out = encodeFields(v, kEventFields);
  // Hand-written: eventTime is not a typed field (it lives in `extra`). Go writes the zero
  // MicroTime as null; keep a decoded value, else write null as Go does.
  if (!out.contains("eventTime")) {
    out["eventTime"] = nullptr;
  }
  return out;
}

constexpr auto kLeaseSpecFields = std::tuple{
    field("holderIdentity", &LeaseSpec::holderIdentity).ifSet(),
    field("leaseDurationSeconds", &LeaseSpec::leaseDurationSeconds).ifSet(),
    field("acquireTime", &LeaseSpec::acquireTime).ifSet(),
    field("renewTime", &LeaseSpec::renewTime).ifSet(),
    field("leaseTransitions", &LeaseSpec::leaseTransitions).ifSet(),
};

Status fromJson(const Json& j, LeaseSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kLeaseSpecFields);
}

Json toJson(const LeaseSpec& v) {
  return encodeFields(v, kLeaseSpecFields);
}

constexpr auto kLeaseFields = std::tuple{
    field("apiVersion", &Lease::apiVersion),
    field("kind", &Lease::kind),
    field("metadata", &Lease::metadata).always(),
    field("spec", &Lease::spec).always(),
};

Status fromJson(const Json& j, Lease& out, const std::string& path) {
  return decodeFields(j, out, path, kLeaseFields);
}

Json toJson(const Lease& v) {
  return encodeFields(v, kLeaseFields);
}

constexpr auto kConfigMapFields = std::tuple{
    field("apiVersion", &ConfigMap::apiVersion),      field("kind", &ConfigMap::kind),
    field("metadata", &ConfigMap::metadata).always(), field("data", &ConfigMap::data),
    field("binaryData", &ConfigMap::binaryData),
};

Status fromJson(const Json& j, ConfigMap& out, const std::string& path) {
  return decodeFields(j, out, path, kConfigMapFields);
}

Json toJson(const ConfigMap& v) {
  return encodeFields(v, kConfigMapFields);
}

constexpr auto kPreconditionsFields = std::tuple{
    field("uid", &Preconditions::uid).ifSet(),
    field("resourceVersion", &Preconditions::resourceVersion).ifSet(),
};

Status fromJson(const Json& j, Preconditions& out, const std::string& path) {
  return decodeFields(j, out, path, kPreconditionsFields);
}

Json toJson(const Preconditions& v) {
  return encodeFields(v, kPreconditionsFields);
}

constexpr auto kDeleteOptionsFields = std::tuple{
    field("apiVersion", &DeleteOptions::apiVersion),
    field("kind", &DeleteOptions::kind),
    field("gracePeriodSeconds", &DeleteOptions::gracePeriodSeconds).ifSet(),
    field("preconditions", &DeleteOptions::preconditions).ifSet(),
    field("propagationPolicy", &DeleteOptions::propagationPolicy),
    field("dryRun", &DeleteOptions::dryRun),
};

Status fromJson(const Json& j, DeleteOptions& out, const std::string& path) {
  return decodeFields(j, out, path, kDeleteOptionsFields);
}

Json toJson(const DeleteOptions& v) {
  return encodeFields(v, kDeleteOptionsFields);
}

constexpr auto kEvictionFields = std::tuple{
    field("apiVersion", &Eviction::apiVersion),
    field("kind", &Eviction::kind),
    field("metadata", &Eviction::metadata).always(),
    field("deleteOptions", &Eviction::deleteOptions).ifSet(),
};

Status fromJson(const Json& j, Eviction& out, const std::string& path) {
  return decodeFields(j, out, path, kEvictionFields);
}

Json toJson(const Eviction& v) {
  return encodeFields(v, kEvictionFields);
}

constexpr auto kStatusCauseFields = std::tuple{
    field("reason", &StatusCause::reason),
    field("message", &StatusCause::message),
    field("field", &StatusCause::field),
};

Status fromJson(const Json& j, StatusCause& out, const std::string& path) {
  return decodeFields(j, out, path, kStatusCauseFields);
}

Json toJson(const StatusCause& v) {
  return encodeFields(v, kStatusCauseFields);
}

constexpr auto kStatusDetailsFields = std::tuple{
    field("name", &StatusDetails::name),
    field("group", &StatusDetails::group),
    field("kind", &StatusDetails::kind),
    field("uid", &StatusDetails::uid),
    field("causes", &StatusDetails::causes),
    field("retryAfterSeconds", &StatusDetails::retryAfterSeconds).omitZero(),
};

Status fromJson(const Json& j, StatusDetails& out, const std::string& path) {
  return decodeFields(j, out, path, kStatusDetailsFields);
}

Json toJson(const StatusDetails& v) {
  return encodeFields(v, kStatusDetailsFields);
}

constexpr auto kApiStatusFields = std::tuple{
    field("apiVersion", &ApiStatus::apiVersion),
    field("kind", &ApiStatus::kind),
    field("metadata", &ApiStatus::metadata).always(),
    field("status", &ApiStatus::status),
    field("message", &ApiStatus::message),
    field("reason", &ApiStatus::reason),
    field("details", &ApiStatus::details).ifSet(),
    field("code", &ApiStatus::code).omitZero(),
};

Status fromJson(const Json& j, ApiStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kApiStatusFields);
}

Json toJson(const ApiStatus& v) {
  return encodeFields(v, kApiStatusFields);
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
