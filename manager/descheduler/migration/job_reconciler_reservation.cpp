// The ReservationFirst stages of JobReconciler::Step (job_reconciler.hpp, step 7).
#include <utility>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/descheduler/migration/job_step.hpp"
#include "manager/descheduler/migration/migration_reservation.hpp"

namespace koord::manager::descheduler::migration {

namespace core = api::core;
namespace sched = api::scheduling;

namespace {

bool conditionTrue(const sched::PodMigrationJobStatus& status, std::string_view type) {
  const sched::PodMigrationJobCondition* c = findCondition(status, type);
  return c != nullptr && c->status == "True";
}

std::string quotedText(const std::string& text) {
  return "\"" + text + "\"";
}

std::string refKey(const core::ObjectReference& ref) {
  return ref.namespace_ + "/" + ref.name;
}

}  // namespace

Result<controller::ReconcileResult> JobReconciler::Step::reservationFirst() {
  const auto has_ref = [this] {
    return job_.spec.reservationOptions && job_.spec.reservationOptions->reservationRef &&
           !job_.spec.reservationOptions->reservationRef->name.empty();
  };
  if (!has_ref()) {
    if (Stop s = createReservationStage()) {
      return std::move(*s);
    }
  }
  condition(sched::kPodMigrationJobConditionReservationCreated, "True", "");
  const std::string name = job_.spec.reservationOptions->reservationRef->name;
  auto found = reservation(name);
  if (!found.ok()) {
    return found.status();
  }
  if (*found == nullptr) {
    return std::move(*fail(sched::kPodMigrationJobReasonMissingReservation,
                           "Abort job caused by missing Reservation " + quotedText(name)));
  }
  const std::shared_ptr<const sched::Reservation> r = *found;
  if (Stop s = reservationScheduledStage(*r)) {
    return std::move(*s);
  }
  if (Stop s = evictStage(r.get())) {
    return std::move(*s);
  }
  core::ObjectReference bound;
  if (Stop s = boundStage(*r, bound)) {
    return std::move(*s);
  }
  if (Stop s = boundReadyStage(bound)) {
    return std::move(*s);
  }
  return succeedBound(*r, bound);
}

JobReconciler::Step::Stop JobReconciler::Step::createReservationStage() {
  std::shared_ptr<const core::Pod> pod = podOfJob();
  if (pod == nullptr) {
    return fail(sched::kPodMigrationJobReasonMissingPod,
                "Abort job caused by missing Pod " + podName());
  }
  const auto refuse = [this](const Status& status, bool final) -> Stop {
    std::string message = "Failed to create Reservation caused by " + status.message();
    condition(sched::kPodMigrationJobConditionReservationCreated, "False",
              sched::kPodMigrationJobReasonFailedCreateReservation, message);
    event(k8s::EventType::kWarning, sched::kPodMigrationJobReasonFailedCreateReservation, message);
    if (final) {
      job_.status.phase = std::string(sched::kPodMigrationJobFailed);
      return stop(ReconcileResult::done());
    }
    return stop(status);
  };
  auto built = buildReservation(job_, *pod, now());
  if (!built.ok()) {
    return refuse(built.status(), true);
  }
  const std::string name = built->metadata.name;
  auto created = owner_.client_.create(k8s::kReservations, "", sched::toJson(*built));
  if (!created.ok() && k8s::isAlreadyExists(created.status())) {
    created = owner_.client_.get(k8s::kReservations, "", name);
  }
  if (!created.ok()) {
    const Status status = created.status();
    return refuse(status, k8s::isInvalid(status) || status.code() == StatusCode::kInvalidArgument);
  }
  auto decoded = k8s::decodeObject<sched::Reservation>(std::move(*created));
  if (!decoded.ok()) {
    return refuse(decoded.status(), false);
  }
  created_ = std::make_shared<const sched::Reservation>(std::move(*decoded));
  core::ObjectReference ref;
  ref.apiVersion =
      created_->apiVersion.empty() ? std::string(sched::kGroupVersion) : created_->apiVersion;
  ref.kind = std::string(sched::kReservationKind);
  ref.name = created_->metadata.name;
  ref.uid = created_->metadata.uid;
  if (!job_.spec.reservationOptions) {
    job_.spec.reservationOptions.emplace();
  }
  job_.spec.reservationOptions->reservationRef = std::move(ref);
  if (Status s = updateSpec(); !s.isOk()) {
    return stop(s);
  }
  condition(sched::kPodMigrationJobConditionReservationCreated, "True", "");
  event(k8s::EventType::kNormal, kEventReservationCreated,
        "Successfully create Reservation " + quotedText(name));
  return std::nullopt;
}

Result<std::shared_ptr<const sched::Reservation>> JobReconciler::Step::reservation(
    const std::string& name) {
  if (created_ != nullptr && created_->metadata.name == name) {
    return created_;
  }
  if (auto cached = owner_.options_.sources.reservation(name)) {
    return cached;
  }
  auto fetched = owner_.client_.get(k8s::kReservations, "", name);
  if (!fetched.ok()) {
    if (k8s::isNotFound(fetched.status())) {
      return std::shared_ptr<const sched::Reservation>();
    }
    return fetched.status().withPrefix("failed to get Reservation '" + name + "'");
  }
  auto decoded = k8s::decodeObject<sched::Reservation>(std::move(*fetched));
  if (!decoded.ok()) {
    return decoded.status();
  }
  return std::make_shared<const sched::Reservation>(std::move(*decoded));
}

JobReconciler::Step::Stop JobReconciler::Step::reservationScheduledStage(
    const sched::Reservation& r) {
  const std::string name = quotedText(r.metadata.name);
  const sched::ReservationCondition* unschedulable = unschedulableCondition(r);
  const bool scheduled_before =
      conditionTrue(job_.status, sched::kPodMigrationJobConditionReservationScheduled);
  if (!scheduled_before && unschedulable != nullptr &&
      condition(sched::kPodMigrationJobConditionReservationScheduled, "False",
                sched::kPodMigrationJobReasonUnschedulable, unschedulable->message)) {
    event(k8s::EventType::kWarning, sched::kPodMigrationJobReasonUnschedulable,
          unschedulable->message);
  }
  if (isReservationPending(r)) {
    return stop(ReconcileResult::requeueAfter(kRequeueAfter));
  }
  if (isReservationExpired(r)) {
    return fail(sched::kPodMigrationJobReasonReservationExpired, "Reservation expired");
  }
  if (r.status.nodeName.empty()) {
    return fail(sched::kPodMigrationJobReasonUnschedulable,
                unschedulable != nullptr ? unschedulable->message
                                         : "Reservation " + name + " was not scheduled");
  }
  if (scheduled_before || !job_.status.nodeName.empty()) {
    return std::nullopt;
  }
  std::shared_ptr<const core::Pod> pod = podOfJob();
  if (pod != nullptr && pod->spec.nodeName == r.status.nodeName) {
    if (Status s = deleteReservation(owner_.client_, job_); !s.isOk()) {
      owner_.options_.logger.warn(s.message(), {{"job", job_.metadata.name}});
    }
    return fail(sched::kPodMigrationJobReasonForbiddenMigratePod,
                "Scheduler assigned the Reservation " + name + " on the same node as the Pod");
  }
  job_.status.nodeName = r.status.nodeName;
  condition(sched::kPodMigrationJobConditionReservationScheduled, "True", "");
  event(k8s::EventType::kNormal, kEventReservationScheduled,
        "Assigned Reservation " + name + " to node " + quotedText(r.status.nodeName));
  return std::nullopt;
}

JobReconciler::Step::Stop JobReconciler::Step::boundStage(const sched::Reservation& r,
                                                          core::ObjectReference& bound) {
  if (conditionTrue(job_.status, sched::kPodMigrationJobConditionReservationBound) &&
      job_.status.podRef) {
    bound = *job_.status.podRef;
    return std::nullopt;
  }
  std::vector<std::shared_ptr<const core::Pod>> candidates;
  if (owner_.options_.sources.pods_in_namespace) {
    candidates = owner_.options_.sources.pods_in_namespace(job_.spec.podRef->namespace_);
  }
  std::optional<core::ObjectReference> found = boundPod(r, candidates);
  if (!found) {
    if (condition(sched::kPodMigrationJobConditionPodBoundReservation, "False",
                  sched::kPodMigrationJobReasonWaitForPodBindReservation)) {
      event(k8s::EventType::kNormal, kEventWaitForPodBindReservation,
            "Waiting for Pod bind Reservation");
    }
    return stop(ReconcileResult::requeueAfter(kRequeueAfter));
  }
  bound = *found;
  condition(sched::kPodMigrationJobConditionReservationBound, "True", "");
  job_.status.podRef = bound;
  event(k8s::EventType::kNormal, kEventPodBoundReservation,
        "Reservation bound by pod " + quotedText(refKey(bound)));
  return std::nullopt;
}

JobReconciler::Step::Stop JobReconciler::Step::boundReadyStage(const core::ObjectReference& bound) {
  if (conditionTrue(job_.status, sched::kPodMigrationJobConditionBoundPodReady)) {
    return std::nullopt;
  }
  std::shared_ptr<const core::Pod> pod = owner_.options_.sources.pod(bound.namespace_, bound.name);
  if (pod != nullptr && !isPodReady(*pod)) {
    if (condition(sched::kPodMigrationJobConditionBoundPodReady, "False",
                  sched::kPodMigrationJobReasonWaitForBoundPodReady)) {
      event(k8s::EventType::kNormal, kEventWaitForBoundPodReady,
            "Waiting for Bound Pod " + refKey(bound) + " Ready");
    }
    return stop(ReconcileResult::requeueAfter(kRequeueAfter));
  }
  event(k8s::EventType::kNormal, kEventBoundPodReady,
        "Bind pod " + quotedText(refKey(bound)) + " is ready");
  condition(sched::kPodMigrationJobConditionBoundPodReady, "True", "");
  return std::nullopt;
}

Result<controller::ReconcileResult> JobReconciler::Step::succeedBound(
    const sched::Reservation& r, const core::ObjectReference& bound) {
  std::string message =
      "Bind Pod " + quotedText(refKey(bound)) + " in Reservation " + quotedText(r.metadata.name);
  condition(sched::kPodMigrationJobConditionPodBoundReservation, "True", "", message);
  job_.status.podRef = bound;
  job_.status.phase = std::string(sched::kPodMigrationJobSucceeded);
  job_.status.status = "Complete";
  job_.status.reason.clear();
  job_.status.message = message;
  event(k8s::EventType::kNormal, kEventComplete, std::move(message));
  return ReconcileResult::done();
}

}  // namespace koord::manager::descheduler::migration
