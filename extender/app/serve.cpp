#include "extender/app/serve.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "extender/app/k8s_binder.hpp"
#include "extender/framework/cluster_state.hpp"
#include "extender/framework/framework_service.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/server/extender_server.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/clock.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/rest_client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/k8s/transforms.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::extender::app {
namespace {

constexpr std::chrono::seconds kStopGrace(10);

std::string podKey(const api::core::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

// Feeds ClusterState from the node and pod informers. Handlers run on the informers' threads.
Status connectInformers(k8s::SharedInformerFactory& factory, framework::ClusterState& state,
                        const log::Logger& logger, std::function<bool()>& synced) {
  KOORD_ASSIGN_OR_RETURN(auto nodes, factory.informerFor<api::core::Node>(k8s::kNodes));
  KOORD_ASSIGN_OR_RETURN(
      auto pods, factory.informerFor<api::core::Pod>(k8s::kPods, {}, &k8s::decodePodForCache));
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
  synced = [nodes, pods] { return nodes->hasSynced() && pods->hasSynced(); };
  return Status::ok();
}

server::ServerOptions serverOptions(const config::KoordExtenderConfiguration& config,
                                    const log::Logger& logger) {
  server::ServerOptions options;
  options.address = config.server.host();
  options.port = config.server.port();
  options.url_prefix = config.server.url_prefix;
  options.max_request_bytes = static_cast<std::size_t>(config.server.max_request_bytes);
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
  k8s::RestApiClient client(std::shared_ptr<k8s::RestClient>(std::move(*rest)));

  RealClock clock;
  framework::ClusterState state(clock);
  k8s::SharedInformerFactoryOptions factory_options;
  factory_options.logger = logger;
  k8s::SharedInformerFactory factory(client, std::move(factory_options));
  std::function<bool()> synced;
  KOORD_RETURN_IF_ERROR(connectInformers(factory, state, logger, synced));

  framework::BasicHandle handle(state, clock, logger);
  framework::RuntimeOptions runtime_options;
  runtime_options.parallelism = config.parallelism;
  for (const config::PluginConfiguration& plugin : config.plugins) {
    runtime_options.plugins.push_back({plugin.name, plugin.args, plugin.weight});
  }
  const framework::Registry registry = plugins::builtinPlugins();
  Result<std::unique_ptr<framework::Runtime>> runtime =
      framework::Runtime::create(registry, handle, std::move(runtime_options), &metrics);
  if (!runtime.ok()) {
    return runtime.status().withPrefix("failed to set up the plugins");
  }

  K8sBinder binder(client);
  framework::FrameworkService service(**runtime, state, binder, synced);
  KOORD_ASSIGN_OR_RETURN(
      std::unique_ptr<server::ExtenderServer> http,
      server::ExtenderServer::create(service, metrics, serverOptions(config, logger)));
  KOORD_RETURN_IF_ERROR(http->start());
  factory.start();
  logger.info("koord-extender serving",
              {{"address", config.server.address},
               {"urlPrefix", server::normalizeUrlPrefix(config.server.url_prefix)},
               {"https", http->tls()},
               {"plugins", static_cast<int64_t>(config.plugins.size())}});

  wait_for_stop();

  logger.info("koord-extender stopping");
  http->stop(kStopGrace);
  factory.shutdown();
  return Status::ok();
}

}  // namespace koord::extender::app
