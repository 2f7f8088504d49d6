// The Reservation lifecycle as pure functions of a Reservation, what the cluster shows and the
// time (Koordinator's reservation controller and the scheduler's status writes;
// koordinator-reference.md 3(f) "Reservation lifecycle"). The controller (controller.hpp) applies
// what they return; nothing here does I/O.
//
// Conditions: setCondition() moves lastTransitionTime only when the status changes and sets
// lastProbeTime to now. Times are metav1.Time text ("2006-01-02T15:04:05Z").
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "extender/framework/node_info.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::reservation {

using WallTime = std::chrono::system_clock::time_point;

// RFC 3339 as the API server writes it: "2006-01-02T15:04:05Z", optionally with fractional
// seconds and a "+07:00"/"-07:00" offset instead of Z. kInvalidArgument otherwise.
[[nodiscard]] Result<WallTime> parseTime(std::string_view text);

// Succeeded or Failed.
[[nodiscard]] bool isTerminal(const api::scheduling::Reservation& r);

// When `r` expires: spec.expires when set; otherwise creationTimestamp + spec.ttl (24h when
// neither is set). std::nullopt when ttl is 0 (expiry disabled) or there is no creation time to
// count from. kInvalidArgument for an unreadable expires, ttl or creationTimestamp.
[[nodiscard]] Result<std::optional<WallTime>> expiryTime(const api::scheduling::Reservation& r);

// Sets or replaces the condition of `type` (see the header comment).
void setCondition(api::scheduling::ReservationStatus& status, std::string_view type,
                  std::string_view condition_status, std::string_view reason, std::string message,
                  WallTime now);

// The status once placed on `node`: phase Available, nodeName, allocatable = what the reserve
// pod requests (`allocatable`), Scheduled=True/Scheduled and Ready=True/Available.
[[nodiscard]] api::scheduling::ReservationStatus availableStatus(
    const api::scheduling::Reservation& r, const std::string& node,
    const resource::ResourceList& allocatable, WallTime now);

// The status of one that fits nowhere: phase Pending, Scheduled=False/Unschedulable with
// `message` (kube-scheduler's FitError text).
[[nodiscard]] api::scheduling::ReservationStatus unschedulableStatus(
    const api::scheduling::Reservation& r, std::string message, WallTime now);

// The status of an expired one: phase Failed, Ready=False/Expired with `message`.
[[nodiscard]] api::scheduling::ReservationStatus expiredStatus(
    const api::scheduling::Reservation& r, std::string message, WallTime now);

// The owners' view of an Available reservation on `node`: currentOwners (namespace, name, uid of
// the pods whose reservation-allocated UID is r's, sorted by namespace/name) and allocated (the
// sum of their requests, restricted to the names in status.allocatable); with allocateOnce (the
// default) and at least one owner the phase becomes Succeeded with Ready=False/Succeeded.
// std::nullopt when nothing changes.
[[nodiscard]] std::optional<api::scheduling::ReservationStatus> ownersStatus(
    const api::scheduling::Reservation& r, const framework::NodeInfo& node, WallTime now);

// Whether a terminal reservation may be deleted: `retention` has passed since its newest
// condition's lastTransitionTime (its creationTimestamp when it has none).
[[nodiscard]] bool collectible(const api::scheduling::Reservation& r, WallTime now,
                               std::chrono::seconds retention);

}  // namespace koord::extender::reservation
