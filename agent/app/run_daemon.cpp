#include "agent/app/run_daemon.hpp"

#include <sys/resource.h>

#include <memory>
#include <string>
#include <utility>

#include "agent/app/daemon.hpp"
#include "agent/app/debug_qos.hpp"
#include "agent/app/host.hpp"
#include "agent/statesinformer/kube_states_informer.hpp"
#include "koord/common/clock.hpp"
#include "koord/http/server.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/rest_client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/metrics/exposer.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::app {

namespace {

constexpr std::chrono::milliseconds kStopGrace{2000};

// The cgroup reader keeps its files open between cycles (a quarter of the soft limit): raise the
// soft limit to the hard one, as Go programs do at start.
void raiseOpenFilesLimit() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
}

}  // namespace

Status runDaemon(const DaemonOptions& options, const log::Logger& logger,
                 const std::function<void()>& wait_for_stop) {
  if (options.node_name.empty()) {
    return Status::invalidArgument(
        "failed to start koord-agent: --node-name (or NODE_NAME) is required");
  }
  KOORD_ASSIGN_OR_RETURN(Host host, discoverHost(options, logger));
  raiseOpenFilesLimit();

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
  KOORD_ASSIGN_OR_RETURN(auto states,
                         statesinformer::KubeStatesInformer::create(factory, options.node_name));

  // Warning Events about what the agent found wrong in others' objects (a pod's cpuset, the
  // NodeMetric's collect policy); the recorder aggregates and rate-limits them.
  RealClock clock;
  k8s::EventRecorderOptions event_options;
  event_options.logger = logger;
  k8s::EventRecorder recorder(client, "koord-agent", options.node_name, clock,
                              std::move(event_options));
  KOORD_ASSIGN_OR_RETURN(
      std::unique_ptr<Daemon> daemon,
      Daemon::create(
          options, logger, std::move(host),
          DaemonDeps{client, *states, registry, clock,
                     [&recorder](const api::core::ObjectReference& object, k8s::EventType type,
                                 std::string reason, std::string message) {
                       recorder.event(object, type, std::move(reason), std::move(message));
                     }}));

  http::HttpServerOptions server_options;
  server_options.address = options.listen_host;
  server_options.port = options.listen_port;
  // Every route is GET (no body is read); the caps only bound what a misbehaving client can make
  // the agent hold (docs/security.md).
  server_options.max_body_bytes = std::size_t{64} << 10;
  server_options.max_buffered_bytes = std::size_t{256} << 10;
  server_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<http::HttpServer> server,
                         http::HttpServer::create(server_options));
  KOORD_RETURN_IF_ERROR(metrics::registerMetricsRoute(*server, registry));
  KOORD_RETURN_IF_ERROR(
      server->route("GET", "/healthz", [&daemon = *daemon](const http::HttpRequest&) {
        return daemon.healthy() ? http::HttpResponse::text(200, "ok\n")
                                : http::HttpResponse::text(503, "collection loop stalled\n");
      }));
  KOORD_RETURN_IF_ERROR(server->route("GET", "/readyz", [&states](const http::HttpRequest&) {
    return states->hasSynced() ? http::HttpResponse::text(200, "ok\n")
                               : http::HttpResponse::text(503, "caches not synced\n");
  }));
  // What every QoS strategy last saw and decided; only for clients on the node itself (the
  // listen address may be the pod network's, for Prometheus).
  KOORD_RETURN_IF_ERROR(
      server->route("GET", "/debug/qos", [&daemon = *daemon](const http::HttpRequest& request) {
        return debugQosResponse(request, [&daemon] { return daemon.qosDebug(); });
      }));
  KOORD_RETURN_IF_ERROR(server->start());
  logger.info("serving /healthz, /readyz, /metrics and /debug/qos",
              {{"address", options.listen_host}, {"port", server->port()}});

  // The loop collects from the first second and reports once the informers have synced; start-up
  // never blocks on the API server, so a termination signal is always handled at once.
  factory.start();
  daemon->start();
  wait_for_stop();
  logger.info("stopping");
  daemon->stop();
  if (Status flushed = recorder.shutdown(std::chrono::milliseconds(500)); !flushed.isOk()) {
    logger.warn("some Events were not written", {{"error", flushed}});
  }
  factory.shutdown();
  server->stop(kStopGrace);
  return Status::ok();
}

}  // namespace koord::agent::app
