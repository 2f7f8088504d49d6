#include "manager/descheduler/migration/job_status.hpp"

#include <cstdint>
#include <limits>
#include <utility>

#include "koord/api/core/time.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/event_recorder.hpp"

namespace koord::manager::descheduler::migration {

namespace sched = api::scheduling;

std::string_view effectiveMode(const sched::PodMigrationJob& job,
                               const config::MigrationControllerArgs& args) {
  if (!job.spec.mode.empty()) {
    return job.spec.mode;
  }
  return args.default_job_mode.empty() ? sched::kPodMigrationJobModeReservationFirst
                                       : std::string_view(args.default_job_mode);
}

bool isEvictDirectly(const sched::PodMigrationJob& job,
                     const config::MigrationControllerArgs& args) {
  return effectiveMode(job, args) == sched::kPodMigrationJobModeEvictDirectly;
}

bool isTerminal(const sched::PodMigrationJob& job) {
  const std::string& phase = job.status.phase;
  return phase == sched::kPodMigrationJobSucceeded || phase == sched::kPodMigrationJobFailed ||
         phase == sched::kPodMigrationJobAborted;
}

bool isPending(const sched::PodMigrationJob& job) {
  return job.status.phase.empty() || job.status.phase == sched::kPodMigrationJobPending;
}

bool passedArbitration(const sched::PodMigrationJob& job) {
  const auto it = job.metadata.annotations.find(std::string(api::kAnnotationPassedArbitration));
  return it != job.metadata.annotations.end() && it->second == "true";
}

bool isActive(const sched::PodMigrationJob& job) {
  return job.status.phase == sched::kPodMigrationJobRunning ||
         (isPending(job) && passedArbitration(job));
}

std::string podRefKey(const sched::PodMigrationJob& job) {
  if (!job.spec.podRef) {
    return "";
  }
  return job.spec.podRef->namespace_ + "/" + job.spec.podRef->name;
}

bool refersTo(const sched::PodMigrationJob& job, const api::core::Pod& pod) {
  if (!job.spec.podRef) {
    return false;
  }
  const api::core::ObjectReference& ref = *job.spec.podRef;
  if (!ref.uid.empty()) {
    return ref.uid == pod.metadata.uid;
  }
  return ref.namespace_ == pod.metadata.namespace_ && ref.name == pod.metadata.name;
}

std::string podKey(const api::core::ObjectMeta& meta) {
  return meta.namespace_ + "/" + meta.name;
}

api::core::ObjectReference jobReference(const sched::PodMigrationJob& job) {
  api::core::ObjectReference ref;
  ref.apiVersion = std::string(sched::kGroupVersion);
  ref.kind = std::string(sched::kPodMigrationJobKind);
  ref.name = job.metadata.name;
  ref.uid = job.metadata.uid;
  ref.resourceVersion = job.metadata.resourceVersion;
  return ref;
}

const sched::PodMigrationJobCondition* findCondition(const sched::PodMigrationJobStatus& status,
                                                     std::string_view type) {
  for (const sched::PodMigrationJobCondition& c : status.conditions) {
    if (c.type == type) {
      return &c;
    }
  }
  return nullptr;
}

bool setCondition(sched::PodMigrationJobStatus& status, std::string_view type,
                  std::string_view condition_status, std::string_view reason, std::string message,
                  WallTime now) {
  sched::PodMigrationJobCondition next;
  next.type = std::string(type);
  next.status = std::string(condition_status);
  next.reason = std::string(reason);
  next.message = std::move(message);
  next.lastTransitionTime = k8s::formatTime(now);
  bool changed = true;
  sched::PodMigrationJobCondition* existing = nullptr;
  for (sched::PodMigrationJobCondition& c : status.conditions) {
    if (c.type == type) {
      existing = &c;
      break;
    }
  }
  if (existing == nullptr) {
    status.conditions.push_back(next);
  } else {
    if (existing->status == next.status) {
      next.lastTransitionTime = existing->lastTransitionTime;
    }
    next.lastProbeTime = existing->lastProbeTime;
    next.extra = existing->extra;
    changed = existing->status != next.status || existing->reason != next.reason ||
              existing->message != next.message;
    *existing = next;
  }
  if (changed) {
    status.status = next.type;
    status.reason = next.reason;
    status.message = next.message;
  }
  return changed;
}

std::chrono::nanoseconds jobAge(const sched::PodMigrationJob& job, WallTime now) {
  if (job.metadata.creationTimestamp.empty()) {
    return std::chrono::nanoseconds::zero();
  }
  auto created = api::core::parseTime(job.metadata.creationTimestamp);
  if (!created.ok()) {
    return std::chrono::nanoseconds::zero();
  }
  // Whole seconds first, so that an age beyond the nanosecond range (about 292 years) saturates,
  // as Go's time.Since does, instead of overflowing.
  using std::chrono::duration_cast;
  using std::chrono::seconds;
  constexpr int64_t kMaxSeconds = std::numeric_limits<int64_t>::max() / 1'000'000'000 - 1;
  const int64_t diff_s = duration_cast<seconds>(now.time_since_epoch()).count() -
                         duration_cast<seconds>(created->time_since_epoch()).count();
  if (diff_s > kMaxSeconds) {
    return std::chrono::nanoseconds::max();
  }
  if (diff_s < -kMaxSeconds) {
    return std::chrono::nanoseconds::min();
  }
  return duration_cast<std::chrono::nanoseconds>(now - *created);
}

std::optional<std::chrono::nanoseconds> jobTTL(const sched::PodMigrationJob& job) {
  if (!job.spec.ttl || job.spec.ttl->empty()) {
    return std::nullopt;
  }
  auto ttl = api::extension::parseDuration(*job.spec.ttl);
  if (!ttl.ok() || *ttl <= std::chrono::nanoseconds::zero()) {
    return std::nullopt;
  }
  return *ttl;
}

bool isPodReady(const api::core::Pod& pod) {
  for (const api::core::PodCondition& c : pod.status.conditions) {
    if (c.type == "Ready") {
      return c.status == "True";
    }
  }
  return false;
}

bool isPodActive(const api::core::Pod& pod) {
  return pod.status.phase != "Succeeded" && pod.status.phase != "Failed" &&
         pod.metadata.deletionTimestamp.empty();
}

}  // namespace koord::manager::descheduler::migration
