// koord-extender's HTTP front: the scheduler-extender verbs, health checks and /metrics on one
// koord::http::HttpServer.
//
// Routes (all exact paths; the prefix is ServerOptions::url_prefix, "/scheduler" by default):
//   POST <prefix>/filter      ExtenderArgs           -> ExtenderFilterResult
//   POST <prefix>/prioritize  ExtenderArgs           -> HostPriorityList
//   POST <prefix>/bind        ExtenderBindingArgs    -> ExtenderBindingResult
//   POST <prefix>/preempt     ExtenderPreemptionArgs -> ExtenderPreemptionResult
//   GET  /healthz             200 "ok" while the process serves
//   GET  /readyz              200 "ok" while ExtenderService::ready(), 503 "not ready" otherwise
//   GET  /metrics             the Prometheus text format of the MetricsRegistry
// Replies use the wire shape of k8s.io/kube-scheduler/extender/v1 (PascalCase keys, unset fields
// as null). A body that is not JSON or does not decode as the verb's request type is answered 400
// with {"Error": "<what and where>"} (for filter, a whole ExtenderFilterResult with Error set); an
// unknown path is 404, a wrong method 405 (with Allow), a body over max_request_bytes 413.
//
// Metrics: koord_extender_http_request_duration_seconds{verb, code} (a histogram, so its _count is
// the request count per verb and status code).
//
// Thread safety: the service is called from the server's handler threads concurrently and must
// be thread-safe (ExtenderService's contract). All methods of ExtenderServer are thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "extender/server/extender_service.hpp"
#include "koord/common/result.hpp"
#include "koord/http/server.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::extender::server {

inline constexpr std::size_t kDefaultMaxRequestBytes = std::size_t{1} << 20;
inline constexpr std::size_t kDefaultMaxBufferedBytes = std::size_t{4} << 20;
inline constexpr char kDefaultUrlPrefix[] = "/scheduler";

struct ServerOptions {
  // Host name or IPv4 address to listen on.
  std::string address = "127.0.0.1";
  // 0 picks a free port (see ExtenderServer::port()).
  uint16_t port = 10262;
  // Path prefix of the four verbs: "/scheduler" serves "/scheduler/filter". "" or "/" serves
  // "/filter". A trailing '/' is ignored, as kube-scheduler trims it from its urlPrefix.
  std::string url_prefix = kDefaultUrlPrefix;
  std::size_t max_request_bytes = kDefaultMaxRequestBytes;
  // Plain HTTP: request bodies held at once, all connections together (>= max_request_bytes).
  std::size_t max_buffered_bytes = kDefaultMaxBufferedBytes;
  // PEM files; both set serves HTTPS, both empty plain HTTP, one alone is an error.
  std::string tls_cert_file;
  std::string tls_key_file;
  // How long one request may take before it is answered 503. kube-scheduler gives up after its
  // httpTimeout (5 s by default); bind may wait for a gang, so this is longer.
  std::chrono::milliseconds request_timeout = std::chrono::seconds(30);
  // How many filter, prioritize and preempt requests (and health and metrics requests) are handled
  // at once; kube-scheduler sends one scheduling cycle's requests at a time.
  std::size_t handler_threads = 16;
  // How many binds are handled at once, apart from the above: each waits for kube-apiserver, and
  // kube-scheduler has one in flight per pod in its binding cycle.
  std::size_t bind_handler_threads = 256;
  log::Logger logger;
};

// Normalises a urlPrefix: "" and "/" give "", "scheduler/" gives "/scheduler".
[[nodiscard]] std::string normalizeUrlPrefix(const std::string& url_prefix);

// Routes the four verbs under `url_prefix` plus /healthz, /readyz and /metrics on `server`.
// `service` and `metrics` must outlive the server. kInvalidArgument for a prefix that is not a
// valid path, kAlreadyExists when a route is taken.
[[nodiscard]] Status registerExtenderRoutes(http::HttpServer& server, ExtenderService& service,
                                            const std::string& url_prefix,
                                            metrics::MetricsRegistry& metrics,
                                            const log::Logger& logger);

class ExtenderServer {
 public:
  // Validates the options and routes everything; does no I/O. `service` and `metrics` must
  // outlive the server. kInvalidArgument naming the option for a bad one.
  [[nodiscard]] static Result<std::unique_ptr<ExtenderServer>> create(
      ExtenderService& service, metrics::MetricsRegistry& metrics, const ServerOptions& options);

  // Binds and serves (kUnavailable naming the address when it cannot listen; kInvalidArgument
  // when the TLS files cannot be loaded).
  [[nodiscard]] Status start() { return http_->start(); }
  // The port being served after start() (the real one when options.port was 0).
  [[nodiscard]] uint16_t port() const { return http_->port(); }
  // Whether the server speaks HTTPS.
  [[nodiscard]] bool tls() const { return tls_; }
  // Graceful stop: requests in flight get up to `grace` to be answered. Idempotent.
  void stop(std::chrono::milliseconds grace) { http_->stop(grace); }

 private:
  ExtenderServer(std::unique_ptr<http::HttpServer> http, bool tls)
      : http_(std::move(http)), tls_(tls) {}

  std::unique_ptr<http::HttpServer> http_;
  bool tls_ = false;
};

}  // namespace koord::extender::server
