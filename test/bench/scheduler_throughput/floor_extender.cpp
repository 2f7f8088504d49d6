// floor_extender: the least an extender that binds can do, for the throughput benchmark only (not a
// product binary, and never a stand-in for koord-extender in any test of its behaviour).
//
// It answers kube-scheduler's extender protocol over the same HTTP server and REST client as
// koord-extender, and does nothing else: filter copies the request's NodeNames array into the
// reply byte for byte (every candidate fits), prioritize answers [] (no score), bind POSTs the
// Binding and reports the result. No informer, no cache, no plugin, no JSON tree for the large
// bodies. Run by `run.sh --floor-extender` beside koord-extender, it measures what kube-scheduler
// reaches on the machine with an extender on koord's stack that does no work of its own, so that
// the gap between the two is koord-extender's own work (docs/extender-throughput-log.md, "The
// floor: an extender that only binds"). Unlike koord-extender's bind it has no bindTimeout: a bind
// waits for a free connection for as long as the client allows.
//
//   floor_extender --config FILE [--log-level LEVEL]
// FILE is a KoordExtenderConfiguration, loaded and checked as koord-extender loads it; only
// clientConnection, server.address, server.urlPrefix and server.maxRequestBytes are used.
// --log-level is accepted and ignored (the tool logs nothing).
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "extender/config/extender_config.hpp"
#include "extender/server/extender_server.hpp"
#include "koord/http/server.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/rest_client.hpp"

namespace {

using koord::http::HttpRequest;
using koord::http::HttpResponse;

// The bytes of the JSON array after the last `"NodeNames":` in `body`, brackets included, or ""
// when there is none. kube-scheduler writes NodeNames after the Pod (whose labels could hold such
// a key), and node names are DNS labels, so the first ']' after '[' closes the array.
std::string_view nodeNamesArray(std::string_view body) {
  constexpr std::string_view kKey = "\"NodeNames\":";
  const std::size_t key = body.rfind(kKey);
  if (key == std::string_view::npos) {
    return {};
  }
  const std::size_t open = body.find('[', key + kKey.size());
  const std::size_t close = open == std::string_view::npos ? open : body.find(']', open);
  if (close == std::string_view::npos) {
    return {};
  }
  return body.substr(open, close - open + 1);
}

// Every candidate fits. A body without a NodeNames array (not JSON, or a call without
// nodeCacheCapable) gets 400 with the reason, which kube-scheduler logs.
HttpResponse filter(const HttpRequest& request) {
  const std::string_view names = nodeNamesArray(request.body);
  if (names.empty()) {
    return HttpResponse::json(400,
                              "{\"Error\":\"no NodeNames array in the ExtenderArgs (floor_extender "
                              "needs nodeCacheCapable: true)\"}");
  }
  std::string reply = R"({"NodeNames":)";
  reply += names;
  reply += R"(,"FailedNodes":{},"FailedAndUnresolvableNodes":{},"Error":""})";
  return HttpResponse::json(200, std::move(reply));
}

// The string member `name` of `args`, or nullopt when it is absent or not a string.
std::optional<std::string> stringMember(const nlohmann::json& args, const char* name) {
  const auto it = args.find(name);
  if (it == args.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

HttpResponse bind(const HttpRequest& request, koord::k8s::RestApiClient& client) {
  const nlohmann::json args = nlohmann::json::parse(request.body, nullptr, false);
  if (!args.is_object()) {
    return HttpResponse::json(400,
                              R"({"Error":"malformed ExtenderBindingArgs: not a JSON object"})");
  }
  const std::optional<std::string> ns = stringMember(args, "PodNamespace");
  const std::optional<std::string> name = stringMember(args, "PodName");
  const std::optional<std::string> node = stringMember(args, "Node");
  if (!ns || !name || !node || name->empty() || node->empty()) {
    return HttpResponse::json(
        400,
        R"({"Error":"malformed ExtenderBindingArgs: PodNamespace, PodName and Node must be strings"})");
  }
  const koord::Status bound =
      client.bind(*ns, *name, stringMember(args, "PodUID").value_or(""), *node);
  nlohmann::json result = {{"Error", bound.isOk() ? "" : bound.message()}};
  return HttpResponse::json(200, result.dump());
}

int fail(const std::string& message) {
  std::fprintf(stderr, "floor_extender: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config_file;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string_view(argv[i]) == "--config") {
      config_file = argv[i + 1];
    }
  }
  if (config_file.empty()) {
    return fail("usage: floor_extender --config FILE [--log-level LEVEL]");
  }
  // Blocked before any thread starts, so that every thread inherits the mask and sigwait below
  // takes SIGTERM and SIGINT.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto config = koord::extender::config::loadExtenderConfiguration(config_file);
  if (!config.ok()) {
    return fail(config.status().message());
  }
  auto client_config = koord::k8s::loadConfig(config->client_connection.kubeconfig);
  if (!client_config.ok()) {
    return fail(client_config.status().message());
  }
  client_config->qps = config->client_connection.qps;
  client_config->burst = config->client_connection.burst;
  auto rest = koord::k8s::RestClient::create(*client_config);
  if (!rest.ok()) {
    return fail(rest.status().message());
  }
  koord::k8s::RestApiClient client(std::shared_ptr<koord::k8s::RestClient>(std::move(*rest)));

  // The same slots as koord-extender's defaults (extender/server/extender_server.hpp).
  koord::http::HttpServerOptions options;
  options.address = config->server.host();
  options.port = config->server.port();
  options.max_body_bytes = static_cast<std::size_t>(config->server.max_request_bytes);
  options.max_buffered_bytes = static_cast<std::size_t>(config->server.max_buffered_bytes);
  options.handler_threads = 16;
  options.waiting_handler_threads = 256;
  auto server = koord::http::HttpServer::create(options);
  if (!server.ok()) {
    return fail(server.status().message());
  }
  const std::string prefix = koord::extender::server::normalizeUrlPrefix(config->server.url_prefix);
  const auto ok = [](const HttpRequest&) { return HttpResponse::text(200, "ok"); };
  const koord::Status routed[] = {
      (*server)->route("GET", "/healthz", ok),
      (*server)->route("GET", "/readyz", ok),
      (*server)->route("POST", prefix + "/filter", filter),
      (*server)->route("POST", prefix + "/prioritize",
                       [](const HttpRequest&) { return HttpResponse::json(200, "[]"); }),
      (*server)->route(
          "POST", prefix + "/bind",
          [&client](const HttpRequest& request) { return bind(request, client); },
          koord::http::HandlerKind::kWaits),
  };
  for (const koord::Status& status : routed) {
    if (!status.isOk()) {
      return fail(status.message());
    }
  }
  if (koord::Status started = (*server)->start(); !started.isOk()) {
    return fail(started.message());
  }
  int received = 0;
  sigwait(&signals, &received);
  (*server)->stop(std::chrono::seconds(1));
  return 0;
}
