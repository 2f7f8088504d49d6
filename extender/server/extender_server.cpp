#include "extender/server/extender_server.hpp"

#include <utility>

namespace koord::extender::server {

Result<std::unique_ptr<ExtenderServer>> ExtenderServer::create(ExtenderService& service,
                                                               metrics::MetricsRegistry& metrics,
                                                               const ServerOptions& options) {
  http::HttpServerOptions http_options;
  http_options.address = options.address;
  http_options.port = options.port;
  http_options.max_body_bytes = options.max_request_bytes;
  http_options.max_buffered_bytes = options.max_buffered_bytes;
  http_options.request_timeout = options.request_timeout;
  http_options.handler_threads = options.handler_threads;
  http_options.waiting_handler_threads = options.bind_handler_threads;
  http_options.tls_cert_file = options.tls_cert_file;
  http_options.tls_key_file = options.tls_key_file;
  http_options.logger = options.logger;
  Result<std::unique_ptr<http::HttpServer>> http = http::HttpServer::create(http_options);
  if (!http.ok()) {
    return http.status().withPrefix("failed to create extender server");
  }
  KOORD_RETURN_IF_ERROR(
      registerExtenderRoutes(**http, service, options.url_prefix, metrics, options.logger)
          .withPrefix("failed to create extender server"));
  const bool tls = !options.tls_cert_file.empty();
  return std::unique_ptr<ExtenderServer>(new ExtenderServer(std::move(*http), tls));
}

}  // namespace koord::extender::server
