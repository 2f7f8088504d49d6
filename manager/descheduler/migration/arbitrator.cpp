#include "manager/descheduler/migration/arbitrator.hpp"

#include <string>

#include "koord/api/well_known.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/descheduler/migration/job_status.hpp"

namespace koord::manager::descheduler::migration {

namespace sched = api::scheduling;

namespace {

Status markPassed(k8s::Client& client, const sched::PodMigrationJob& job) {
  const api::Json patch = {
      {"metadata",
       {{"resourceVersion", job.metadata.resourceVersion},
        {"annotations", {{std::string(api::kAnnotationPassedArbitration), "true"}}}}}};
  return client
      .patch(k8s::kPodMigrationJobs, "", job.metadata.name, k8s::PatchType::kMerge, patch.dump(),
             {})
      .status();
}

Status markFailed(k8s::Client& client, const sched::PodMigrationJob& job, const std::string& reason,
                  const EventSink& events) {
  sched::PodMigrationJob failed = job;
  failed.status.phase = std::string(sched::kPodMigrationJobFailed);
  failed.status.reason = std::string(sched::kPodMigrationJobReasonForbiddenMigratePod);
  failed.status.message =
      "Pod \"" + podRefKey(job) +
      "\" is forbidden to migrate because it does not meet the requirements: " + reason;
  KOORD_RETURN_IF_ERROR(
      client.updateStatus(k8s::kPodMigrationJobs, "", sched::toJson(failed)).status());
  if (events) {
    events(jobReference(job), k8s::EventType::kWarning,
           std::string(sched::kPodMigrationJobReasonForbiddenMigratePod), failed.status.message);
  }
  return Status::ok();
}

}  // namespace

Status applyArbitration(k8s::Client& client, const std::vector<Arbitration>& verdicts,
                        const EventSink& events, const log::Logger& logger) {
  Status first;
  for (const Arbitration& a : verdicts) {
    if (a.job == nullptr) {
      continue;
    }
    Status status;
    switch (a.verdict) {
      case Verdict::kPass:
        status = markPassed(client, *a.job);
        break;
      case Verdict::kFail:
        status = markFailed(client, *a.job, a.reason, events);
        break;
      case Verdict::kRetry:
        logger.debug("PodMigrationJob waits for arbitration",
                     {{"job", a.job->metadata.name}, {"reason", a.reason}});
        break;
    }
    if (!status.isOk()) {
      status = status.withPrefix("failed to apply the arbitration of PodMigrationJob '" +
                                 a.job->metadata.name + "'");
      logger.warn(status.message());
      if (first.isOk()) {
        first = status;
      }
    }
  }
  return first;
}

Status arbitrateOnce(const ArbitrationSnapshot& snapshot,
                     const config::MigrationControllerArgs& args, k8s::Client& client,
                     const EventSink& events, const log::Logger& logger) {
  return applyArbitration(client, arbitrate(snapshot, args), events, logger);
}

}  // namespace koord::manager::descheduler::migration
