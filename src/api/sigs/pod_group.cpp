#include "koord/api/sigs/pod_group.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::sigs {

constexpr auto kPodGroupSpecFields = std::tuple{
    field("minMember", &PodGroupSpec::minMember).omitZero(),
    field("minResources", &PodGroupSpec::minResources),
    field("scheduleTimeoutSeconds", &PodGroupSpec::scheduleTimeoutSeconds),
};

Status fromJson(const Json& j, PodGroupSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kPodGroupSpecFields);
}

Json toJson(const PodGroupSpec& v) {
  return encodeFields(v, kPodGroupSpecFields);
}

constexpr auto kPodGroupStatusFields = std::tuple{
    field("phase", &PodGroupStatus::phase),
    field("occupiedBy", &PodGroupStatus::occupiedBy),
    field("scheduled", &PodGroupStatus::scheduled).omitZero(),
    field("running", &PodGroupStatus::running).omitZero(),
    field("succeeded", &PodGroupStatus::succeeded).omitZero(),
    field("failed", &PodGroupStatus::failed).omitZero(),
    field("scheduleStartTime", &PodGroupStatus::scheduleStartTime),
};

Status fromJson(const Json& j, PodGroupStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kPodGroupStatusFields);
}

Json toJson(const PodGroupStatus& v) {
  return encodeFields(v, kPodGroupStatusFields);
}

constexpr auto kPodGroupFields = std::tuple{
    field("apiVersion", &PodGroup::apiVersion),      field("kind", &PodGroup::kind),
    field("metadata", &PodGroup::metadata).always(), field("spec", &PodGroup::spec).always(),
    field("status", &PodGroup::status).always(),
};

Status fromJson(const Json& j, PodGroup& out, const std::string& path) {
  return decodeFields(j, out, path, kPodGroupFields);
}

Json toJson(const PodGroup& v) {
  return encodeFields(v, kPodGroupFields);
}

}  // namespace koord::api::sigs
