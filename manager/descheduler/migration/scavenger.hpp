// The PodMigrationJob scavenger (Koordinator's Reconciler.doScavenge, run every minute;
// koordinator-reference.md 3(j) step 8): any job, whatever its phase, is deleted together with
// the Reservation it refers to once it is older than its ttl + 5 minutes, or 30 minutes when it
// has no (positive) ttl.
//
// jobsToScavenge() is pure; scavenge() deletes, for each such job in the order given, its
// Reservation first (NotFound is fine) and then the job. As in Koordinator, a Reservation that
// cannot be deleted stops the pass (that error is returned); a job that cannot be deleted is
// logged and the pass goes on (the first such error is returned at the end).
// Thread safety: as the client given.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/common/status.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "manager/descheduler/migration/job_status.hpp"

namespace koord::manager::descheduler::migration {

inline constexpr std::chrono::minutes kScavengeInterval{1};
inline constexpr std::chrono::minutes kScavengeGraceAfterTTL{5};
inline constexpr std::chrono::minutes kScavengeAgeWithoutTTL{30};

// How old `job` may get before the scavenger deletes it.
[[nodiscard]] std::chrono::nanoseconds scavengeAge(const api::scheduling::PodMigrationJob& job);

[[nodiscard]] std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>> jobsToScavenge(
    const std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>>& jobs, WallTime now);

[[nodiscard]] Status scavenge(
    k8s::Client& client,
    const std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>>& jobs, WallTime now,
    const log::Logger& logger);

}  // namespace koord::manager::descheduler::migration
