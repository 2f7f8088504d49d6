// Serving a MetricsRegistry on GET /metrics in the Prometheus text format.
//
// The endpoint runs on koord's own HttpServer (not prometheus-cpp's civetweb Exposer), so /metrics
// gets the same port-0 handling, limits, timeouts and graceful stop as every other endpoint, and a
// program can serve it next to /healthz on one port (registerMetricsRoute) or on a port of its own
// (MetricsExposer).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/http/server.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::metrics {

// Routes GET `path` on `server` to registry.serialize(). `registry` must outlive the server.
[[nodiscard]] Status registerMetricsRoute(http::HttpServer& server, const MetricsRegistry& registry,
                                          std::string_view path = "/metrics");

// A dedicated HTTP server answering GET /metrics.
class MetricsExposer {
 public:
  // Creates, routes and starts the server (options.port 0 picks a free port, see port()).
  // `registry` must outlive the exposer.
  [[nodiscard]] static Result<std::unique_ptr<MetricsExposer>> start(
      const MetricsRegistry& registry, const http::HttpServerOptions& options);

  [[nodiscard]] uint16_t port() const { return server_->port(); }
  // Graceful stop (see HttpServer::stop); the destructor stops too.
  void stop(std::chrono::milliseconds grace) { server_->stop(grace); }

 private:
  explicit MetricsExposer(std::unique_ptr<http::HttpServer> server) : server_(std::move(server)) {}
  std::unique_ptr<http::HttpServer> server_;
};

}  // namespace koord::metrics
