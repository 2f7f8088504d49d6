// MigrationSink: the VictimSink of koord-descheduler (Koordinator v1.6.0 MigrationController's
// Evict and CreatePodMigrationJob): each victim becomes a PodMigrationJob.
//
// makeMigrationJob(pod, options, args, name) is the job Koordinator creates: metadata.name `name`
// (a random UUID in production), annotations koordinator.sh/evict-reason = options.reason and
// koordinator.sh/evict-trigger = options.plugin, no labels; spec.podRef {namespace, name, uid} of
// the pod, spec.mode = args.default_job_mode, spec.ttl = args.default_job_ttl (Go duration text),
// spec.deleteOptions = args.default_delete_options when set; status.phase Pending.
//
// MigrationSink::evict(pod, options, context):
// - dry run (options.dry_run, or the profile's MigrationController args.dry_run): creates
//   nothing, writes ONE line to the dry-run stream and returns true:
//     dry-run: would evict pod <namespace>/<name> from node <node> (plugin <Plugin>, reason
//     "<reason>")
// - a pod with an active job (has_active_job), or one this sink made a job for since the last
//   beginPass() (the job cache may not show it yet), is skipped: false, nothing created.
// - otherwise POSTs the job; true when the API server accepted it (false, logged, otherwise).
// createdThisPass(): the jobs it created since the last beginPass(), as it sent them (the
// descheduling pass counts them as migrating before the job cache shows them).
// Thread safety: one evict() at a time (a pass runs on one thread).
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "manager/descheduler/app/profile_runner.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/framework/evictor.hpp"

namespace koord::manager::descheduler::app {

[[nodiscard]] api::scheduling::PodMigrationJob makeMigrationJob(
    const api::core::Pod& pod, const framework::EvictOptions& options,
    const config::MigrationControllerArgs& args, const std::string& name);

// The dry-run line of one victim (no trailing newline).
[[nodiscard]] std::string dryRunLine(const api::core::Pod& pod,
                                     const framework::EvictOptions& options);

struct MigrationSinkOptions {
  k8s::Client* client = nullptr;  // must outlive the sink; may be null in dry run
  bool dry_run = false;           // config dryRun or --dry-run
  std::ostream* dry_run_out = nullptr;
  PodPredicate has_active_job;            // empty: no pod has one
  std::function<std::string()> new_name;  // empty: a random UUID
  log::Logger logger;
};

class MigrationSink {
 public:
  explicit MigrationSink(MigrationSinkOptions options);

  bool evict(const api::core::Pod& pod, const framework::EvictOptions& options,
             const ProfileContext& context);
  // A VictimSink calling evict() on this sink (which must outlive it).
  [[nodiscard]] VictimSink asVictimSink();

  [[nodiscard]] uint64_t jobsCreated() const { return jobs_created_; }
  // Forgets the pods given jobs so far (call when a pass starts; the cache has caught up).
  void beginPass() {
    created_for_.clear();
    created_jobs_.clear();
  }
  [[nodiscard]] const std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>>&
  createdThisPass() const {
    return created_jobs_;
  }
  // Whether this sink never creates jobs (--dry-run or the config's dryRun).
  [[nodiscard]] bool dryRun() const { return options_.dry_run; }

 private:
  std::string newName();

  MigrationSinkOptions options_;
  std::mt19937_64 random_;
  uint64_t jobs_created_ = 0;
  std::set<std::string> created_for_;  // namespace/name of pods given a job this pass
  std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>> created_jobs_;
};

}  // namespace koord::manager::descheduler::app
