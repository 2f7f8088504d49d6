// JobReconciler: one level-triggered step of one PodMigrationJob (Koordinator's
// migration/controller.go doMigrate; koordinator-reference.md 3(j)). reconcile(name) reads the
// job from the cache and moves it as far as it can now; it is meant to run as the reconcile of a
// controller::Controller keyed by the job's name, fed by PodMigrationJob events.
//
// The steps, in order; each write goes to the API server at once (status through the status
// subresource, spec with a PUT), and an Event about it is recorded only once the write succeeded:
//  1. Succeeded / Failed / Aborted: nothing.
//  2. phase "" -> Pending.
//  3. spec.paused: nothing more.
//  4. spec.ttl set and the job at least that old: the Reservation it refers to is deleted, then
//     Failed / Timeout "Abort job caused by timeout" (Warning Timeout).
//  5. Pending: while args.arbitration_args.enabled, waits for the arbitrator's annotation
//     descheduler.koordinator.sh/passed-arbitration ("true"). Then resolves spec.podRef: no
//     namespace or name -> Failed / InvalidPodRef; no such pod (or one with another UID than
//     podRef.uid) -> Failed / MissingPod; an empty podRef.uid is filled in (spec PUT). -> Running.
//  6. EvictDirectly (spec.mode, or args.default_job_mode when ""): evict (below); once the pod is
//     gone -> Succeeded, status "Complete" (Normal Complete).
//  7. ReservationFirst:
//     a. no spec.reservationOptions.reservationRef: create the Reservation of
//        migration_reservation.hpp (AlreadyExists: take the existing one) and record its
//        reference in the spec (Normal ReservationCreated). A refusal as invalid ->
//        Failed / FailedCreateReservation; another error -> condition ReservationCreated=False /
//        FailedCreateReservation (Warning) and the error is returned (retried after backoff).
//     b. the Reservation (cache, else a GET): gone -> Failed / MissingReservation. Its
//        Scheduled=False/Unschedulable message is copied into condition ReservationScheduled=False
//        / Unschedulable (Warning Unschedulable) while it is pending; pending -> wait (3s).
//        Expired -> Failed / ReservationExpired; failed without a node -> Failed / Unschedulable
//        with that message.
//     c. placed on the pod's own node -> the Reservation is deleted, Failed / ForbiddenMigratePod;
//        else status.nodeName and ReservationScheduled=True (Normal ReservationScheduled).
//     d. already Succeeded before the eviction (bound by another pod) -> Failed /
//        ForbiddenMigratePod "Reservation is already bound by another Pod".
//     e. evict (below).
//     f. wait for the pod bound to the Reservation (status.currentOwners, else a pod of the
//        namespace whose reservation-allocated names it): PodBoundReservation=False /
//        WaitForPodBindReservation; then ReservationBound=True and status.podRef (Normal
//        PodBoundReservation).
//     g. wait for that pod to be Ready: BoundPodReady=False / WaitForBoundPodReady; then Normal
//        BoundPodReady, BoundPodReady=True, -> Succeeded, status "Complete", message
//        `Bind Pod "<ns>/<name>" in Reservation "<name>"` (Normal Complete). A bound pod that is
//        gone counts as ready (as in Koordinator).
// Evicting (Eviction condition): done once Eviction=True. The pod gone (or replaced by one with
// another UID) after the job asked for its eviction -> Eviction=True / EvictComplete (Normal
// EvictComplete); gone before -> Failed / MissingPod. Asked already (Eviction=False / Evicting):
// wait (3s). Otherwise the Evictor (evictor.hpp) is called with spec.deleteOptions, else
// args.default_delete_options: accepted -> Eviction=False / Evicting `Pod "<ns>/<name>" evicted
// from node "<node>" by the reason "<koordinator.sh/evict-reason>"` (Normal Evicting); refused
// (a PodDisruptionBudget's 429 included) -> Eviction=False / FailedEvict with the API server's
// message (Warning FailedEvict) and the error is returned (retried after backoff); rate-limited
// -> a kResourceExhausted "too many evictions" error (Koordinator's ErrTooManyEvictions), so the
// job's backoff keeps growing while its evictions keep failing.
//
// Results: done() after a terminal write or when an update event will bring the job back;
// requeueAfter(kRequeueAfter) while waiting on other objects; an error Status for failed writes.
// Thread safety: reconcile() may run for distinct jobs at once when the sources and the sink are
// thread-safe (the evictor's bucket is shared).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/log/logger.hpp"
#include "manager/controller/controller.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/migration/events.hpp"
#include "manager/descheduler/migration/evictor.hpp"

namespace koord::manager::descheduler::migration {

inline constexpr std::string_view kName = "MigrationController";
// Koordinator's defaultRequeueAfter.
inline constexpr std::chrono::seconds kRequeueAfter{3};

// Cache lookups (informer listers); nullptr when absent.
struct JobSources {
  std::function<std::shared_ptr<const api::scheduling::PodMigrationJob>(const std::string& name)>
      job;
  std::function<std::shared_ptr<const api::core::Pod>(const std::string& ns,
                                                      const std::string& name)>
      pod;
  // A miss is checked against the API server (the cache may not have a new one yet).
  std::function<std::shared_ptr<const api::scheduling::Reservation>(const std::string& name)>
      reservation;
  // The pods of a namespace, to find the one bound to a Reservation when its status.currentOwners
  // is still empty; may be empty (then only currentOwners counts).
  std::function<std::vector<std::shared_ptr<const api::core::Pod>>(const std::string& ns)>
      pods_in_namespace;
};

struct JobReconcilerOptions {
  config::MigrationControllerArgs args;
  JobSources sources;
  EventSink events;           // empty: no Events
  k8s::WallClock wall_clock;  // job ages, condition times; empty: system_clock
  log::Logger logger;
};

class JobReconciler {
 public:
  // kInvalidArgument naming each missing source (job, pod, reservation), an unknown
  // args.eviction_policy or unreadable args.default_delete_options. `client` and `clock` (the
  // evictor's rate) must outlive the reconciler. No I/O.
  [[nodiscard]] static Result<std::unique_ptr<JobReconciler>> create(k8s::Client& client,
                                                                     const Clock& clock,
                                                                     JobReconcilerOptions options);

  // The job named `name` from sources.job; done() when it is not there.
  [[nodiscard]] Result<controller::ReconcileResult> reconcile(const std::string& name);
  // One step of `job` as given.
  [[nodiscard]] Result<controller::ReconcileResult> step(
      const api::scheduling::PodMigrationJob& job);

 private:
  class Step;

  JobReconciler(k8s::Client& client, const Clock& clock, JobReconcilerOptions options,
                EvictionPolicy policy, api::core::DeleteOptions default_delete_options);

  k8s::Client& client_;
  JobReconcilerOptions options_;
  api::core::DeleteOptions default_delete_options_;
  Evictor evictor_;
};

}  // namespace koord::manager::descheduler::migration
