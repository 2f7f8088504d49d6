// Reservation matching: whether a pod may use a Reservation placed on a node
// (koordinator-reference.md 3(f) "Matching a pod to a reservation on a node", steps 2-4;
// Koordinator's transformer.go checkReservationMatchedOrIgnored and pkg/util/reservation). Pure
// functions; thread-safe.
//
// Owners (step 2): spec.owners is a DNF. The owners are ORed, the fields inside one owner ANDed,
// and a field that is not set does not constrain, so `[{}]` matches every pod and an empty list
// matches none. Inside a reference an empty string is a wildcard.
//
// Step 1 (the pod label reservation-ignored) and step 5 (phase Available, allocateOnce) are the
// caller's: matchReservation checks neither.
//
// Decisions where the reference leaves room or koord differs from Koordinator:
// - A pod's empty apiVersion (decoded pods often carry none) reads as "v1" when an object
//   reference names an apiVersion; Koordinator compares the raw field and so never matches then.
// - Short form without owners (spec.resources set, spec.owners empty; a koord extension): only a
//   pod whose reservation-affinity names the reservation matches it, and then only exact-match is
//   checked further.
// - "Unless the affinity tolerates it" (unschedulable or terminating reservations) means, as in
//   Koordinator's RequiredReservationAffinity.TolerateUnschedulable, that one of the affinity's
//   tolerations tolerates the taint node.kubernetes.io/unschedulable:NoSchedule.
// - Reservation taints (NoSchedule, NoExecute) are checked against the affinity's tolerations, and
//   a pod without a reservation-affinity annotation has no tolerations, so it does not match a
//   reservation with such a taint. (Koordinator skips the taint check for a pod without the
//   annotation; the reference says the taints must be tolerated, which is what this does.)
// - Invalid reservationSelectorTerms are reported by podReservationPrefs, as Koordinator's
//   GetRequiredReservationAffinity does, and again by matchReservation if handed such prefs.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::extender::plugins::common {

// The taint whose toleration lets a pod use an unschedulable or terminating reservation.
inline constexpr std::string_view kTaintUnschedulableKey = "node.kubernetes.io/unschedulable";

// uid, name, namespace and apiVersion of `ref` against the pod (empty fields are wildcards; kind,
// resourceVersion and fieldPath are ignored). See above for a pod without an apiVersion.
[[nodiscard]] bool matchObjectRef(const api::core::ObjectReference& ref, const api::core::Pod& pod);

// A set namespace must equal the pod's, and some pod ownerReference must match controller (when
// set on `ref`, the owner's must be set and equal), uid, name, kind and apiVersion (empty fields of
// `ref` are wildcards). blockOwnerDeletion is ignored.
[[nodiscard]] bool matchControllerRef(const api::scheduling::ReservationControllerReference& ref,
                                      const api::core::Pod& pod);

// object, controller and labelSelector ANDed; an owner with none set matches every pod.
// kInvalidArgument for an invalid labelSelector ("labelSelector.matchExpressions[0]...: ...").
[[nodiscard]] Result<bool> matchOwner(const api::scheduling::ReservationOwner& owner,
                                      const api::core::Pod& pod);

// The owners ORed; an empty list matches nothing. Every owner's selector is validated, so an
// invalid one is an error even when another owner matches ("owners[1].labelSelector...: ...").
[[nodiscard]] Result<bool> matchOwners(const std::vector<api::scheduling::ReservationOwner>& owners,
                                       const api::core::Pod& pod);

// What a pod says about reservations, parsed once per pod from its labels and annotations.
struct PodReservationPrefs {
  bool ignored = false;                  // label reservation-ignored == "true"
  bool pre_allocation_required = false;  // label pre-allocation-required == "true"
  // Annotation reservation-affinity; set whenever the annotation is present (an empty value reads
  // as an empty affinity, as in Koordinator).
  std::optional<api::extension::ReservationAffinity> affinity;
  // Annotation exact-match-reservation; set whenever the annotation is present.
  std::optional<api::extension::ExactMatchReservationSpec> exact_match;

  // True when the pod must get a reservation (affinity set, or pre_allocation_required).
  [[nodiscard]] bool required() const;
};

// kInvalidArgument naming the annotation when one does not parse, or when the affinity's
// reservationSelectorTerms are invalid:
//   failed to parse annotation 'scheduling.koordinator.sh/reservation-affinity':
//   requiredDuringSchedulingIgnoredDuringExecution.reservationSelectorTerms[0].<path>: <cause>
[[nodiscard]] Result<PodReservationPrefs> podReservationPrefs(const api::core::Pod& pod);

// The reservation's scheduling.koordinator.sh/reservation-order label as an int64, read as Go's
// strconv.ParseInt(s, 10, 64) does (optional sign, base-10 digits, nothing else); 0 when absent,
// not an integer or out of range.
[[nodiscard]] int64_t reservationOrder(const api::scheduling::Reservation& r);

// Steps 2-4: whether `pod` may use `r`, placed on a node with labels `node_labels`.
// `pod_requests` are the pod's requests and `allocatable` the reservation's allocatable (both only
// read by exact match). In order:
//   1. short form without owners: match only when affinity.name == r's name, then exact match;
//   2. the owners must match (matchOwners);
//   3. affinity.name set: only the reservation of that name matches, and only exact match is
//      checked further (unschedulable, taints and selectors are skipped);
//   4. otherwise: unschedulable or terminating (deletionTimestamp set) => no match unless tolerated
//      (see above); every NoSchedule/NoExecute taint in spec.taints must be tolerated by
//      affinity.tolerations; affinity.reservationSelector (every label equal) and
//      affinity.requiredDuringSchedulingIgnoredDuringExecution.reservationSelectorTerms (ORed; an
//      empty list matches nothing) must match a fake node named after r whose labels are
//      node_labels overlaid with r's labels (r's win); then exact match
//      (api::extension::exactMatchReservation; no annotation => matches).
// Errors (kInvalidArgument) only for an invalid selector: an owner's labelSelector
// ("reservation '<name>': spec.owners[0].labelSelector.<path>: <cause>") or a selector term
// (the podReservationPrefs error).
[[nodiscard]] Result<bool> matchReservation(const PodReservationPrefs& prefs,
                                            const api::core::Pod& pod,
                                            const api::scheduling::Reservation& r,
                                            const api::core::StringMap& node_labels,
                                            const resource::ResourceList& pod_requests,
                                            const resource::ResourceList& allocatable);

}  // namespace koord::extender::plugins::common
