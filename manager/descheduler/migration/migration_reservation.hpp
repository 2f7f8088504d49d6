// The Reservation a ReservationFirst job migrates its pod into (Koordinator's
// pkg/descheduler/controllers/migration/reservation/, koordinator-reference.md 2.7 and 3(j)):
// how it is built, how its state reads, who it was bound to, and its removal.
//
// buildReservation(job, pod, now) starts from spec.reservationOptions.template when the job has
// one and fills in what it leaves out:
// - name: the template's, else the job's UID (so creating it again finds the same object);
// - spec.template: a copy of the pod (name, namespace, labels, annotations and spec; without
//   the system fields, without the scheduler's result annotations reservation-allocated,
//   resource-status and device-allocated, and with spec.nodeName cleared);
// - owners: the pod's controller reference (with the pod's namespace), or the pod itself as an
//   object reference (kind Pod, namespace, name, uid) when it has no controller;
// - allocateOnce = true; ttl = the job's ttl when the template sets neither ttl nor expires;
// - labels app.kubernetes.io/created-by=koord-descheduler and
//   scheduling.koordinator.sh/reservation-order=<now in Unix milliseconds>;
// - a required node affinity that keeps it off the pod's node: matchFields metadata.name NotIn
//   [pod.spec.nodeName], added to every term (or as the only term).
// No ownerReference to the job (as in Koordinator). kInvalidArgument when the job has neither a
// template name nor a UID.
//
// Pure functions except deleteReservation (one API call); thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "manager/descheduler/migration/job_status.hpp"

namespace koord::manager::descheduler::migration {

inline constexpr std::string_view kReservationCreator = "koord-descheduler";

[[nodiscard]] Result<api::scheduling::Reservation> buildReservation(
    const api::scheduling::PodMigrationJob& job, const api::core::Pod& pod, WallTime now);

// The owners a migration reservation gets for `pod` (see above).
[[nodiscard]] std::vector<api::scheduling::ReservationOwner> reservationOwners(
    const api::core::Pod& pod);

// Phase "" or Pending: not placed yet.
[[nodiscard]] bool isReservationPending(const api::scheduling::Reservation& r);
// Phase Failed with Ready=False/Expired.
[[nodiscard]] bool isReservationExpired(const api::scheduling::Reservation& r);
[[nodiscard]] bool isReservationSucceeded(const api::scheduling::Reservation& r);
// The Scheduled condition when its reason is Unschedulable, else nullptr.
[[nodiscard]] const api::scheduling::ReservationCondition* unschedulableCondition(
    const api::scheduling::Reservation& r);

// The pod bound to `r`: status.currentOwners[0] when the reservation lists one; otherwise the
// first of `candidates` whose scheduling.koordinator.sh/reservation-allocated names r (by UID,
// or by name when r has no UID). std::nullopt when none.
[[nodiscard]] std::optional<api::core::ObjectReference> boundPod(
    const api::scheduling::Reservation& r,
    const std::vector<std::shared_ptr<const api::core::Pod>>& candidates);

// Deletes the Reservation the job refers to (spec.reservationOptions.reservationRef); ok when it
// has none or it is already gone; the API error otherwise.
[[nodiscard]] Status deleteReservation(k8s::Client& client,
                                       const api::scheduling::PodMigrationJob& job);

}  // namespace koord::manager::descheduler::migration
