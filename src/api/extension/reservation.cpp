#include "koord/api/extension/reservation.hpp"

#include "koord/api/extension/annotation.hpp"
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

Status fromJson(const Json& j, ReservationAllocated& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name).field("uid", out.uid);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationAllocated& v) {
  return ObjectEncoder().field("name", v.name).field("uid", v.uid).finish(v.extra);
}

Status fromJson(const Json& j, ReservationAffinitySelector& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("reservationSelectorTerms", out.reservationSelectorTerms);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationAffinitySelector& v) {
  return ObjectEncoder()
      .field("reservationSelectorTerms", v.reservationSelectorTerms)
      .finish(v.extra);
}

Status fromJson(const Json& j, ReservationAffinity& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("requiredDuringSchedulingIgnoredDuringExecution",
             out.requiredDuringSchedulingIgnoredDuringExecution)
      .field("reservationSelector", out.reservationSelector)
      .field("tolerations", out.tolerations);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationAffinity& v) {
  ObjectEncoder e;
  e.field("name", v.name);
  if (v.requiredDuringSchedulingIgnoredDuringExecution) {
    // A pointer in Go: written even when it holds no terms.
    e.always("requiredDuringSchedulingIgnoredDuringExecution",
             *v.requiredDuringSchedulingIgnoredDuringExecution);
  }
  return e.field("reservationSelector", v.reservationSelector)
      .field("tolerations", v.tolerations)
      .finish(v.extra);
}

Status fromJson(const Json& j, ReservationRestrictedOptions& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resources", out.resources);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationRestrictedOptions& v) {
  return ObjectEncoder().field("resources", v.resources).finish(v.extra);
}

Status fromJson(const Json& j, ExactMatchReservationSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resourceNames", out.resourceNames);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ExactMatchReservationSpec& v) {
  return ObjectEncoder().field("resourceNames", v.resourceNames).finish(v.extra);
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
