#include "koord/api/scheduling/pod_migration_job.hpp"

#include "../extension/encode_util.hpp"

namespace koord::api::scheduling {
namespace {

using extension::internal::timeOrNull;
using extension::internal::trueOnly;

}  // namespace

Status fromJson(const Json& j, ReservationTemplateSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("metadata", out.metadata).field("spec", out.spec);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationTemplateSpec& v) {
  return ObjectEncoder().always("metadata", v.metadata).always("spec", v.spec).finish(v.extra);
}

Status fromJson(const Json& j, PodMigrateReservationOptions& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("reservationRef", out.reservationRef)
      .field("template", out.template_)
      .field("preemptionOptions", out.preemptionOptions);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMigrateReservationOptions& v) {
  ObjectEncoder e;
  e.field("reservationRef", v.reservationRef);
  if (v.template_) {
    e.always("template", *v.template_);
  }
  if (v.preemptionOptions) {
    e.always("preemptionOptions",
             v.preemptionOptions->is_null() ? Json::object() : *v.preemptionOptions);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodMigrationJobSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("paused", out.paused)
      .field("ttl", out.ttl)
      .field("mode", out.mode)
      .required("podRef", out.podRef)
      .field("reservationOptions", out.reservationOptions)
      .field("deleteOptions", out.deleteOptions);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMigrationJobSpec& v) {
  ObjectEncoder e;
  trueOnly(e, "paused", v.paused);
  e.field("ttl", v.ttl).field("mode", v.mode);
  // `podRef` has no omitempty upstream.
  e.always("podRef", v.podRef);
  if (v.reservationOptions) {
    e.always("reservationOptions", *v.reservationOptions);
  }
  if (v.deleteOptions) {
    e.always("deleteOptions", *v.deleteOptions);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodMigrationJobCondition& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type)
      .field("status", out.status)
      .field("lastProbeTime", out.lastProbeTime)
      .field("lastTransitionTime", out.lastTransitionTime)
      .field("reason", out.reason)
      .field("message", out.message);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMigrationJobCondition& v) {
  ObjectEncoder e;
  e.always("type", v.type).always("status", v.status);
  timeOrNull(e, "lastProbeTime", v.lastProbeTime);
  timeOrNull(e, "lastTransitionTime", v.lastTransitionTime);
  return e.field("reason", v.reason).field("message", v.message).finish(v.extra);
}

Status fromJson(const Json& j, PodMigrationJobPreemptedReservation& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("namespace", out.namespace_)
      .field("name", out.name)
      .field("nodeName", out.nodeName)
      .field("phase", out.phase)
      .field("preemptedPodRef", out.preemptedPodRef)
      .field("podsRef", out.podsRef);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMigrationJobPreemptedReservation& v) {
  return ObjectEncoder()
      .field("namespace", v.namespace_)
      .field("name", v.name)
      .field("nodeName", v.nodeName)
      .field("phase", v.phase)
      .field("preemptedPodRef", v.preemptedPodRef)
      .field("podsRef", v.podsRef)
      .finish(v.extra);
}

Status fromJson(const Json& j, PodMigrationJobStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("phase", out.phase)
      .field("status", out.status)
      .field("reason", out.reason)
      .field("message", out.message)
      .field("conditions", out.conditions)
      .field("nodeName", out.nodeName)
      .field("podRef", out.podRef)
      .field("preemptedPodsRef", out.preemptedPodsRef)
      .field("preemptedPodsReservation", out.preemptedPodsReservation);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMigrationJobStatus& v) {
  return ObjectEncoder()
      .field("phase", v.phase)
      .field("status", v.status)
      .field("reason", v.reason)
      .field("message", v.message)
      .field("conditions", v.conditions)
      .field("nodeName", v.nodeName)
      .field("podRef", v.podRef)
      .field("preemptedPodsRef", v.preemptedPodsRef)
      .field("preemptedPodsReservation", v.preemptedPodsReservation)
      .finish(v.extra);
}

Status fromJson(const Json& j, PodMigrationJob& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMigrationJob& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::scheduling
