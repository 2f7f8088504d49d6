#include "manager/descheduler/app/descheduling_pass.hpp"

#include <chrono>

namespace koord::manager::descheduler::app {

Result<PassMetrics> registerPassMetrics(metrics::MetricsRegistry& registry) {
  PassMetrics out;
  KOORD_ASSIGN_OR_RETURN(auto passes,
                         registry.counterFamily("koord_descheduler_passes_total",
                                                "Descheduling passes run, by result.", {"result"}));
  KOORD_ASSIGN_OR_RETURN(out.success, passes.withLabels({"success"}));
  KOORD_ASSIGN_OR_RETURN(out.error, passes.withLabels({"error"}));
  KOORD_ASSIGN_OR_RETURN(out.victims,
                         registry.counter("koord_descheduler_victims_total",
                                          "Pods the descheduling plugins chose and the limits let "
                                          "through (dry run included)."));
  KOORD_ASSIGN_OR_RETURN(out.jobs_created,
                         registry.counter("koord_descheduler_jobs_created_total",
                                          "PodMigrationJobs created for victims."));
  return out;
}

PassResult runDeschedulingPass(ProfileRunner& runner, const ClusterInformers& informers,
                               MigrationSink& sink, const PassMetrics& metrics,
                               const log::Logger& logger) {
  const framework::ClusterSnapshot snapshot =
      framework::ClusterSnapshot::build(informers.snapshotInput());
  const uint64_t jobs_before = sink.jobsCreated();
  sink.beginPass();
  PassResult result = runner.runPass(
      snapshot, sink.asVictimSink(),
      [&informers](const api::core::Pod& pod) { return informers.hasActiveJob(pod); },
      std::chrono::system_clock::now());
  metrics.victims.inc(static_cast<double>(result.victims.size()));
  metrics.jobs_created.inc(static_cast<double>(sink.jobsCreated() - jobs_before));
  if (result.status.isOk()) {
    metrics.success.inc();
    logger.info("descheduling pass done",
                {{"nodes", static_cast<int64_t>(result.nodes)},
                 {"victims", static_cast<int64_t>(result.victims.size())}});
  } else {
    metrics.error.inc();
    logger.error("Error descheduling pods",
                 {{"nodes", static_cast<int64_t>(result.nodes)},
                  {"victims", static_cast<int64_t>(result.victims.size())},
                  {"error", result.status.message()}});
  }
  return result;
}

}  // namespace koord::manager::descheduler::app
