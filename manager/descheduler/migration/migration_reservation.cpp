#include "manager/descheduler/migration/migration_reservation.hpp"

#include <chrono>
#include <string>
#include <utility>

#include "koord/api/extension/reservation.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::manager::descheduler::migration {

namespace core = api::core;
namespace sched = api::scheduling;

namespace {

constexpr std::string_view kNodeNameField = "metadata.name";

// The pod as a reserve-pod template: what describes the workload, not the old placement.
core::PodTemplateSpec podTemplate(const core::Pod& pod) {
  core::PodTemplateSpec t;
  t.metadata.name = pod.metadata.name;
  t.metadata.namespace_ = pod.metadata.namespace_;
  t.metadata.labels = pod.metadata.labels;
  t.metadata.annotations = pod.metadata.annotations;
  for (std::string_view result :
       {api::kAnnotationReservationAllocated, api::kAnnotationResourceStatus,
        api::kAnnotationDeviceAllocated}) {
    t.metadata.annotations.erase(std::string(result));
  }
  t.spec = pod.spec;
  return t;
}

void keepOffNode(core::PodSpec& spec, const std::string& node) {
  if (node.empty()) {
    return;
  }
  core::NodeSelectorRequirement skip;
  skip.key = std::string(kNodeNameField);
  skip.operator_ = "NotIn";
  skip.values = {node};
  if (!spec.affinity.has_value()) {
    spec.affinity.emplace();
  }
  if (!spec.affinity->nodeAffinity) {
    spec.affinity->nodeAffinity.emplace();
  }
  std::optional<core::NodeSelector>& required = spec.affinity->nodeAffinity->required;
  if (!required) {
    required.emplace();
  }
  for (core::NodeSelectorTerm& term : required->nodeSelectorTerms) {
    term.matchFields.push_back(skip);
  }
  if (required->nodeSelectorTerms.empty()) {
    core::NodeSelectorTerm term;
    term.matchFields.push_back(skip);
    required->nodeSelectorTerms.push_back(std::move(term));
  }
}

}  // namespace

std::vector<sched::ReservationOwner> reservationOwners(const core::Pod& pod) {
  sched::ReservationOwner owner;
  if (const core::OwnerReference* controller = core::controllerOf(pod.metadata)) {
    owner.controller = sched::ReservationControllerReference{*controller, pod.metadata.namespace_};
  } else {
    core::ObjectReference self;
    self.kind = "Pod";
    self.namespace_ = pod.metadata.namespace_;
    self.name = pod.metadata.name;
    self.uid = pod.metadata.uid;
    owner.object = std::move(self);
  }
  return {std::move(owner)};
}

Result<sched::Reservation> buildReservation(const sched::PodMigrationJob& job, const core::Pod& pod,
                                            WallTime now) {
  sched::Reservation r;
  r.apiVersion = std::string(sched::kGroupVersion);
  r.kind = std::string(sched::kReservationKind);
  const sched::PodMigrateReservationOptions* options =
      job.spec.reservationOptions ? &*job.spec.reservationOptions : nullptr;
  if (options != nullptr && options->template_) {
    r.metadata = options->template_->metadata;
    r.spec = options->template_->spec;
  }
  if (r.metadata.name.empty()) {
    r.metadata.name = job.metadata.uid;
  }
  if (r.metadata.name.empty()) {
    return Status::invalidArgument("failed to build the Reservation of PodMigrationJob '" +
                                   job.metadata.name + "': the job has no UID to name it after");
  }
  if (!r.spec.template_) {
    r.spec.template_ = podTemplate(pod);
  }
  if (r.spec.owners.empty()) {
    r.spec.owners = reservationOwners(pod);
  }
  r.spec.allocateOnce = true;
  r.spec.template_->spec.nodeName.clear();
  r.metadata.labels[std::string(api::kLabelCreatedBy)] = std::string(kReservationCreator);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  r.metadata.labels[std::string(api::kLabelReservationOrder)] = std::to_string(millis);
  if (!r.spec.ttl && !r.spec.expires && jobTTL(job)) {
    r.spec.ttl = job.spec.ttl;
  }
  keepOffNode(r.spec.template_->spec, pod.spec.nodeName);
  return r;
}

bool isReservationPending(const sched::Reservation& r) {
  return r.status.phase.empty() || r.status.phase == sched::kReservationPending;
}

bool isReservationExpired(const sched::Reservation& r) {
  if (r.status.phase != sched::kReservationFailed) {
    return false;
  }
  for (const sched::ReservationCondition& c : r.status.conditions) {
    if (c.type == sched::kReservationConditionReady) {
      return c.status == "False" && c.reason == sched::kReasonReservationExpired;
    }
  }
  return false;
}

bool isReservationSucceeded(const sched::Reservation& r) {
  return r.status.phase == sched::kReservationSucceeded;
}

const sched::ReservationCondition* unschedulableCondition(const sched::Reservation& r) {
  for (const sched::ReservationCondition& c : r.status.conditions) {
    if (c.type == sched::kReservationConditionScheduled) {
      return c.reason == sched::kReasonReservationUnschedulable ? &c : nullptr;
    }
  }
  return nullptr;
}

std::optional<core::ObjectReference> boundPod(
    const sched::Reservation& r, const std::vector<std::shared_ptr<const core::Pod>>& candidates) {
  if (!r.status.currentOwners.empty()) {
    return r.status.currentOwners.front();
  }
  for (const std::shared_ptr<const core::Pod>& pod : candidates) {
    if (pod == nullptr) {
      continue;
    }
    const auto it =
        pod->metadata.annotations.find(std::string(api::kAnnotationReservationAllocated));
    if (it == pod->metadata.annotations.end()) {
      continue;
    }
    auto allocated = api::extension::parseReservationAllocated(it->second);
    if (!allocated.ok()) {
      continue;
    }
    const bool match = r.metadata.uid.empty() ? allocated->name == r.metadata.name
                                              : allocated->uid == r.metadata.uid;
    if (match) {
      core::ObjectReference ref;
      ref.kind = "Pod";
      ref.namespace_ = pod->metadata.namespace_;
      ref.name = pod->metadata.name;
      ref.uid = pod->metadata.uid;
      return ref;
    }
  }
  return std::nullopt;
}

Status deleteReservation(k8s::Client& client, const sched::PodMigrationJob& job) {
  if (!job.spec.reservationOptions || !job.spec.reservationOptions->reservationRef ||
      job.spec.reservationOptions->reservationRef->name.empty()) {
    return Status::ok();
  }
  const std::string& name = job.spec.reservationOptions->reservationRef->name;
  Status status = client.remove(k8s::kReservations, "", name, core::DeleteOptions{});
  if (status.isOk() || k8s::isNotFound(status)) {
    return Status::ok();
  }
  return status.withPrefix("failed to delete Reservation '" + name + "'");
}

}  // namespace koord::manager::descheduler::migration
