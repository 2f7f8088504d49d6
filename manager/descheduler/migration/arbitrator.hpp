// The arbitrator's writes (Koordinator's arbitratorImpl.updatePassedJob / updateFailedJob): what
// one arbitration pass (arbitration.hpp) decided, applied to the API server.
// - kPass: a merge patch of metadata.annotations["descheduler.koordinator.sh/passed-arbitration"]
//   = "true", with the job's resourceVersion as precondition (a job changed since the snapshot
//   gets Conflict and is judged again next pass). The update wakes the job's reconcile.
// - kFail: PUT status: phase Failed, reason ForbiddenMigratePod, message
//   `Pod "<ns>/<name>" is forbidden to migrate because it does not meet the requirements:
//   <reason>`, and a Warning Event ForbiddenMigratePod on the job.
// - kRetry: nothing (logged at debug).
// Every verdict is applied; the first failure is returned (prefixed with the job's name).
//
// Meant to run every args.arbitration_args.interval (500ms) while args.arbitration_args.enabled;
// one pass at a time. Thread safety: as the client and the sink given.
#pragma once

#include <vector>

#include "koord/common/status.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/migration/arbitration.hpp"
#include "manager/descheduler/migration/events.hpp"

namespace koord::manager::descheduler::migration {

[[nodiscard]] Status applyArbitration(k8s::Client& client, const std::vector<Arbitration>& verdicts,
                                      const EventSink& events, const log::Logger& logger);

// arbitrate() then applyArbitration().
[[nodiscard]] Status arbitrateOnce(const ArbitrationSnapshot& snapshot,
                                   const config::MigrationControllerArgs& args, k8s::Client& client,
                                   const EventSink& events, const log::Logger& logger);

}  // namespace koord::manager::descheduler::migration
