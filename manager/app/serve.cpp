#include "manager/app/serve.hpp"

#include <atomic>
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
#include "manager/app/controllers.hpp"
#include "manager/app/webhooks.hpp"

namespace koord::manager::app {
namespace {

constexpr std::chrono::seconds kStopGrace(10);

}  // namespace

Status serve(const ServeOptions& options, const log::Logger& logger,
             const std::function<void()>& wait_for_stop) {
  metrics::MetricsRegistry registry;
  KOORD_ASSIGN_OR_RETURN(k8s::ClientConfig client_config, k8s::loadConfig(options.kubeconfig));
  k8s::RestClientOptions rest_options;
  rest_options.logger = logger;
  Result<std::unique_ptr<k8s::RestClient>> rest =
      k8s::RestClient::create(std::move(client_config), std::move(rest_options));
  if (!rest.ok()) {
    return rest.status().withPrefix("failed to create the API client");
  }
  k8s::RestApiClient client(std::shared_ptr<k8s::RestClient>(std::move(*rest)));
  k8s::SharedInformerFactoryOptions factory_options;
  factory_options.logger = logger;
  k8s::SharedInformerFactory factory(client, std::move(factory_options));

  // The Lease has been read (or written) at least once: the API server answers.
  std::atomic<bool> lease_seen{!options.election.leader_elect};
  controller::ManagerOptions manager_options;
  manager_options.election = options.election;
  manager_options.metrics = &registry;
  manager_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<controller::Manager> manager,
                         controller::Manager::create(client, std::move(manager_options)));
  RealClock clock;
  k8s::EventRecorderOptions event_options;
  event_options.logger = logger;
  k8s::EventRecorder events(client, "koord-manager", manager->identity(), clock,
                            std::move(event_options));
  ControllerContext context{client, factory, events, registry, logger};
  KOORD_ASSIGN_OR_RETURN(Controllers controllers, addControllers(context, *manager));
  std::unique_ptr<Webhooks> webhooks;
  if (options.webhook.port != 0) {
    KOORD_ASSIGN_OR_RETURN(webhooks, Webhooks::create(options.webhook, client, factory, logger));
  }

  http::HttpServerOptions server_options;
  server_options.address = options.listen_host;
  server_options.port = options.listen_port;
  // Every route is GET (no body is read).
  server_options.max_body_bytes = std::size_t{64} << 10;
  server_options.max_buffered_bytes = std::size_t{256} << 10;
  server_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<http::HttpServer> server,
                         http::HttpServer::create(server_options));
  KOORD_RETURN_IF_ERROR(metrics::registerMetricsRoute(*server, registry));
  KOORD_RETURN_IF_ERROR(server->route("GET", "/healthz", [](const http::HttpRequest&) {
    return http::HttpResponse::text(200, "ok\n");
  }));
  KOORD_RETURN_IF_ERROR(server->route(
      "GET", "/readyz",
      [&factory, &manager = *manager, &lease_seen, &webhooks](const http::HttpRequest&) {
        if (!factory.hasSynced()) {
          return http::HttpResponse::text(503, "informers not synced\n");
        }
        if (webhooks != nullptr) {
          if (Status ready = webhooks->readiness(); !ready.isOk()) {
            return http::HttpResponse::text(503, ready.message() + "\n");
          }
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
  factory.start();
  if (webhooks != nullptr) {
    webhooks->start();
  }
  manager->start();
  logger.info("koord-manager serving /healthz, /readyz and /metrics",
              {{"address", options.listen_host},
               {"port", server->port()},
               {"identity", manager->identity()},
               {"leaderElect", options.election.leader_elect},
               {"lease", options.election.lease_namespace + "/" + options.election.lease_name},
               {"controllers", static_cast<int64_t>(controllers.count)},
               {"webhookPort", static_cast<int64_t>(options.webhook.port)}});

  wait_for_stop();

  logger.info("koord-manager stopping");
  if (webhooks != nullptr) {
    webhooks->stop(kStopGrace);
  }
  manager->stop();  // the controllers stop, then the Lease is released
  server->stop(kStopGrace);
  factory.shutdown();
  (void)events.shutdown(std::chrono::seconds(2));
  return Status::ok();
}

}  // namespace koord::manager::app
