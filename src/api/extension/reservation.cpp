#include "koord/api/extension/reservation.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

bool exactMatchReservation(const resource::ResourceList& pod_requests,
                           const resource::ResourceList& reservation_allocatable,
                           const ExactMatchReservationSpec& spec) {
  for (const auto& name : spec.resourceNames) {
    auto allocatable = reservation_allocatable.find(name);
    auto request = pod_requests.find(name);
    bool in_reservation = allocatable != reservation_allocatable.end();
    bool in_pod = request != pod_requests.end();
    if (!in_reservation && !in_pod) {
      continue;  // Koordinator returns true here without checking the remaining names
    }
    if (!in_reservation || !in_pod) {
      return false;
    }
    if (!(allocatable->second == request->second)) {
      return false;
    }
  }
  return true;
}

constexpr auto kReservationAllocatedFields = std::tuple{
    field("name", &ReservationAllocated::name),
    field("uid", &ReservationAllocated::uid),
};

Status fromJson(const Json& j, ReservationAllocated& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationAllocatedFields);
}

Json toJson(const ReservationAllocated& v) {
  return encodeFields(v, kReservationAllocatedFields);
}

constexpr auto kReservationAffinitySelectorFields = std::tuple{
    field("reservationSelectorTerms", &ReservationAffinitySelector::reservationSelectorTerms),
};

Status fromJson(const Json& j, ReservationAffinitySelector& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationAffinitySelectorFields);
}

Json toJson(const ReservationAffinitySelector& v) {
  return encodeFields(v, kReservationAffinitySelectorFields);
}

constexpr auto kReservationAffinityFields = std::tuple{
    field("name", &ReservationAffinity::name),
    // A pointer in Go: written even when it holds no terms.
    field("requiredDuringSchedulingIgnoredDuringExecution",
          &ReservationAffinity::requiredDuringSchedulingIgnoredDuringExecution)
        .ifSet(),
    field("reservationSelector", &ReservationAffinity::reservationSelector),
    field("tolerations", &ReservationAffinity::tolerations),
};

Status fromJson(const Json& j, ReservationAffinity& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationAffinityFields);
}

Json toJson(const ReservationAffinity& v) {
  return encodeFields(v, kReservationAffinityFields);
}

constexpr auto kReservationRestrictedOptionsFields = std::tuple{
    field("resources", &ReservationRestrictedOptions::resources),
};

Status fromJson(const Json& j, ReservationRestrictedOptions& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationRestrictedOptionsFields);
}

Json toJson(const ReservationRestrictedOptions& v) {
  return encodeFields(v, kReservationRestrictedOptionsFields);
}

constexpr auto kExactMatchReservationSpecFields = std::tuple{
    field("resourceNames", &ExactMatchReservationSpec::resourceNames),
};

Status fromJson(const Json& j, ExactMatchReservationSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kExactMatchReservationSpecFields);
}

Json toJson(const ExactMatchReservationSpec& v) {
  return encodeFields(v, kExactMatchReservationSpecFields);
}

Result<ReservationAllocated> parseReservationAllocated(std::string_view value) {
  return parseAnnotationJson<ReservationAllocated>(kAnnotationReservationAllocated, value);
}
std::string formatReservationAllocated(const ReservationAllocated& allocated) {
  return formatAnnotationJson(allocated);
}

Result<ReservationAffinity> parseReservationAffinity(std::string_view value) {
  if (value.empty()) {
    return ReservationAffinity{};
  }
  return parseAnnotationJson<ReservationAffinity>(kAnnotationReservationAffinity, value);
}
std::string formatReservationAffinity(const ReservationAffinity& affinity) {
  return formatAnnotationJson(affinity);
}

Result<ReservationRestrictedOptions> parseReservationRestrictedOptions(std::string_view value) {
  if (value.empty()) {
    return ReservationRestrictedOptions{};
  }
  return parseAnnotationJson<ReservationRestrictedOptions>(kAnnotationReservationRestrictedOptions,
                                                           value);
}
std::string formatReservationRestrictedOptions(const ReservationRestrictedOptions& options) {
  return formatAnnotationJson(options);
}

Result<ExactMatchReservationSpec> parseExactMatchReservationSpec(std::string_view value) {
  if (value.empty()) {
    return ExactMatchReservationSpec{};
  }
  return parseAnnotationJson<ExactMatchReservationSpec>(kAnnotationExactMatchReservation, value);
}
std::string formatExactMatchReservationSpec(const ExactMatchReservationSpec& spec) {
  return formatAnnotationJson(spec);
}

}  // namespace koord::api::extension
