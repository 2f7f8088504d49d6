// One descheduling pass over the informers' caches: ClusterSnapshot::build(snapshotInput()), then
// ProfileRunner::runPass with the MigrationSink and the active-job check (and, when the sink is not
// in dry run and the informers resolve workloads, the migration limits over the cached jobs plus
// the jobs the sink created earlier in this pass), then the pass's
// metrics and one log line (nodes, victims, error).
//
// Metrics (registerPassMetrics; a default PassMetrics records nothing):
//   koord_descheduler_passes_total{result="success"|"error"}  counter
//   koord_descheduler_victims_total                           counter: victims the limits let
//   through koord_descheduler_jobs_created_total                      counter: PodMigrationJobs
//   created
// Not thread-safe: one pass at a time (the runner's contract).
#pragma once

#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/descheduler/app/cluster_sources.hpp"
#include "manager/descheduler/app/migration_sink.hpp"
#include "manager/descheduler/app/profile_runner.hpp"

namespace koord::manager::descheduler::app {

struct PassMetrics {
  metrics::Counter success;
  metrics::Counter error;
  metrics::Counter victims;
  metrics::Counter jobs_created;
};

[[nodiscard]] Result<PassMetrics> registerPassMetrics(metrics::MetricsRegistry& registry);

PassResult runDeschedulingPass(ProfileRunner& runner, const ClusterInformers& informers,
                               MigrationSink& sink, const PassMetrics& metrics,
                               const log::Logger& logger);

}  // namespace koord::manager::descheduler::app
