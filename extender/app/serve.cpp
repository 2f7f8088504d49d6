#include "extender/app/serve.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>

#include "extender/app/k8s_binder.hpp"
#include "extender/framework/cluster_state.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/objects/kind_sources.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/plugins/kube/kube_plugins.hpp"
#include "extender/reservation/controller.hpp"
#include "extender/server/extender_server.hpp"
#include "extender/server/framework_service.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/thread_name.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/leader_election.hpp"
#include "koord/k8s/protobuf_pod.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/rest_client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/k8s/transforms.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::extender::app {
namespace {

constexpr std::chrono::seconds kStopGrace(10);
// /readyz answers 503 once any informer has been failing this long (client-go's longest backoff
// between retries is 30 s, so this is two or more refused attempts in a row).
constexpr std::chrono::seconds kUnreadyAfterFailing(30);

std::string podKey(const api::core::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

// Feeds ClusterState from the node and pod informers, and the Reservation helper from the
// Reservation informer. Handlers run on the informers' threads.
Status connectInformers(k8s::SharedInformerFactory& factory, framework::ClusterState& state,
                        plugins::common::ReservationState& reservation_state,
                        const log::Logger& logger, std::function<bool()>& synced) {
  KOORD_ASSIGN_OR_RETURN(auto nodes, factory.informerFor<api::core::Node>(k8s::kNodes));
  KOORD_ASSIGN_OR_RETURN(
      auto pods, factory.informerFor<api::core::Pod>(k8s::kPods, {}, &k8s::decodePodForCache,
                                                     k8s::WatchFormat::kProtobuf));
  // A watch event's Pod decoded straight from protobuf, with no JSON tree between (the Pod watch
  // was a sixth of koord-extender's CPU in a throughput run; docs/extender-throughput-log.md).
  pods->setProtobufDecoder(&k8s::decodeProtobufPodForCache);
  k8s::ResourceEventHandlers<api::core::Node> node_handlers;
  node_handlers.onAdd = [&state](const std::shared_ptr<const api::core::Node>& node) {
    state.upsertNode(node);
  };
  node_handlers.onUpdate = [&state](const std::shared_ptr<const api::core::Node>&,
                                    const std::shared_ptr<const api::core::Node>& node) {
    state.upsertNode(node);
  };
  node_handlers.onDelete = [&state](const std::shared_ptr<const api::core::Node>& node) {
    state.removeNode(node->metadata.name);
  };
  nodes->addHandlers(std::move(node_handlers));

  const auto upsert = [&state, logger](const std::shared_ptr<const api::core::Pod>& pod) {
    const Status status = state.upsertPod(pod);
    if (!status.isOk()) {
      logger.warn("failed to cache pod", {{"pod", podKey(*pod)}, {"error", status.message()}});
    }
  };
  k8s::ResourceEventHandlers<api::core::Pod> pod_handlers;
  pod_handlers.onAdd = upsert;
  pod_handlers.onUpdate = [upsert](const std::shared_ptr<const api::core::Pod>&,
                                   const std::shared_ptr<const api::core::Pod>& pod) {
    upsert(pod);
  };
  pod_handlers.onDelete = [&state](const std::shared_ptr<const api::core::Pod>& pod) {
    state.removePod(podKey(*pod));
  };
  pods->addHandlers(std::move(pod_handlers));

  KOORD_ASSIGN_OR_RETURN(auto reservations,
                         factory.informerFor<api::scheduling::Reservation>(k8s::kReservations));
  const auto upsert_reservation =
      [&reservation_state, logger](const std::shared_ptr<const api::scheduling::Reservation>& r) {
        const Status status = reservation_state.upsert(r);
        if (!status.isOk()) {
          logger.warn("reservation holds no capacity",
                      {{"reservation", r->metadata.name}, {"error", status.message()}});
        }
      };
  k8s::ResourceEventHandlers<api::scheduling::Reservation> reservation_handlers;
  reservation_handlers.onAdd = upsert_reservation;
  reservation_handlers.onUpdate =
      [upsert_reservation](const std::shared_ptr<const api::scheduling::Reservation>&,
                           const std::shared_ptr<const api::scheduling::Reservation>& r) {
        upsert_reservation(r);
      };
  reservation_handlers.onDelete =
      [&reservation_state](const std::shared_ptr<const api::scheduling::Reservation>& r) {
        reservation_state.remove(r->metadata.name);
      };
  reservations->addHandlers(std::move(reservation_handlers));
  synced = [nodes, pods, reservations] {
    return nodes->hasSynced() && pods->hasSynced() && reservations->hasSynced();
  };
  return Status::ok();
}

// "<hostname>_<16 hex digits>": unique per process, as client-go's identities are.
std::string leaderIdentity() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0)
    host[0] = '\0';
  std::random_device random;
  const uint64_t suffix = (static_cast<uint64_t>(random()) << 32) ^ random();
  char hex[17] = {};
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(suffix));
  return std::string(host[0] != '\0' ? host : "koord-extender") + "_" + hex;
}

// The reservation loop: kube-scheduler's filters for a reserve pod, then the configured plugins.
Result<std::unique_ptr<framework::Runtime>> placementRuntime(
    const config::KoordExtenderConfiguration& config, const framework::Handle& handle) {
  framework::RuntimeOptions options;
  options.parallelism = config.parallelism;
  options.plugins = plugins::kube::filterConfigs();
  for (const config::PluginConfiguration& plugin : config.plugins) {
    options.plugins.push_back({plugin.name, plugin.args, plugin.weight});
  }
  return framework::Runtime::create(plugins::placementRegistry(), handle, std::move(options));
}

// Runs the reservation loop: under the Lease when leaderElection.leaderElect, else at once.
class ReservationLoop {
 public:
  ReservationLoop(reservation::ReservationController& controller, k8s::Client& client,
                  const config::LeaderElectionConfiguration& election, const log::Logger& logger)
      : controller_(controller) {
    if (!election.leader_elect) {
      thread_ = std::jthread([this](const std::stop_token& stop) {
        nameThisThread("koord-resv-ctrl");
        controller_.run(stop);
      });
      return;
    }
    k8s::LeaderElectionConfig le;
    le.lease_namespace = election.resource_namespace;
    le.lease_name = election.resource_name;
    le.identity = leaderIdentity();
    le.lease_duration =
        std::chrono::duration_cast<std::chrono::milliseconds>(election.lease_duration);
    le.renew_deadline =
        std::chrono::duration_cast<std::chrono::milliseconds>(election.renew_deadline);
    le.retry_period = std::chrono::duration_cast<std::chrono::milliseconds>(election.retry_period);
    le.logger = logger;
    le.on_started_leading = [this, logger](const std::stop_token& stop) {
      nameThisThread("koord-resv-ctrl");
      logger.info("leading: the reservation loop runs here");
      controller_.run(stop);
    };
    le.on_stopped_leading = [logger] { logger.info("stopped leading the reservation loop"); };
    auto elector = k8s::LeaderElector::create(client, std::move(le));
    if (!elector.ok()) {
      status_ = elector.status().withPrefix("leaderElection");
      return;
    }
    elector_ = std::move(*elector);
    thread_ = std::jthread([this] {
      nameThisThread("koord-elector");
      elector_->run();
    });
  }
  ~ReservationLoop() { stop(); }
  ReservationLoop(const ReservationLoop&) = delete;
  ReservationLoop& operator=(const ReservationLoop&) = delete;

  [[nodiscard]] const Status& status() const { return status_; }
  void stop() {
    if (elector_ != nullptr)
      elector_->stop();
    thread_.request_stop();
    if (thread_.joinable())
      thread_.join();
  }

 private:
  reservation::ReservationController& controller_;
  std::unique_ptr<k8s::LeaderElector> elector_;
  std::jthread thread_;
  Status status_;
};

server::ServerOptions serverOptions(const config::KoordExtenderConfiguration& config,
                                    const log::Logger& logger) {
  server::ServerOptions options;
  options.address = config.server.host();
  options.port = config.server.port();
  options.url_prefix = config.server.url_prefix;
  options.max_request_bytes = static_cast<std::size_t>(config.server.max_request_bytes);
  options.max_buffered_bytes = static_cast<std::size_t>(config.server.max_buffered_bytes);
  options.tls_cert_file = config.server.tls_cert_file;
  options.tls_key_file = config.server.tls_key_file;
  options.logger = logger;
  return options;
}

}  // namespace

Status serve(const config::KoordExtenderConfiguration& config, const log::Logger& logger,
             const std::function<void()>& wait_for_stop) {
  metrics::MetricsRegistry metrics;

  KOORD_ASSIGN_OR_RETURN(k8s::ClientConfig client_config,
                         k8s::loadConfig(config.client_connection.kubeconfig));
  client_config.qps = config.client_connection.qps;
  client_config.burst = config.client_connection.burst;
  k8s::RestClientOptions rest_options;
  rest_options.logger = logger;
  Result<std::unique_ptr<k8s::RestClient>> rest =
      k8s::RestClient::create(std::move(client_config), std::move(rest_options));
  if (!rest.ok()) {
    return rest.status().withPrefix("failed to create the API client");
  }
  const std::shared_ptr<k8s::RestClient> shared_rest(std::move(*rest));
  k8s::RestApiClient client(shared_rest);

  RealClock clock;
  // What binds in flight took, shared by the plugins; the pod informer's confirmations release it.
  framework::AllocationCache allocations(clock);
  framework::ClusterState state(clock, std::chrono::seconds(30), &allocations);
  k8s::SharedInformerFactoryOptions factory_options;
  factory_options.logger = logger;
  k8s::SharedInformerFactory factory(client, std::move(factory_options));
  std::function<bool()> cluster_synced;
  // The Reservation helper: the reservation loop needs it whatever plugins are enabled.
  plugins::common::ReservationState& reservation_state =
      plugins::common::ReservationState::install(state);
  KOORD_RETURN_IF_ERROR(
      connectInformers(factory, state, reservation_state, logger, cluster_synced));
  // The kinds the enabled plugins read, each watched once; not ready before they have synced. The
  // node data they keep, in every NodeInfo.
  std::vector<std::string> enabled;
  for (const config::PluginConfiguration& plugin : config.plugins)
    enabled.push_back(plugin.name);
  plugins::installNodeData(enabled, state);
  framework::ObjectStore objects;
  KOORD_ASSIGN_OR_RETURN(std::function<bool()> objects_synced,
                         objects::watchKinds(plugins::kindsRead(enabled), factory, objects));
  // Ready once every cache has synced, and not while any informer has failed to list or watch
  // for kUnreadyAfterFailing: its cache is then stale (RBAC taken away, API server unreachable).
  std::function<bool()> synced = [cluster_synced, objects_synced, &factory] {
    return cluster_synced() && objects_synced() && factory.failingFor() < kUnreadyAfterFailing;
  };

  framework::BasicHandle handle(state, clock, logger, &objects, &allocations);
  framework::RuntimeOptions runtime_options;
  runtime_options.parallelism = config.parallelism;
  runtime_options.bind_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(config.bind_timeout);
  for (const config::PluginConfiguration& plugin : config.plugins) {
    runtime_options.plugins.push_back({plugin.name, plugin.args, plugin.weight});
  }
  const framework::Registry registry = plugins::builtinPlugins();
  Result<std::unique_ptr<framework::Runtime>> runtime =
      framework::Runtime::create(registry, handle, std::move(runtime_options), &metrics);
  if (!runtime.ok()) {
    return runtime.status().withPrefix("failed to set up the plugins");
  }

  auto placement = placementRuntime(config, handle);
  if (!placement.ok()) {
    return placement.status().withPrefix("failed to set up the reservation loop's plugins");
  }
  k8s::EventRecorderOptions event_options;
  event_options.logger = logger;
  k8s::EventRecorder events(client, "koord-extender", leaderIdentity(), clock,
                            std::move(event_options));
  reservation::ControllerOptions controller_options;
  controller_options.logger = logger;
  controller_options.ready = synced;
  reservation::ReservationController controller(client, state, **placement, &events, {},
                                                std::move(controller_options));

  // Binds share the connections and the rate limit, and end within bindTimeout (the runtime's
  // bind_timeout; see KoordExtenderConfiguration::bind_timeout).
  K8sBinder binder(shared_rest);
  server::FrameworkService service(**runtime, state, binder, synced);
  KOORD_ASSIGN_OR_RETURN(
      std::unique_ptr<server::ExtenderServer> http,
      server::ExtenderServer::create(service, metrics, serverOptions(config, logger)));
  KOORD_RETURN_IF_ERROR(http->start());
  factory.start();
  ReservationLoop loop(controller, client, config.leader_election, logger);
  if (!loop.status().isOk()) {
    http->stop(kStopGrace);
    factory.shutdown();
    return loop.status();
  }
  logger.info("koord-extender serving",
              {{"address", config.server.address},
               {"urlPrefix", server::normalizeUrlPrefix(config.server.url_prefix)},
               {"https", http->tls()},
               {"plugins", static_cast<int64_t>(config.plugins.size())}});

  wait_for_stop();

  logger.info("koord-extender stopping");
  loop.stop();
  http->stop(kStopGrace);
  (void)events.shutdown(std::chrono::seconds(2));
  factory.shutdown();
  return Status::ok();
}

}  // namespace koord::extender::app
