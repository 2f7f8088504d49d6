#include "manager/descheduler/app/migration_sink.hpp"

#include <cstdio>
#include <utility>

#include "koord/api/core/objects.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::manager::descheduler::app {

api::scheduling::PodMigrationJob makeMigrationJob(const api::core::Pod& pod,
                                                  const framework::EvictOptions& options,
                                                  const config::MigrationControllerArgs& args,
                                                  const std::string& name) {
  api::scheduling::PodMigrationJob job;
  job.apiVersion = "scheduling.koordinator.sh/v1alpha1";
  job.kind = std::string(api::scheduling::kPodMigrationJobKind);
  job.metadata.name = name;
  job.metadata.annotations[std::string(api::kAnnotationEvictReason)] = options.reason;
  job.metadata.annotations[std::string(api::kAnnotationEvictTrigger)] = options.plugin;
  api::core::ObjectReference ref;
  ref.namespace_ = pod.metadata.namespace_;
  ref.name = pod.metadata.name;
  ref.uid = pod.metadata.uid;
  job.spec.podRef = ref;
  job.spec.mode = args.default_job_mode;
  job.spec.ttl = api::extension::formatDuration(args.default_job_ttl);
  if (!args.default_delete_options.is_null()) {
    api::core::DeleteOptions delete_options;
    if (api::core::fromJson(args.default_delete_options, delete_options, "defaultDeleteOptions")
            .isOk()) {
      job.spec.deleteOptions = std::move(delete_options);
    }
  }
  job.status.phase = std::string(api::scheduling::kPodMigrationJobPending);
  return job;
}

std::string dryRunLine(const api::core::Pod& pod, const framework::EvictOptions& options) {
  return "dry-run: would evict pod " + pod.metadata.namespace_ + "/" + pod.metadata.name +
         " from node " + pod.spec.nodeName + " (plugin " + options.plugin + ", reason \"" +
         options.reason + "\")";
}

MigrationSink::MigrationSink(MigrationSinkOptions options)
    : options_(std::move(options)), random_(std::random_device{}()) {}

std::string MigrationSink::newName() {
  if (options_.new_name) {
    return options_.new_name();
  }
  // A version 4 UUID, as Koordinator's uuid.NewUUID names its jobs.
  const uint64_t high = (random_() & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;
  const uint64_t low = (random_() & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xFFFF),
                static_cast<unsigned>(high & 0xFFFF), static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

bool MigrationSink::evict(const api::core::Pod& pod, const framework::EvictOptions& options,
                          const ProfileContext& context) {
  const std::string key = pod.metadata.namespace_ + "/" + pod.metadata.name;
  if (options_.dry_run || context.args.dry_run) {
    if (options_.dry_run_out != nullptr) {
      *options_.dry_run_out << dryRunLine(pod, options) << "\n" << std::flush;
    }
    return true;
  }
  if (created_for_.count(key) != 0 || (options_.has_active_job && options_.has_active_job(pod))) {
    options_.logger.info("Pod already has an active PodMigrationJob; skipped", {{"pod", key}});
    return false;
  }
  if (options_.client == nullptr) {
    return false;
  }
  const api::scheduling::PodMigrationJob job =
      makeMigrationJob(pod, options, context.args, newName());
  auto created = options_.client->create(k8s::kPodMigrationJobs, "", api::scheduling::toJson(job));
  if (!created.ok()) {
    options_.logger.error("Failed to create PodMigrationJob for Pod",
                          {{"pod", key}, {"error", created.status().message()}});
    return false;
  }
  ++jobs_created_;
  created_for_.insert(key);
  created_jobs_.push_back(std::make_shared<const api::scheduling::PodMigrationJob>(job));
  options_.logger.info("Created PodMigrationJob", {{"pod", key},
                                                   {"job", job.metadata.name},
                                                   {"plugin", options.plugin},
                                                   {"profile", context.profile}});
  return true;
}

VictimSink MigrationSink::asVictimSink() {
  return [this](const api::core::Pod& pod, const framework::EvictOptions& options,
                const ProfileContext& context) { return evict(pod, options, context); };
}

}  // namespace koord::manager::descheduler::app
