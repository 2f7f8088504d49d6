#include "koord/api/scheduling/pod_migration_job.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::scheduling {
namespace {

// preemptionOptions is a Go pointer to an empty struct: a set but null value is written as {}.
Json preemptionOptionsToJson(const std::optional<Json>& options) {
  return options->is_null() ? Json::object() : *options;
}

}  // namespace

constexpr auto kReservationTemplateSpecFields = std::tuple{
    field("metadata", &ReservationTemplateSpec::metadata).always(),
    field("spec", &ReservationTemplateSpec::spec).always(),
};

Status fromJson(const Json& j, ReservationTemplateSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationTemplateSpecFields);
}

Json toJson(const ReservationTemplateSpec& v) {
  return encodeFields(v, kReservationTemplateSpecFields);
}

constexpr auto kPodMigrateReservationOptionsFields = std::tuple{
    field("reservationRef", &PodMigrateReservationOptions::reservationRef),
    field("template", &PodMigrateReservationOptions::template_).ifSet(),
    field("preemptionOptions", &PodMigrateReservationOptions::preemptionOptions)
        .ifSet()
        .encodeWith(&preemptionOptionsToJson),
};

Status fromJson(const Json& j, PodMigrateReservationOptions& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMigrateReservationOptionsFields);
}

Json toJson(const PodMigrateReservationOptions& v) {
  return encodeFields(v, kPodMigrateReservationOptionsFields);
}

constexpr auto kPodMigrationJobSpecFields = std::tuple{
    field("paused", &PodMigrationJobSpec::paused).omitZero(),
    field("ttl", &PodMigrationJobSpec::ttl),
    field("mode", &PodMigrationJobSpec::mode),
    // `podRef` has no omitempty upstream.
    field("podRef", &PodMigrationJobSpec::podRef).always().required(),
    field("reservationOptions", &PodMigrationJobSpec::reservationOptions).ifSet(),
    field("deleteOptions", &PodMigrationJobSpec::deleteOptions).ifSet(),
};

Status fromJson(const Json& j, PodMigrationJobSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMigrationJobSpecFields);
}

Json toJson(const PodMigrationJobSpec& v) {
  return encodeFields(v, kPodMigrationJobSpecFields);
}

constexpr auto kPodMigrationJobConditionFields = std::tuple{
    field("type", &PodMigrationJobCondition::type).always(),
    field("status", &PodMigrationJobCondition::status).always(),
    field("lastProbeTime", &PodMigrationJobCondition::lastProbeTime).nullIfEmpty(),
    field("lastTransitionTime", &PodMigrationJobCondition::lastTransitionTime).nullIfEmpty(),
    field("reason", &PodMigrationJobCondition::reason),
    field("message", &PodMigrationJobCondition::message),
};

Status fromJson(const Json& j, PodMigrationJobCondition& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMigrationJobConditionFields);
}

Json toJson(const PodMigrationJobCondition& v) {
  return encodeFields(v, kPodMigrationJobConditionFields);
}

constexpr auto kPodMigrationJobPreemptedReservationFields = std::tuple{
    field("namespace", &PodMigrationJobPreemptedReservation::namespace_),
    field("name", &PodMigrationJobPreemptedReservation::name),
    field("nodeName", &PodMigrationJobPreemptedReservation::nodeName),
    field("phase", &PodMigrationJobPreemptedReservation::phase),
    field("preemptedPodRef", &PodMigrationJobPreemptedReservation::preemptedPodRef),
    field("podsRef", &PodMigrationJobPreemptedReservation::podsRef),
};

Status fromJson(const Json& j, PodMigrationJobPreemptedReservation& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMigrationJobPreemptedReservationFields);
}

Json toJson(const PodMigrationJobPreemptedReservation& v) {
  return encodeFields(v, kPodMigrationJobPreemptedReservationFields);
}

constexpr auto kPodMigrationJobStatusFields = std::tuple{
    field("phase", &PodMigrationJobStatus::phase),
    field("status", &PodMigrationJobStatus::status),
    field("reason", &PodMigrationJobStatus::reason),
    field("message", &PodMigrationJobStatus::message),
    field("conditions", &PodMigrationJobStatus::conditions),
    field("nodeName", &PodMigrationJobStatus::nodeName),
    field("podRef", &PodMigrationJobStatus::podRef),
    field("preemptedPodsRef", &PodMigrationJobStatus::preemptedPodsRef),
    field("preemptedPodsReservation", &PodMigrationJobStatus::preemptedPodsReservation),
};

Status fromJson(const Json& j, PodMigrationJobStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMigrationJobStatusFields);
}

Json toJson(const PodMigrationJobStatus& v) {
  return encodeFields(v, kPodMigrationJobStatusFields);
}

constexpr auto kPodMigrationJobFields = std::tuple{
    field("apiVersion", &PodMigrationJob::apiVersion),
    field("kind", &PodMigrationJob::kind),
    field("metadata", &PodMigrationJob::metadata).always(),
    field("spec", &PodMigrationJob::spec).always(),
    field("status", &PodMigrationJob::status).always(),
};

Status fromJson(const Json& j, PodMigrationJob& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMigrationJobFields);
}

Json toJson(const PodMigrationJob& v) {
  return encodeFields(v, kPodMigrationJobFields);
}

}  // namespace koord::api::scheduling
