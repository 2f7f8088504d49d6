// Running koord-descheduler against a cluster.
//
// runOnce(): the API client and the informers (no controller, no server, no Lease), waits for the
// caches (up to 60s), runs one descheduling pass (descheduling_pass.hpp) and returns its status.
//
// serve(): the API client (clientConnection qps and burst), the shared informers, the probe and
// metrics server, and, under the config's Lease (leaderElection; none when leaderElect is false),
// while this replica leads:
//   - the descheduling loop: a pass every deschedulingInterval (0: one pass per term);
//   - the arbitrator: arbitrateOnce every arbitrationArgs.interval while enabled;
//   - the PodMigrationJob controller: JobReconciler::reconcile keyed by job name, fed by the
//     PodMigrationJob informer (maxConcurrentReconciles workers);
//   - the scavenger: every kScavengeInterval.
// The controller's MigrationController args are the first profile's (defaults when absent).
// /healthz answers 200 while running; /readyz 200 once the informers synced and the Lease was read
// (leader or follower); /metrics: koord_descheduler_* (passes, victims, jobs created,
// koord_descheduler_leader 1 while leading) and the controller's series. The server listens on
// healthzBindAddress; metricsBindAddress, when different and not empty, gets a /metrics server of
// its own. `wait_for_stop` blocks until the process should stop; then the loops and controller
// stop, the Lease is released, the servers and informers stop. Returns the first start-up failure
// (plugins and args before any connection), each naming what failed.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "koord/common/status.hpp"
#include "koord/log/logger.hpp"
#include "manager/descheduler/app/registry.hpp"
#include "manager/descheduler/config/descheduler_config.hpp"

namespace koord::manager::descheduler::app {

struct DeschedulerOptions {
  config::DeschedulerConfiguration config;
  std::string kubeconfig;  // "": $KUBECONFIG, else in-cluster
  bool dry_run = false;    // config dryRun or --dry-run
  std::ostream* dry_run_out = nullptr;
};

[[nodiscard]] Status runOnce(const DeschedulerOptions& options, const PluginRegistry& registry,
                             const log::Logger& logger);

[[nodiscard]] Status serve(const DeschedulerOptions& options, const PluginRegistry& registry,
                           const log::Logger& logger, const std::function<void()>& wait_for_stop);

// "host:port" (":port" is every interface) -> host and port; kInvalidArgument otherwise.
[[nodiscard]] Status parseBindAddress(const std::string& text, std::string& host, uint16_t& port);

}  // namespace koord::manager::descheduler::app
