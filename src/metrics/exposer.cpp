#include "koord/metrics/exposer.hpp"

namespace koord::metrics {

Status registerMetricsRoute(http::HttpServer& server, const MetricsRegistry& registry,
                            std::string_view path) {
  return server.route("GET", path, [&registry](const http::HttpRequest&) {
    http::HttpResponse response;
    response.headers.emplace("Content-Type", std::string(kPrometheusTextContentType));
    response.body = registry.serialize();
    return response;
  });
}

Result<std::unique_ptr<MetricsExposer>> MetricsExposer::start(
    const MetricsRegistry& registry, const http::HttpServerOptions& options) {
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<http::HttpServer> server,
                         http::HttpServer::create(options));
  KOORD_RETURN_IF_ERROR(registerMetricsRoute(*server, registry));
  KOORD_RETURN_IF_ERROR(server->start());
  return std::unique_ptr<MetricsExposer>(new MetricsExposer(std::move(server)));
}

}  // namespace koord::metrics
