// The extender's HTTP handlers: decode the verb's wire request, call the ExtenderService, encode
// its reply; plus the health, readiness and metrics routes.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "extender/server/extender_server.hpp"
#include "extender/server/wire/args_decoder.hpp"
#include "extender/server/wire/args_key.hpp"
#include "extender/server/wire/reply_writer.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/extender/types.hpp"
#include "koord/metrics/exposer.hpp"

namespace koord::extender::server {
namespace {

namespace ext = api::extender;

enum class Verb { kFilter, kPrioritize, kBind, kPreempt };

std::string_view verbName(Verb verb) {
  switch (verb) {
    case Verb::kFilter:
      return "filter";
    case Verb::kPrioritize:
      return "prioritize";
    case Verb::kBind:
      return "bind";
    case Verb::kPreempt:
      return "preempt";
  }
  return "unknown";
}

// Never throws: strings that are not UTF-8 are written with U+FFFD in their place.
std::string dump(const api::Json& j) {
  return j.dump(-1, ' ', false, api::Json::error_handler_t::replace);
}

http::HttpResponse ok(const api::Json& j) {
  return http::HttpResponse::json(200, dump(j));
}

// The 400 reply: the verb's own result type where it has an Error field, {"Error": ...} otherwise.
http::HttpResponse badRequest(Verb verb, const std::string& message) {
  api::Json body;
  switch (verb) {
    case Verb::kFilter: {
      ext::ExtenderFilterResult result;
      result.error = message;
      body = ext::toJson(result);
      break;
    }
    case Verb::kBind: {
      ext::ExtenderBindingResult result;
      result.error = message;
      body = ext::toJson(result);
      break;
    }
    case Verb::kPrioritize:
    case Verb::kPreempt:
      body = api::Json::object({{"Error", message}});
      break;
  }
  return http::HttpResponse::json(400, dump(body));
}

// Parses and decodes a request body; kInvalidArgument reading
// "failed to decode '<type>': <cause>" where the cause names the byte offset or the field path.
template <typename Args>
Result<Args> decode(const std::string& body, std::string_view type_name) {
  const std::string prefix = "failed to decode '" + std::string(type_name) + "': ";
  if (body.empty()) {
    return Status::invalidArgument(prefix + "empty request body");
  }
  Result<api::Json> parsed = api::parseJson(body);
  if (!parsed.ok()) {
    return Status::invalidArgument(prefix + parsed.status().message());
  }
  if (!parsed->is_object()) {
    return Status::invalidArgument(prefix + "expected a JSON object, got " +
                                   std::string(api::jsonTypeName(*parsed)));
  }
  Args args;
  const Status status = ext::fromJson(*parsed, args, "");
  if (!status.isOk()) {
    return Status::invalidArgument(prefix + status.message());
  }
  return args;
}

// Verb calls by where their pod came from. filter: "informer" (the informer's pod of the same
// version, the body's pod not decoded) or "decoded". prioritize: "filter" (the view filter kept
// for it) or "decoded" (the body decoded in full).
struct VerbSources {
  metrics::Counter from_filter;
  metrics::Counter decoded;
  metrics::Counter filter_from_informer;
  metrics::Counter filter_decoded;
};

http::HttpResponse serve(Verb verb, ExtenderService& service, const std::string& body,
                         const VerbSources& sources) {
  switch (verb) {
    case Verb::kFilter: {
      // A pod the informer has already decoded, in the same version, is not decoded again.
      if (auto key = wire::scanExtenderArgsKey(body)) {
        if (auto known = service.filterKnownPod(*key)) {
          sources.filter_from_informer.inc();
          return http::HttpResponse::json(200, wire::writeJson(*known));
        }
      }
      Result<ext::ExtenderArgs> args = wire::decodeExtenderArgs(body);
      if (!args.ok()) {
        return badRequest(verb, args.status().message());
      }
      sources.filter_decoded.inc();
      return http::HttpResponse::json(200, wire::writeJson(service.filter(*args)));
    }
    case Verb::kPrioritize: {
      // The pod filter just decoded is not decoded again: its UID and resourceVersion name it.
      if (auto key = wire::scanExtenderArgsKey(body)) {
        if (auto known = service.prioritizeKnownPod(*key)) {
          sources.from_filter.inc();
          return http::HttpResponse::json(200, wire::writeJson(*known));
        }
      }
      Result<ext::ExtenderArgs> args = wire::decodeExtenderArgs(body);
      if (!args.ok()) {
        return badRequest(verb, args.status().message());
      }
      sources.decoded.inc();
      return http::HttpResponse::json(200, wire::writeJson(service.prioritize(*args)));
    }
    case Verb::kBind: {
      Result<ext::ExtenderBindingArgs> args =
          decode<ext::ExtenderBindingArgs>(body, "ExtenderBindingArgs");
      if (!args.ok()) {
        return badRequest(verb, args.status().message());
      }
      return ok(ext::toJson(service.bind(*args)));
    }
    case Verb::kPreempt: {
      Result<ext::ExtenderPreemptionArgs> args =
          decode<ext::ExtenderPreemptionArgs>(body, "ExtenderPreemptionArgs");
      if (!args.ok()) {
        return badRequest(verb, args.status().message());
      }
      return ok(ext::toJson(service.preempt(*args)));
    }
  }
  return badRequest(verb, "unknown verb");
}

http::HttpHandler verbHandler(Verb verb, ExtenderService& service,
                              metrics::HistogramFamily durations, VerbSources sources,
                              const log::Logger& logger) {
  return [verb, &service, durations, sources, logger](const http::HttpRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    http::HttpResponse response = serve(verb, service, request.body, sources);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (response.status != 200) {
      logger.debug("rejected an extender request", {{"verb", std::string(verbName(verb))},
                                                    {"status", response.status},
                                                    {"remote", request.remote_address}});
    }
    Result<metrics::Histogram> series =
        durations.withLabels({verbName(verb), std::to_string(response.status)});
    if (series.ok()) {
      series->observe(elapsed.count());
    }
    return response;
  };
}

}  // namespace

std::string normalizeUrlPrefix(const std::string& url_prefix) {
  std::string prefix = url_prefix;
  while (!prefix.empty() && prefix.back() == '/') {
    prefix.pop_back();
  }
  if (!prefix.empty() && prefix.front() != '/') {
    prefix.insert(prefix.begin(), '/');
  }
  return prefix;
}

Status registerExtenderRoutes(http::HttpServer& server, ExtenderService& service,
                              const std::string& url_prefix, metrics::MetricsRegistry& metrics,
                              const log::Logger& logger) {
  KOORD_ASSIGN_OR_RETURN(
      metrics::HistogramFamily durations,
      metrics.histogramFamily("koord_extender_http_request_duration_seconds",
                              "Time to answer one scheduler-extender request, by verb and HTTP "
                              "status code.",
                              {"verb", "code"}, metrics::exponentialBuckets(0.00025, 2, 16)));
  KOORD_ASSIGN_OR_RETURN(
      metrics::CounterFamily prioritize_pods,
      metrics.counterFamily("koord_extender_prioritize_pods_total",
                            "prioritize requests by where the pod they scored came from: "
                            "\"filter\" (the view filter kept for it, the pod not decoded again) "
                            "or \"decoded\" (the request decoded in full).",
                            {"source"}));
  KOORD_ASSIGN_OR_RETURN(metrics::Counter from_filter, prioritize_pods.withLabels({"filter"}));
  KOORD_ASSIGN_OR_RETURN(metrics::Counter decoded, prioritize_pods.withLabels({"decoded"}));
  KOORD_ASSIGN_OR_RETURN(
      metrics::CounterFamily filter_pods,
      metrics.counterFamily("koord_extender_filter_pods_total",
                            "filter requests by where the pod they filtered came from: "
                            "\"informer\" (koord-extender's Pod informer held the same version, "
                            "so the request's pod was not decoded) or \"decoded\" (the request "
                            "decoded in full).",
                            {"source"}));
  KOORD_ASSIGN_OR_RETURN(metrics::Counter filter_from_informer,
                         filter_pods.withLabels({"informer"}));
  KOORD_ASSIGN_OR_RETURN(metrics::Counter filter_decoded, filter_pods.withLabels({"decoded"}));
  const VerbSources sources{from_filter, decoded, filter_from_informer, filter_decoded};
  const std::string prefix = normalizeUrlPrefix(url_prefix);
  for (char c : prefix) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '?' || c == '#' || c == '%') {
      return Status::invalidArgument("url prefix '" + url_prefix +
                                     "' is not a URL path (no spaces, controls, '?', '#' or '%')");
    }
  }
  for (Verb verb : {Verb::kFilter, Verb::kPrioritize, Verb::kBind, Verb::kPreempt}) {
    const std::string path = prefix + "/" + std::string(verbName(verb));
    // A bind waits for kube-apiserver (and a gang's bind for its gang) and kube-scheduler sends
    // them concurrently, one per pod in its binding cycle: they run in slots of their own, so that
    // a burst of them never keeps the next pod's filter, on kube-scheduler's critical path,
    // waiting.
    const http::HandlerKind kind =
        verb == Verb::kBind ? http::HandlerKind::kWaits : http::HandlerKind::kCompute;
    KOORD_RETURN_IF_ERROR(
        server.route("POST", path, verbHandler(verb, service, durations, sources, logger), kind));
  }
  KOORD_RETURN_IF_ERROR(server.route("GET", "/healthz", [](const http::HttpRequest&) {
    return http::HttpResponse::text(200, "ok\n");
  }));
  KOORD_RETURN_IF_ERROR(server.route("GET", "/readyz", [&service](const http::HttpRequest&) {
    return service.ready()
               ? http::HttpResponse::text(200, "ok\n")
               : http::HttpResponse::text(
                     503, "not ready: caches not synced, or stale (lists and watches failing)\n");
  }));
  return metrics::registerMetricsRoute(server, metrics, "/metrics");
}

}  // namespace koord::extender::server
