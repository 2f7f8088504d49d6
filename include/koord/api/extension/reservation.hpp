// Reservation payloads on pods and Reservations (apis/extension/reservation.go):
//   scheduling.koordinator.sh/reservation-allocated          ReservationAllocated (scheduler)
//   scheduling.koordinator.sh/reservation-affinity           ReservationAffinity
//   scheduling.koordinator.sh/reservation-restricted-options ReservationRestrictedOptions
//   scheduling.koordinator.sh/exact-match-reservation        ExactMatchReservationSpec
// As in Koordinator, an empty value of the last three reads as the empty payload.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

struct ReservationAllocated {
  std::string name;
  std::string uid;
  Json extra;

  bool operator==(const ReservationAllocated&) const = default;
};

// The terms are ORed; each matches reservation labels like a node selector term matches node
// labels.
struct ReservationAffinitySelector {
  std::vector<core::NodeSelectorTerm> reservationSelectorTerms;
  Json extra;

  bool operator==(const ReservationAffinitySelector&) const = default;
};

struct ReservationAffinity {
  // Selects one reservation by name; the other fields are then ignored.
  std::string name;
  std::optional<ReservationAffinitySelector> requiredDuringSchedulingIgnoredDuringExecution;
  std::map<std::string, std::string> reservationSelector;
  std::vector<core::Toleration> tolerations;  // tolerate the reservation's taints
  Json extra;

  bool operator==(const ReservationAffinity&) const = default;
};

struct ReservationRestrictedOptions {
  std::vector<std::string> resources;
  Json extra;

  bool operator==(const ReservationRestrictedOptions&) const = default;
};

struct ExactMatchReservationSpec {
  std::vector<std::string> resourceNames;
  Json extra;

  bool operator==(const ExactMatchReservationSpec&) const = default;
};

// ExactMatchReservation: true when every listed resource is either absent from both lists or
// present in both with equal quantities (so true when no names are listed). Deliberate fix of a
// Koordinator quirk (reference §6.4): Koordinator returns true as soon as one listed resource is
// absent from both lists, without checking the names after it; this checks them all.
[[nodiscard]] bool exactMatchReservation(const resource::ResourceList& pod_requests,
                                         const resource::ResourceList& reservation_allocatable,
                                         const ExactMatchReservationSpec& spec);

Status fromJson(const Json& j, ReservationAllocated& out, const std::string& path);
Status fromJson(const Json& j, ReservationAffinitySelector& out, const std::string& path);
Status fromJson(const Json& j, ReservationAffinity& out, const std::string& path);
Status fromJson(const Json& j, ReservationRestrictedOptions& out, const std::string& path);
Status fromJson(const Json& j, ExactMatchReservationSpec& out, const std::string& path);
Json toJson(const ReservationAllocated& v);
Json toJson(const ReservationAffinitySelector& v);
Json toJson(const ReservationAffinity& v);
Json toJson(const ReservationRestrictedOptions& v);
Json toJson(const ExactMatchReservationSpec& v);

[[nodiscard]] Result<ReservationAllocated> parseReservationAllocated(std::string_view value);
[[nodiscard]] std::string formatReservationAllocated(const ReservationAllocated& allocated);
[[nodiscard]] Result<ReservationAffinity> parseReservationAffinity(std::string_view value);
[[nodiscard]] std::string formatReservationAffinity(const ReservationAffinity& affinity);
[[nodiscard]] Result<ReservationRestrictedOptions> parseReservationRestrictedOptions(
    std::string_view value);
[[nodiscard]] std::string formatReservationRestrictedOptions(
    const ReservationRestrictedOptions& options);
[[nodiscard]] Result<ExactMatchReservationSpec> parseExactMatchReservationSpec(
    std::string_view value);
[[nodiscard]] std::string formatExactMatchReservationSpec(const ExactMatchReservationSpec& spec);

}  // namespace koord::api::extension
