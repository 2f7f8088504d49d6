// JobReconciler::Step: the working state of one reconcile of one job (job_reconciler.hpp has the
// contract). Internal to koord_descheduler_migration: job_reconciler.cpp holds the common stages
// (pending, timeout, eviction, EvictDirectly), job_reconciler_reservation.cpp the ReservationFirst
// stages.
//
// The step edits a copy of the job; flush() PUTs its status when it differs from what the API
// server last returned, then records the Events queued since the last flush (Events about writes
// that failed are dropped). Not thread-safe: one Step per reconcile.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "manager/descheduler/migration/job_reconciler.hpp"
#include "manager/descheduler/migration/job_status.hpp"

namespace koord::manager::descheduler::migration {

class JobReconciler::Step {
 public:
  Step(JobReconciler& owner, const api::scheduling::PodMigrationJob& job);

  // The whole step, with the final flush.
  Result<controller::ReconcileResult> run();

 private:
  using ReconcileResult = controller::ReconcileResult;
  // What a stage tells its caller: std::nullopt to go on, or the step's result.
  using Stop = std::optional<Result<ReconcileResult>>;

  Result<ReconcileResult> body();
  Stop timeoutStage();
  Stop pendingStage();
  Result<ReconcileResult> evictDirectly();
  // The Eviction condition's stages; `reservation` for ReservationFirst (checked before evicting).
  Stop evictStage(const api::scheduling::Reservation* reservation);

  Result<ReconcileResult> reservationFirst();
  Stop createReservationStage();
  Stop reservationScheduledStage(const api::scheduling::Reservation& reservation);
  Stop boundStage(const api::scheduling::Reservation& reservation,
                  api::core::ObjectReference& bound);
  Stop boundReadyStage(const api::core::ObjectReference& bound);
  Result<ReconcileResult> succeedBound(const api::scheduling::Reservation& reservation,
                                       const api::core::ObjectReference& bound);
  // The job's Reservation (created this step, the cache, else a GET); nullptr when it is gone.
  Result<std::shared_ptr<const api::scheduling::Reservation>> reservation(const std::string& name);

  // Phase Failed with `reason` and `message`, a Warning Event of `reason`; the step ends.
  Stop fail(std::string_view reason, std::string message);
  // setCondition() at now(); whether it changed.
  bool condition(std::string_view type, std::string_view status, std::string_view reason,
                 std::string message = "");
  void event(k8s::EventType type, std::string_view reason, std::string message);
  Status flush();
  // PUT of the job (spec and metadata); the status edits made so far are kept for flush().
  Status updateSpec();
  // Marks a failed write (no final flush), returning it.
  Status writeFailed(Status status);

  WallTime now() const;
  std::shared_ptr<const api::core::Pod> podOfJob() const;
  std::string podName() const;  // "<ns>/<name>" quoted

  static Stop stop(Result<ReconcileResult> result) { return Stop(std::move(result)); }

  struct QueuedEvent {
    k8s::EventType type;
    std::string reason;
    std::string message;
  };

  JobReconciler& owner_;
  api::scheduling::PodMigrationJob job_;
  api::scheduling::PodMigrationJobStatus written_;
  std::vector<QueuedEvent> events_;
  std::shared_ptr<const api::scheduling::Reservation> created_;
  bool write_failed_ = false;
};

}  // namespace koord::manager::descheduler::migration
