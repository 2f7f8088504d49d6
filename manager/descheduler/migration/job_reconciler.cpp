#include "manager/descheduler/migration/job_reconciler.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/well_known.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/descheduler/migration/job_step.hpp"
#include "manager/descheduler/migration/migration_reservation.hpp"

namespace koord::manager::descheduler::migration {

namespace core = api::core;
namespace sched = api::scheduling;

Result<std::unique_ptr<JobReconciler>> JobReconciler::create(k8s::Client& client,
                                                             const Clock& clock,
                                                             JobReconcilerOptions options) {
  std::vector<std::string> problems;
  if (!options.sources.job) {
    problems.emplace_back("sources.job: required");
  }
  if (!options.sources.pod) {
    problems.emplace_back("sources.pod: required");
  }
  if (!options.sources.reservation) {
    problems.emplace_back("sources.reservation: required");
  }
  auto policy = parseEvictionPolicy(options.args.eviction_policy);
  if (!policy.ok()) {
    problems.push_back("args.evictionPolicy: " + policy.status().message());
  }
  core::DeleteOptions delete_options;
  const api::Json& raw = options.args.default_delete_options;
  if (!raw.is_null()) {
    Status decoded = core::fromJson(raw, delete_options, "args.defaultDeleteOptions");
    if (!decoded.isOk()) {
      problems.push_back(decoded.message());
    }
  }
  if (!problems.empty()) {
    std::string message = "failed to create the PodMigrationJob reconciler: ";
    for (size_t i = 0; i < problems.size(); ++i) {
      message += (i == 0 ? "" : "; ") + problems[i];
    }
    return Status::invalidArgument(message);
  }
  if (!options.wall_clock) {
    options.wall_clock = [] { return std::chrono::system_clock::now(); };
  }
  return std::unique_ptr<JobReconciler>(
      new JobReconciler(client, clock, std::move(options), *policy, std::move(delete_options)));
}

JobReconciler::JobReconciler(k8s::Client& client, const Clock& clock, JobReconcilerOptions options,
                             EvictionPolicy policy, core::DeleteOptions default_delete_options)
    : client_(client),
      options_(std::move(options)),
      default_delete_options_(std::move(default_delete_options)),
      evictor_(client, policy, options_.args.evict_qps, options_.args.evict_burst, clock,
               options_.wall_clock) {}

Result<controller::ReconcileResult> JobReconciler::reconcile(const std::string& name) {
  std::shared_ptr<const sched::PodMigrationJob> job = options_.sources.job(name);
  if (job == nullptr) {
    return controller::ReconcileResult::done();
  }
  return step(*job);
}

Result<controller::ReconcileResult> JobReconciler::step(const sched::PodMigrationJob& job) {
  Step step(*this, job);
  return step.run();
}

JobReconciler::Step::Step(JobReconciler& owner, const sched::PodMigrationJob& job)
    : owner_(owner), job_(job), written_(job.status) {}

Result<controller::ReconcileResult> JobReconciler::Step::run() {
  Result<ReconcileResult> result = body();
  if (write_failed_) {
    return result;
  }
  Status flushed = flush();
  if (!result.ok()) {
    return result;
  }
  if (!flushed.isOk()) {
    return flushed;
  }
  return result;
}

Result<controller::ReconcileResult> JobReconciler::Step::body() {
  if (isTerminal(job_)) {
    return ReconcileResult::done();
  }
  if (job_.status.phase.empty()) {
    job_.status.phase = std::string(sched::kPodMigrationJobPending);
  }
  if (job_.spec.paused) {
    return ReconcileResult::done();
  }
  if (Stop s = timeoutStage()) {
    return std::move(*s);
  }
  if (isPending(job_)) {
    if (Stop s = pendingStage()) {
      return std::move(*s);
    }
  }
  if (!job_.spec.podRef || job_.spec.podRef->namespace_.empty() || job_.spec.podRef->name.empty()) {
    return std::move(
        *fail(sched::kPodMigrationJobReasonInvalidPodRef, "Abort job caused by invalid PodRef"));
  }
  if (isEvictDirectly(job_, owner_.options_.args)) {
    return evictDirectly();
  }
  return reservationFirst();
}

JobReconciler::Step::Stop JobReconciler::Step::timeoutStage() {
  const std::optional<std::chrono::nanoseconds> ttl = jobTTL(job_);
  if (!ttl || jobAge(job_, now()) < *ttl) {
    return std::nullopt;
  }
  Status deleted = deleteReservation(owner_.client_, job_);
  if (!deleted.isOk()) {
    return stop(writeFailed(deleted));
  }
  return fail(sched::kPodMigrationJobReasonTimeout, "Abort job caused by timeout");
}

JobReconciler::Step::Stop JobReconciler::Step::pendingStage() {
  if (owner_.options_.args.arbitration_args.enabled && !passedArbitration(job_)) {
    return stop(ReconcileResult::done());  // the arbitrator's annotation brings it back
  }
  if (!job_.spec.podRef || job_.spec.podRef->namespace_.empty() || job_.spec.podRef->name.empty()) {
    return fail(sched::kPodMigrationJobReasonInvalidPodRef, "Abort job caused by invalid PodRef");
  }
  std::shared_ptr<const core::Pod> pod = podOfJob();
  const std::string& uid = job_.spec.podRef->uid;
  if (pod == nullptr || (!uid.empty() && uid != pod->metadata.uid)) {
    return fail(sched::kPodMigrationJobReasonMissingPod,
                "Abort job caused by missing Pod " + podName());
  }
  if (uid.empty()) {
    job_.spec.podRef->uid = pod->metadata.uid;
    if (Status s = updateSpec(); !s.isOk()) {
      return stop(s);
    }
  }
  job_.status.phase = std::string(sched::kPodMigrationJobRunning);
  return std::nullopt;
}

Result<controller::ReconcileResult> JobReconciler::Step::evictDirectly() {
  if (Stop s = evictStage(nullptr)) {
    return std::move(*s);
  }
  job_.status.phase = std::string(sched::kPodMigrationJobSucceeded);
  job_.status.status = "Complete";
  job_.status.reason.clear();
  job_.status.message = "Pod " + podName() + " has been evicted";
  event(k8s::EventType::kNormal, kEventComplete, job_.status.message);
  return ReconcileResult::done();
}

JobReconciler::Step::Stop JobReconciler::Step::evictStage(const sched::Reservation* reservation) {
  const sched::PodMigrationJobCondition* cond =
      findCondition(job_.status, sched::kPodMigrationJobConditionEviction);
  if (cond != nullptr && cond->status == "True") {
    return std::nullopt;
  }
  std::shared_ptr<const core::Pod> pod = podOfJob();
  const std::string& uid = job_.spec.podRef->uid;
  const bool gone = pod == nullptr || (cond != nullptr && !uid.empty() && uid != pod->metadata.uid);
  if (gone) {
    if (cond == nullptr) {
      return fail(sched::kPodMigrationJobReasonMissingPod,
                  "Abort job caused by missing Pod " + podName());
    }
    condition(sched::kPodMigrationJobConditionEviction, "True",
              sched::kPodMigrationJobReasonEvictComplete);
    event(k8s::EventType::kNormal, kEventEvictComplete, "Pod " + podName() + " has been evicted");
    return std::nullopt;
  }
  if (cond != nullptr && cond->reason == sched::kPodMigrationJobReasonEvicting) {
    return stop(ReconcileResult::requeueAfter(kRequeueAfter));
  }
  if (reservation != nullptr && isReservationSucceeded(*reservation)) {
    return fail(sched::kPodMigrationJobReasonForbiddenMigratePod,
                "Reservation is already bound by another Pod");
  }
  const core::DeleteOptions& options =
      job_.spec.deleteOptions ? *job_.spec.deleteOptions : owner_.default_delete_options_;
  Result<EvictOutcome> outcome = owner_.evictor_.evict(job_, *pod, options);
  if (!outcome.ok()) {
    std::string message = "Failed to evict Pod " + podName() + ": " + outcome.status().message();
    condition(sched::kPodMigrationJobConditionEviction, "False",
              sched::kPodMigrationJobReasonFailedEvict, message);
    event(k8s::EventType::kWarning, sched::kPodMigrationJobReasonFailedEvict, message);
    return stop(outcome.status());
  }
  if (*outcome == EvictOutcome::kRateLimited) {
    // An error, as Koordinator's ErrTooManyEvictions: the controller's backoff for this job keeps
    // growing, so a job whose evictions keep failing (a PodDisruptionBudget) is not retried at the
    // bucket's rate until its ttl.
    return stop(Status::resourceExhausted(
        "too many evictions: the MigrationController's evictQPS and evictBurst allow none now"));
  }
  const auto reason_it = job_.metadata.annotations.find(std::string(api::kAnnotationEvictReason));
  const std::string evict_reason =
      reason_it == job_.metadata.annotations.end() ? std::string() : reason_it->second;
  std::string message = "Pod " + podName() + " evicted from node \"" + pod->spec.nodeName +
                        "\" by the reason \"" + evict_reason + "\"";
  condition(sched::kPodMigrationJobConditionEviction, "False",
            sched::kPodMigrationJobReasonEvicting, message);
  event(k8s::EventType::kNormal, kEventEvicting, message);
  return stop(ReconcileResult::requeueAfter(kRequeueAfter));
}

JobReconciler::Step::Stop JobReconciler::Step::fail(std::string_view reason, std::string message) {
  job_.status.phase = std::string(sched::kPodMigrationJobFailed);
  job_.status.reason = std::string(reason);
  job_.status.message = message;
  event(k8s::EventType::kWarning, reason, std::move(message));
  return stop(ReconcileResult::done());
}

bool JobReconciler::Step::condition(std::string_view type, std::string_view status,
                                    std::string_view reason, std::string message) {
  return setCondition(job_.status, type, status, reason, std::move(message), now());
}

void JobReconciler::Step::event(k8s::EventType type, std::string_view reason, std::string message) {
  events_.push_back({type, std::string(reason), std::move(message)});
}

Status JobReconciler::Step::flush() {
  if (job_.status != written_) {
    auto updated = owner_.client_.updateStatus(k8s::kPodMigrationJobs, "", sched::toJson(job_));
    if (!updated.ok()) {
      return writeFailed(updated.status().withPrefix(
          "failed to update the status of PodMigrationJob '" + job_.metadata.name + "'"));
    }
    auto decoded = k8s::decodeObject<sched::PodMigrationJob>(std::move(*updated));
    if (!decoded.ok()) {
      return writeFailed(decoded.status());
    }
    job_ = std::move(*decoded);
    written_ = job_.status;
  }
  if (owner_.options_.events) {
    const core::ObjectReference ref = jobReference(job_);
    for (QueuedEvent& e : events_) {
      owner_.options_.events(ref, e.type, std::move(e.reason), std::move(e.message));
    }
  }
  events_.clear();
  return Status::ok();
}

Status JobReconciler::Step::updateSpec() {
  auto updated = owner_.client_.update(k8s::kPodMigrationJobs, "", sched::toJson(job_));
  if (!updated.ok()) {
    return writeFailed(updated.status().withPrefix("failed to update PodMigrationJob '" +
                                                   job_.metadata.name + "'"));
  }
  auto decoded = k8s::decodeObject<sched::PodMigrationJob>(std::move(*updated));
  if (!decoded.ok()) {
    return writeFailed(decoded.status());
  }
  sched::PodMigrationJobStatus edited = std::move(job_.status);
  job_ = std::move(*decoded);
  written_ = job_.status;
  job_.status = std::move(edited);
  return Status::ok();
}

Status JobReconciler::Step::writeFailed(Status status) {
  write_failed_ = true;
  owner_.options_.logger.warn(status.message(), {{"job", job_.metadata.name}});
  return status;
}

WallTime JobReconciler::Step::now() const {
  return owner_.options_.wall_clock();
}

std::shared_ptr<const core::Pod> JobReconciler::Step::podOfJob() const {
  return owner_.options_.sources.pod(job_.spec.podRef->namespace_, job_.spec.podRef->name);
}

std::string JobReconciler::Step::podName() const {
  return "\"" + podRefKey(job_) + "\"";
}

}  // namespace koord::manager::descheduler::migration
