// ReservationInfo: one Reservation as the plugins see it (Koordinator's frameworkext
// ReservationInfo): what it holds on its node, what its owners already use of that, and the
// settings that decide how a pod may use it.
//
// A Reservation holds capacity only while it is Available and has a node (holdsCapacity()); the
// Reservation helper (reservation_state.hpp) keeps such reservations in their node's NodeInfo and
// fills in `allocated`, `owners` and `held` from the pods on the node whose
// scheduling.koordinator.sh/reservation-allocated names this reservation's UID. Everything else is
// computed once from the object by create().
//
// Immutable once shared; thread-safe to read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "extender/framework/resource.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::common {

using framework::Resource;

struct ReservationInfo {
  std::shared_ptr<const api::scheduling::Reservation> reservation;
  std::string name;
  std::string uid;
  std::string node;      // status.nodeName
  Resource allocatable;  // status.allocatable; the reserve pod's requests when status has none
  Resource allocated;    // what the owners on the node request (pods = their count)
  // What it holds on the node now (set by the Reservation helper): remaining(), nothing once
  // consumed(), and for a preAllocation reservation no more than the node has free after its pods
  // and the other reservations (it takes over what running pods hold as they leave).
  Resource held;
  bool pre_allocation = false;      // spec.preAllocation
  std::vector<std::string> owners;  // "namespace/name" of the pods that allocated it
  api::scheduling::ReservationAllocatePolicy policy =
      api::scheduling::ReservationAllocatePolicy::kDefault;
  bool allocate_once = true;
  // The resources a Restricted reservation limits (reservation-restricted-options); empty: every
  // resource of `allocatable`.
  std::vector<std::string> restricted;
  int64_t order = 0;  // label scheduling.koordinator.sh/reservation-order; 0 when absent/invalid
  // The CPUs it holds for its owners: the cpuset of its scheduling.koordinator.sh/resource-status
  // annotation, written when it was placed (a template that gets a cpuset: LSE/LSR, koord-prod).
  // Empty when it holds no particular CPUs.
  cpuset::CpuSet cpus;
  // The NUMA resources it holds for its owners (v1.6): the numaNodeResources of the same
  // annotation, NUMA node -> amounts (a template with a NUMA policy, or on a node with one).
  std::map<int, Resource> numa;
  // Why that annotation could not be read ("" when it could): the reservation then still holds its
  // capacity, but no particular CPUs or NUMA resources.
  std::string resource_status_error;
  // When every owner is a labelSelector of matchLabels only (the common shape), those label sets:
  // a pod owns the reservation iff its labels include one of them. Lets a matcher reject the
  // many pods that own nothing without touching the Reservation object. Unset otherwise (and for
  // the short form without owners).
  std::optional<std::vector<std::vector<std::pair<std::string, std::string>>>> owner_labels;

  // What is left for owners: allocatable - allocated per resource, never below 0 (pods 0).
  [[nodiscard]] Resource remaining() const;
  // allocateOnce and already taken by a pod.
  [[nodiscard]] bool consumed() const { return allocate_once && !owners.empty(); }

  // kInvalidArgument when the reservation has neither template nor resources, or its requests
  // or restricted-options annotation cannot be read.
  [[nodiscard]] static Result<std::shared_ptr<const ReservationInfo>> create(
      std::shared_ptr<const api::scheduling::Reservation> reservation);
};

// Whether a Reservation holds capacity on a node: phase Available and status.nodeName set.
[[nodiscard]] bool holdsCapacity(const api::scheduling::Reservation& r);

// The reserve pod: the pod a Reservation is scheduled as (Koordinator's NewReservePod). Its name
// is the reservation's name, namespace empty, UID the reservation's, spec the effective template
// (spec.nodeName = status.nodeName), annotated scheduling.koordinator.sh/reserve-pod: "true" and
// labelled scheduling.koordinator.sh/reservation-ignored: "true" (it never uses another
// reservation's capacity). nullptr when the reservation has neither template nor resources.
// Also annotated kAnnotationReserveAllocatePolicy with spec.allocatePolicy ("" for the deprecated
// default), so that placement can refuse mixing policies on a node.
[[nodiscard]] std::shared_ptr<api::core::Pod> reservePod(const api::scheduling::Reservation& r);

// koord-internal annotation of reserve pods (they never reach the API server).
inline constexpr std::string_view kAnnotationReserveAllocatePolicy =
    "scheduling.koordinator.sh/reservation-allocate-policy";

}  // namespace koord::extender::plugins::common
