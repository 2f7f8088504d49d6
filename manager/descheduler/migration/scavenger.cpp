#include "manager/descheduler/migration/scavenger.hpp"

#include <string>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/descheduler/migration/migration_reservation.hpp"

namespace koord::manager::descheduler::migration {

namespace sched = api::scheduling;
using ScavengerJobPtr = std::shared_ptr<const sched::PodMigrationJob>;

std::chrono::nanoseconds scavengeAge(const sched::PodMigrationJob& job) {
  if (auto ttl = jobTTL(job)) {
    // A ttl within the grace of the largest duration saturates (Go's sum would wrap negative and
    // scavenge the job at once).
    if (*ttl > std::chrono::nanoseconds::max() - kScavengeGraceAfterTTL) {
      return std::chrono::nanoseconds::max();
    }
    return *ttl + kScavengeGraceAfterTTL;
  }
  return kScavengeAgeWithoutTTL;
}

std::vector<ScavengerJobPtr> jobsToScavenge(const std::vector<ScavengerJobPtr>& jobs,
                                            WallTime now) {
  std::vector<ScavengerJobPtr> out;
  for (const ScavengerJobPtr& job : jobs) {
    if (job != nullptr && !job->metadata.creationTimestamp.empty() &&
        jobAge(*job, now) >= scavengeAge(*job)) {
      out.push_back(job);
    }
  }
  return out;
}

Status scavenge(k8s::Client& client, const std::vector<ScavengerJobPtr>& jobs, WallTime now,
                const log::Logger& logger) {
  Status first;
  for (const ScavengerJobPtr& job : jobsToScavenge(jobs, now)) {
    KOORD_RETURN_IF_ERROR(deleteReservation(client, *job));
    Status deleted =
        client.remove(k8s::kPodMigrationJobs, "", job->metadata.name, api::core::DeleteOptions{});
    if (deleted.isOk() || k8s::isNotFound(deleted)) {
      logger.debug("scavenged PodMigrationJob", {{"job", job->metadata.name}});
      continue;
    }
    deleted = deleted.withPrefix("failed to scavenge PodMigrationJob '" + job->metadata.name + "'");
    logger.warn(deleted.message());
    if (first.isOk()) {
      first = deleted;
    }
  }
  return first;
}

}  // namespace koord::manager::descheduler::migration
