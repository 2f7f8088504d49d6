// ProfileRunner: koord-descheduler's descheduling pass (Koordinator v1.6.0 descheduler.go
// deschedulerOnce over its profiles' frameworks).
//
// create() builds, for each profile of the configuration in order, its enabled Deschedule and
// Balance plugins (in the order enabled) from the registry, each with its pluginConfig args
// (null when none). Start-up errors (kInvalidArgument, naming the profile and plugin): an unknown
// plugin (PluginRegistry::checkConfiguration), a plugin's own args error, a plugin enabled at an
// extension point it does not implement ("plugin X does not extend deschedule plugin"), or
// evictor args that do not validate. The evictor's filters of a profile are DefaultEvictor's
// args (pluginConfig DefaultEvictor) when DefaultEvictor is enabled at evict or filter, otherwise
// defaultEvictorOptionsFrom(MigrationController args, defaulted when absent).
//
// runPass(snapshot, sink, has_active_job, now, jobs) is one pass:
//  1. the snapshot's Ready nodes matching the top-level nodeSelector; with fewer than two, the
//     pass does nothing and fails ("the cluster size is 0 or 1 ...", as the community).
//  2. one LimitedEvictor for the pass with the maxNoOfPodsToEvict* limits (shared by every
//     profile); each profile's plugins see an evictor whose filter() is that profile's
//     DefaultEvictor filter and refuses pods with an active PodMigrationJob (has_active_job) and,
//     when `jobs` is given and the profile's MigrationController args are not dryRun, pods for
//     which migration::migrationLimitReached(*jobs, pod, profile args) gives a reason (the
//     retryable limits of Koordinator's MigrationController Filter: maxMigratingGlobally /
//     PerNode / PerNamespace / PerWorkload, maxUnavailablePerWorkload); whose evict() goes
//     through the shared limits to `sink` with the profile's context. Jobs the sink creates
//     during the pass count only when `jobs` shows them (the caller's view decides).
//  3. every profile's deschedule plugins, profile by profile, then every profile's balance
//     plugins; each profile gets the nodes above that also match its own nodeSelector. A plugin's
//     error does not stop the others of its profile and phase, but (as Koordinator) an error in
//     the deschedule phase ends the pass before the balance phase. Errors are joined in the
//     result's status, each prefixed "<profile>/<plugin>: ".
// The result lists the victims the limits let through, in eviction order.
// Not thread-safe: one pass at a time.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"
#include "manager/descheduler/app/registry.hpp"
#include "manager/descheduler/config/descheduler_config.hpp"
#include "manager/descheduler/framework/limited_evictor.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/migration/arbitration.hpp"

namespace koord::manager::descheduler::app {

// Who asks for an eviction: the profile and its MigrationController args (mode, ttl, dryRun).
struct ProfileContext {
  const std::string& profile;
  const config::MigrationControllerArgs& args;
};

// Does the work for one victim (creates a PodMigrationJob, or prints it in dry run); false when
// that failed (the victim is then not counted).
using VictimSink = std::function<bool(const api::core::Pod&, const framework::EvictOptions&,
                                      const ProfileContext&)>;
// True when the pod already has an active PodMigrationJob.
using PodPredicate = std::function<bool(const api::core::Pod&)>;

struct PassResult {
  Status status;
  std::vector<framework::Victim> victims;
  size_t nodes = 0;  // nodes the pass looked at (after the top-level nodeSelector)
};

class ProfileRunner {
 public:
  [[nodiscard]] static Result<std::unique_ptr<ProfileRunner>> create(
      const config::DeschedulerConfiguration& config, const PluginRegistry& registry,
      const log::Logger& logger = {});
  ~ProfileRunner();
  ProfileRunner(const ProfileRunner&) = delete;
  ProfileRunner& operator=(const ProfileRunner&) = delete;

  [[nodiscard]] PassResult runPass(const framework::ClusterSnapshot& snapshot,
                                   const VictimSink& sink, const PodPredicate& has_active_job,
                                   std::chrono::system_clock::time_point now,
                                   const migration::ArbitrationSnapshot* jobs = nullptr);

  // "<profile>/<plugin>" of every plugin built, deschedule ones first, as a pass runs them.
  [[nodiscard]] std::vector<std::string> pluginOrder() const;

  struct Profile;

 private:
  ProfileRunner(const config::DeschedulerConfiguration& config, log::Logger logger);

  framework::EvictionLimits limits_;
  std::optional<api::core::LabelSelector> node_selector_;
  log::Logger logger_;
  std::vector<std::unique_ptr<Profile>> profiles_;
};

}  // namespace koord::manager::descheduler::app
