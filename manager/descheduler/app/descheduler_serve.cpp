#include "manager/descheduler/app/descheduler_serve.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <utility>

#include "koord/common/clock.hpp"
#include "koord/http/server.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/rest_client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/metrics/exposer.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"
#include "manager/controller/manager.hpp"
#include "manager/descheduler/app/cluster_sources.hpp"
#include "manager/descheduler/app/descheduling_pass.hpp"
#include "manager/descheduler/app/migration_sink.hpp"
#include "manager/descheduler/app/periodic.hpp"
#include "manager/descheduler/app/profile_runner.hpp"
#include "manager/descheduler/migration/arbitrator.hpp"
#include "manager/descheduler/migration/events.hpp"
#include "manager/descheduler/migration/job_reconciler.hpp"
#include "manager/descheduler/migration/scavenger.hpp"

namespace koord::manager::descheduler::app {

namespace deschedulerserve_detail {

constexpr std::chrono::seconds kStopGrace(10);
constexpr std::chrono::seconds kOnceSyncTimeout(60);

Result<std::unique_ptr<k8s::RestApiClient>> makeClient(const DeschedulerOptions& options,
                                                       const log::Logger& logger) {
  KOORD_ASSIGN_OR_RETURN(k8s::ClientConfig client_config, k8s::loadConfig(options.kubeconfig));
  client_config.qps = options.config.client_connection.qps;
  client_config.burst = options.config.client_connection.burst;
  k8s::RestClientOptions rest_options;
  rest_options.logger = logger;
  auto rest = k8s::RestClient::create(std::move(client_config), std::move(rest_options));
  if (!rest.ok()) {
    return rest.status().withPrefix("failed to create the API client");
  }
  return std::make_unique<k8s::RestApiClient>(std::shared_ptr<k8s::RestClient>(std::move(*rest)));
}

// Waits for the caches in short steps so that a stop is seen; true once synced.
bool waitForSync(k8s::SharedInformerFactory& factory, const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    if (factory.waitForCacheSync(std::chrono::seconds(1))) {
      return true;
    }
  }
  return false;
}

// The MigrationController args of the first profile that has them (defaults otherwise).
config::MigrationControllerArgs controllerArgs(const config::DeschedulerConfiguration& config) {
  for (const auto& profile : config.profiles) {
    if (const auto* entry = profile.pluginConfig(config::kMigrationControllerName);
        entry != nullptr && entry->migration_controller) {
      return *entry->migration_controller;
    }
  }
  return {};
}

controller::LeaderElectionOptions electionOptions(const config::LeaderElectionConfiguration& le) {
  controller::LeaderElectionOptions out;
  out.leader_elect = le.leader_elect;
  out.lease_namespace = le.resource_namespace;
  out.lease_name = le.resource_name;
  out.identity = controller::defaultIdentity();
  out.lease_duration = std::chrono::duration_cast<std::chrono::milliseconds>(le.lease_duration);
  out.renew_deadline = std::chrono::duration_cast<std::chrono::milliseconds>(le.renew_deadline);
  out.retry_period = std::chrono::duration_cast<std::chrono::milliseconds>(le.retry_period);
  return out;
}

http::HttpServerOptions serverOptions(const std::string& host, uint16_t port,
                                      const log::Logger& logger) {
  http::HttpServerOptions options;
  options.address = host;
  options.port = port;
  options.max_body_bytes = std::size_t{64} << 10;
  options.max_buffered_bytes = std::size_t{256} << 10;
  options.logger = logger;
  return options;
}

}  // namespace deschedulerserve_detail

namespace dsd = deschedulerserve_detail;

Status parseBindAddress(const std::string& text, std::string& host, uint16_t& port) {
  const size_t colon = text.rfind(':');
  const std::string port_text = colon == std::string::npos ? "" : text.substr(colon + 1);
  char* end = nullptr;
  const long value = port_text.empty() ? -1 : std::strtol(port_text.c_str(), &end, 10);
  if (colon == std::string::npos || end == nullptr || *end != '\0' || value < 0 || value > 65535) {
    return Status::invalidArgument("invalid bind address '" + text + "': want host:port");
  }
  host = colon == 0 ? "0.0.0.0" : text.substr(0, colon);
  port = static_cast<uint16_t>(value);
  return Status::ok();
}

Status runOnce(const DeschedulerOptions& options, const PluginRegistry& registry,
               const log::Logger& logger) {
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<ProfileRunner> runner,
                         ProfileRunner::create(options.config, registry, logger));
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<k8s::RestApiClient> client,
                         dsd::makeClient(options, logger));
  k8s::SharedInformerFactoryOptions factory_options;
  factory_options.logger = logger;
  k8s::SharedInformerFactory factory(*client, std::move(factory_options));
  KOORD_ASSIGN_OR_RETURN(ClusterInformers informers, ClusterInformers::create(factory, false));
  factory.start();
  if (!factory.waitForCacheSync(dsd::kOnceSyncTimeout)) {
    factory.shutdown();
    return Status::deadlineExceeded("the informers did not sync within 60s");
  }
  MigrationSinkOptions sink_options;
  sink_options.client = client.get();
  sink_options.dry_run = options.dry_run;
  sink_options.dry_run_out = options.dry_run_out;
  sink_options.has_active_job = [&informers](const api::core::Pod& pod) {
    return informers.hasActiveJob(pod);
  };
  sink_options.logger = logger;
  MigrationSink sink(std::move(sink_options));
  const PassResult result = runDeschedulingPass(*runner, informers, sink, PassMetrics{}, logger);
  factory.shutdown();
  return result.status;
}

Status serve(const DeschedulerOptions& options, const PluginRegistry& registry,
             const log::Logger& logger, const std::function<void()>& wait_for_stop) {
  metrics::MetricsRegistry metrics_registry;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<ProfileRunner> runner,
                         ProfileRunner::create(options.config, registry, logger));
  const config::MigrationControllerArgs args = dsd::controllerArgs(options.config);
  std::string healthz_host;
  uint16_t healthz_port = 0;
  KOORD_RETURN_IF_ERROR(
      parseBindAddress(options.config.healthz_bind_address, healthz_host, healthz_port)
          .withPrefix("healthzBindAddress"));
  std::string metrics_host;
  uint16_t metrics_port = 0;
  const bool separate_metrics =
      !options.config.metrics_bind_address.empty() &&
      options.config.metrics_bind_address != options.config.healthz_bind_address;
  if (separate_metrics) {
    KOORD_RETURN_IF_ERROR(
        parseBindAddress(options.config.metrics_bind_address, metrics_host, metrics_port)
            .withPrefix("metricsBindAddress"));
  }
  KOORD_ASSIGN_OR_RETURN(PassMetrics pass_metrics, registerPassMetrics(metrics_registry));
  KOORD_ASSIGN_OR_RETURN(metrics::Gauge leader_gauge,
                         metrics_registry.gauge("koord_descheduler_leader",
                                                "1 while this replica leads (runs the loops)."));
  leader_gauge.set(0);

  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<k8s::RestApiClient> client,
                         dsd::makeClient(options, logger));
  k8s::SharedInformerFactoryOptions factory_options;
  factory_options.logger = logger;
  k8s::SharedInformerFactory factory(*client, std::move(factory_options));
  KOORD_ASSIGN_OR_RETURN(ClusterInformers informers, ClusterInformers::create(factory, true));

  std::atomic<bool> lease_seen{!options.config.leader_election.leader_elect};
  controller::ManagerOptions manager_options;
  manager_options.election = dsd::electionOptions(options.config.leader_election);
  manager_options.on_leading_changed = [leader_gauge](bool leading) {
    leader_gauge.set(leading ? 1 : 0);
  };
  manager_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<controller::Manager> manager,
                         controller::Manager::create(*client, std::move(manager_options)));
  RealClock clock;
  k8s::EventRecorderOptions event_options;
  event_options.logger = logger;
  k8s::EventRecorder recorder(*client, "koord-descheduler", manager->identity(), clock,
                              std::move(event_options));
  const migration::EventSink events = migration::eventSinkFor(recorder);

  MigrationSinkOptions sink_options;
  sink_options.client = client.get();
  sink_options.dry_run = options.dry_run;
  sink_options.dry_run_out = options.dry_run_out;
  sink_options.has_active_job = [&informers](const api::core::Pod& pod) {
    return informers.hasActiveJob(pod);
  };
  sink_options.logger = logger;
  MigrationSink sink(std::move(sink_options));

  KOORD_RETURN_IF_ERROR(manager->add(std::make_shared<PeriodicRunnable>(
      "descheduling", options.config.descheduling_interval, [&](const std::stop_token& stop) {
        if (dsd::waitForSync(factory, stop)) {
          (void)runDeschedulingPass(*runner, informers, sink, pass_metrics, logger);
        }
      })));

  if (args.arbitration_args.enabled) {
    KOORD_RETURN_IF_ERROR(manager->add(std::make_shared<PeriodicRunnable>(
        "arbitrator", args.arbitration_args.interval, [&](const std::stop_token& stop) {
          if (!dsd::waitForSync(factory, stop)) {
            return;
          }
          const auto snapshot = informers.arbitration();
          if (Status status = migration::arbitrateOnce(*snapshot, args, *client, events, logger);
              !status.isOk()) {
            logger.warn("arbitration failed", {{"error", status.message()}});
          }
        })));
  }
  KOORD_RETURN_IF_ERROR(manager->add(std::make_shared<PeriodicRunnable>(
      "scavenger", migration::kScavengeInterval, [&](const std::stop_token& stop) {
        if (!dsd::waitForSync(factory, stop)) {
          return;
        }
        if (Status status = migration::scavenge(*client, informers.jobs->store().list(),
                                                std::chrono::system_clock::now(), logger);
            !status.isOk()) {
          logger.warn("scavenging PodMigrationJobs failed", {{"error", status.message()}});
        }
      })));

  migration::JobReconcilerOptions reconciler_options;
  reconciler_options.args = args;
  reconciler_options.sources = informers.jobSources(*client);
  reconciler_options.events = events;
  reconciler_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(
      std::unique_ptr<migration::JobReconciler> reconciler,
      migration::JobReconciler::create(*client, clock, std::move(reconciler_options)));
  controller::ControllerOptions controller_options;
  controller_options.name = "podmigrationjob";
  controller_options.workers = std::max(1, args.max_concurrent_reconciles);
  controller_options.reconcile =
      [&reconciler, &factory](const std::stop_token& stop,
                              const std::string& key) -> Result<controller::ReconcileResult> {
    if (!dsd::waitForSync(factory, stop)) {
      return controller::ReconcileResult::done();
    }
    return reconciler->reconcile(key);
  };
  controller_options.list_keys = [jobs = informers.jobs] { return jobs->store().listKeys(); };
  controller_options.metrics = &metrics_registry;
  controller_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::shared_ptr<controller::Controller> job_controller,
                         controller::Controller::create(std::move(controller_options)));
  informers.jobs->addHandlers(job_controller->handlers<api::scheduling::PodMigrationJob>());
  KOORD_RETURN_IF_ERROR(manager->add(job_controller));

  KOORD_ASSIGN_OR_RETURN(
      std::unique_ptr<http::HttpServer> server,
      http::HttpServer::create(dsd::serverOptions(healthz_host, healthz_port, logger)));
  if (!separate_metrics) {
    KOORD_RETURN_IF_ERROR(metrics::registerMetricsRoute(*server, metrics_registry));
  }
  KOORD_RETURN_IF_ERROR(server->route("GET", "/healthz", [](const http::HttpRequest&) {
    return http::HttpResponse::text(200, "ok\n");
  }));
  KOORD_RETURN_IF_ERROR(server->route(
      "GET", "/readyz", [&factory, &manager = *manager, &lease_seen](const http::HttpRequest&) {
        if (!factory.hasSynced()) {
          return http::HttpResponse::text(503, "informers not synced\n");
        }
        if (!lease_seen.load()) {
          if (manager.isLeader() || !manager.leader().empty()) {
            lease_seen.store(true);
          } else {
            return http::HttpResponse::text(503, "the Lease has not been read yet\n");
          }
        }
        return http::HttpResponse::text(200, "ok\n");
      }));
  KOORD_RETURN_IF_ERROR(server->start().withPrefix("failed to serve /healthz"));
  std::unique_ptr<metrics::MetricsExposer> exposer;
  if (separate_metrics) {
    KOORD_ASSIGN_OR_RETURN(
        exposer, metrics::MetricsExposer::start(
                     metrics_registry, dsd::serverOptions(metrics_host, metrics_port, logger)));
  }
  factory.start();
  manager->start();
  logger.info("koord-descheduler serving /healthz, /readyz and /metrics",
              {{"address", healthz_host},
               {"port", server->port()},
               {"identity", manager->identity()},
               {"leaderElect", options.config.leader_election.leader_elect},
               {"lease", options.config.leader_election.resource_namespace + "/" +
                             options.config.leader_election.resource_name},
               {"dryRun", options.dry_run}});

  wait_for_stop();

  logger.info("koord-descheduler stopping");
  manager->stop();
  server->stop(dsd::kStopGrace);
  if (exposer != nullptr) {
    exposer->stop(dsd::kStopGrace);
  }
  factory.shutdown();
  (void)recorder.shutdown(std::chrono::seconds(2));
  return Status::ok();
}

}  // namespace koord::manager::descheduler::app
