// Reading and editing a PodMigrationJob as the migration controller does: its effective mode,
// whether it is terminal or active, its conditions (Koordinator's util.UpdateCondition), its age
// and the reference Events name it by. Pure functions of their arguments; thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::migration {

using WallTime = std::chrono::system_clock::time_point;

// The job's mode: spec.mode, or args.default_job_mode when it is "" (ReservationFirst or
// EvictDirectly).
[[nodiscard]] std::string_view effectiveMode(const api::scheduling::PodMigrationJob& job,
                                             const config::MigrationControllerArgs& args);
[[nodiscard]] bool isEvictDirectly(const api::scheduling::PodMigrationJob& job,
                                   const config::MigrationControllerArgs& args);

// Succeeded, Failed or Aborted.
[[nodiscard]] bool isTerminal(const api::scheduling::PodMigrationJob& job);
// Pending, counting the phase "" of a job nobody has looked at yet.
[[nodiscard]] bool isPending(const api::scheduling::PodMigrationJob& job);
// The annotation descheduler.koordinator.sh/passed-arbitration is "true".
[[nodiscard]] bool passedArbitration(const api::scheduling::PodMigrationJob& job);
// What the arbitration counts as migrating: Running, or Pending and passed arbitration.
[[nodiscard]] bool isActive(const api::scheduling::PodMigrationJob& job);

// "<namespace>/<name>" of the job's podRef ("" when it has none).
[[nodiscard]] std::string podRefKey(const api::scheduling::PodMigrationJob& job);
// Whether the job's podRef names `pod`: by UID when the podRef has one, else by namespace/name.
[[nodiscard]] bool refersTo(const api::scheduling::PodMigrationJob& job, const api::core::Pod& pod);
// "<namespace>/<name>" of a pod.
[[nodiscard]] std::string podKey(const api::core::ObjectMeta& meta);

// The reference an Event about the job carries.
[[nodiscard]] api::core::ObjectReference jobReference(const api::scheduling::PodMigrationJob& job);

// The condition of `type`, or nullptr.
[[nodiscard]] const api::scheduling::PodMigrationJobCondition* findCondition(
    const api::scheduling::PodMigrationJobStatus& status, std::string_view type);

// Koordinator's updateCondition: sets or replaces the condition of `type` (lastTransitionTime
// moves to `now` only when its status changes), and, when the condition changed (status, reason
// or message), copies type, reason and message into status.status / reason / message. Returns
// whether it changed.
bool setCondition(api::scheduling::PodMigrationJobStatus& status, std::string_view type,
                  std::string_view condition_status, std::string_view reason, std::string message,
                  WallTime now);

// The job's age at `now` (0 when creationTimestamp is missing or unreadable; saturated at the
// nanosecond range, as Go's time.Since).
[[nodiscard]] std::chrono::nanoseconds jobAge(const api::scheduling::PodMigrationJob& job,
                                              WallTime now);
// spec.ttl when set, readable and positive; std::nullopt otherwise.
[[nodiscard]] std::optional<std::chrono::nanoseconds> jobTTL(
    const api::scheduling::PodMigrationJob& job);

// Pod helpers the controller needs: Ready=True, and not terminal nor being deleted.
[[nodiscard]] bool isPodReady(const api::core::Pod& pod);
[[nodiscard]] bool isPodActive(const api::core::Pod& pod);

}  // namespace koord::manager::descheduler::migration
