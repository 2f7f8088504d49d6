// floor_extender: the least an extender that binds can do, for the throughput benchmark only (not a
// product binary, and never a stand-in for koord-extender in any test of its behaviour).
//
// It answers kube-scheduler's extender protocol over the same HTTP server and REST client as
// koord-extender, and does nothing else: filter copies the request's NodeNames array into the
// reply byte for byte (every candidate fits), prioritize answers [] (no score), bind POSTs the
// Binding and reports the result. No informer, no cache, no plugin, no JSON tree for the large
// bodies. Run by `run.sh --floor-extender` in koord-extender's place, it measures what
// kube-scheduler with ANY binding extender can reach on the machine: the part of the gap no
// extender can close (docs/extender-throughput-log.md, "The floor: an extender that does nothing").
//
//   floor_extender --config FILE [--log-level LEVEL]
// FILE is the KoordExtenderConfiguration run.sh writes; only clientConnection.{kubeconfig,qps,
// burst} and server.address are read. The routes are under /scheduler, as the chart's.
#include <pthread.h>
#include <signal.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "koord/http/server.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/rest_client.hpp"

namespace {

using koord::http::HttpRequest;
using koord::http::HttpResponse;

// The bytes of the JSON array after `"NodeNames":` in `body`, brackets included, or "null" when
// the key is missing. Node names are DNS labels, so the first ']' after '[' closes the array.
std::string_view nodeNamesArray(std::string_view body) {
  constexpr std::string_view kKey = "\"NodeNames\":";
  const std::size_t key = body.find(kKey);
  if (key == std::string_view::npos) {
    return "null";
  }
  const std::size_t open = body.find('[', key + kKey.size());
  const std::size_t close = open == std::string_view::npos ? open : body.find(']', open);
  if (close == std::string_view::npos) {
    return "null";
  }
  return body.substr(open, close - open + 1);
}

HttpResponse filter(const HttpRequest& request) {
  std::string reply = R"({"NodeNames":)";
  reply += nodeNamesArray(request.body);
  reply += R"(,"FailedNodes":{},"FailedAndUnresolvableNodes":{},"Error":""})";
  return HttpResponse::json(200, std::move(reply));
}

HttpResponse bind(const HttpRequest& request, koord::k8s::RestApiClient& client) {
  const nlohmann::json args = nlohmann::json::parse(request.body, nullptr, false);
  if (!args.is_object()) {
    return HttpResponse::json(400, R"({"Error":"malformed ExtenderBindingArgs"})");
  }
  const koord::Status bound = client.bind(args.value("PodNamespace", ""), args.value("PodName", ""),
                                          args.value("PodUID", ""), args.value("Node", ""));
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
  YAML::Node config;
  try {
    config = YAML::LoadFile(config_file);
  } catch (const YAML::Exception& e) {
    return fail(config_file + ": " + e.what());
  }
  const YAML::Node connection = config["clientConnection"];
  const std::string address = config["server"]["address"].as<std::string>("127.0.0.1:10262");
  const std::size_t colon = address.rfind(':');
  if (!connection["kubeconfig"] || colon == std::string::npos) {
    return fail(config_file + ": needs clientConnection.kubeconfig and server.address HOST:PORT");
  }
  auto client_config = koord::k8s::loadKubeconfig(connection["kubeconfig"].as<std::string>());
  if (!client_config.ok()) {
    return fail(client_config.status().message());
  }
  client_config->qps = connection["qps"].as<double>(client_config->qps);
  client_config->burst = connection["burst"].as<int>(client_config->burst);
  auto rest = koord::k8s::RestClient::create(*client_config);
  if (!rest.ok()) {
    return fail(rest.status().message());
  }
  koord::k8s::RestApiClient client(std::shared_ptr<koord::k8s::RestClient>(std::move(*rest)));

  // The same slots as koord-extender's defaults (extender/server/extender_server.hpp).
  koord::http::HttpServerOptions options;
  options.address = address.substr(0, colon);
  options.port = static_cast<uint16_t>(std::strtoul(address.c_str() + colon + 1, nullptr, 10));
  options.max_body_bytes = std::size_t{32} << 20;
  options.handler_threads = 16;
  options.waiting_handler_threads = 256;
  auto server = koord::http::HttpServer::create(options);
  if (!server.ok()) {
    return fail(server.status().message());
  }
  const auto ok = [](const HttpRequest&) { return HttpResponse::text(200, "ok"); };
  const koord::Status routed[] = {
      (*server)->route("GET", "/healthz", ok),
      (*server)->route("GET", "/readyz", ok),
      (*server)->route("POST", "/scheduler/filter", filter),
      (*server)->route("POST", "/scheduler/prioritize",
                       [](const HttpRequest&) { return HttpResponse::json(200, "[]"); }),
      (*server)->route(
          "POST", "/scheduler/bind",
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
