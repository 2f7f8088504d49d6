#include "manager/descheduler/app/descheduling_pass.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace koord::manager::descheduler::app {

namespace deschedulingpass_detail {

// The informers' arbitration view plus the jobs the sink created this pass that the job cache
// does not show yet (by name), so a pass counts its own jobs against the migration limits.
class PassJobs final : public migration::ArbitrationSnapshot {
 public:
  PassJobs(const migration::ArbitrationSnapshot& base, const MigrationSink& sink)
      : base_(base), sink_(sink) {}

  [[nodiscard]] std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>> jobs()
      const override {
    if (!base_jobs_) {
      base_jobs_ = base_.jobs();
      for (const auto& job : *base_jobs_) {
        base_names_.insert(job->metadata.name);
      }
    }
    auto out = *base_jobs_;
    for (const auto& job : sink_.createdThisPass()) {
      if (base_names_.count(job->metadata.name) == 0) {
        out.push_back(job);
      }
    }
    return out;
  }
  [[nodiscard]] std::shared_ptr<const api::core::Pod> pod(const std::string& ns,
                                                          const std::string& name) const override {
    return base_.pod(ns, name);
  }
  // Resolved once per workload and pass: the informers' lookup walks every pod.
  [[nodiscard]] std::optional<migration::Workload> workload(
      const std::string& ns, const api::core::OwnerReference& controller) const override {
    const std::string key =
        ns + "/" + controller.kind + "/" + controller.name + "/" + controller.uid;
    auto it = workloads_.find(key);
    if (it == workloads_.end()) {
      it = workloads_.emplace(key, base_.workload(ns, controller)).first;
    }
    return it->second;
  }

 private:
  const migration::ArbitrationSnapshot& base_;
  const MigrationSink& sink_;
  // Memos of one pass (the object lives for one pass, on one thread).
  mutable std::optional<std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>>>
      base_jobs_;
  mutable std::set<std::string> base_names_;
  mutable std::map<std::string, std::optional<migration::Workload>> workloads_;
};

}  // namespace deschedulingpass_detail

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
  // The migration limits apply when jobs are really created and workloads can be resolved.
  std::unique_ptr<migration::ArbitrationSnapshot> cached;
  std::optional<deschedulingpass_detail::PassJobs> jobs;
  if (!sink.dryRun() && informers.replica_sets != nullptr) {
    cached = informers.arbitration();
    jobs.emplace(*cached, sink);
  }
  PassResult result = runner.runPass(
      snapshot, sink.asVictimSink(),
      [&informers](const api::core::Pod& pod) { return informers.hasActiveJob(pod); },
      std::chrono::system_clock::now(), jobs ? &*jobs : nullptr);
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
