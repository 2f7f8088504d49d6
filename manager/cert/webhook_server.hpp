// WebhookServer: the HTTPS server kube-apiserver calls koord-manager's admission webhooks on
// (after Koordinator's webhook server: port 9876, the certificate from the cert dir).
//
// Routes are POST <path> -> handler(body) -> (status, JSON body), added with handle() by the
// webhooks before or after the server starts. The server starts on the first certificate
// (certificateWritten(), which CertController calls once tls.crt and tls.key are written) and,
// on each later call, reloads the files (HttpServer::reloadTls): connections made after a renewal
// get the new certificate, connections already open keep theirs. Until the first certificate the
// port is not listened on; readiness() says why.
//
// Limits: request bodies up to options.max_body_bytes (3 MiB, kube-apiserver's request size
// limit; 413 beyond), answered within options.request_timeout (503 beyond). GET /healthz answers
// 200 "ok" over HTTPS (the server listens only once it has a certificate).
//
// Thread safety: every method from any thread; handlers run concurrently on the server's threads
// and must be thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/http/server.hpp"
#include "koord/log/logger.hpp"

namespace koord::manager::cert {

inline constexpr uint16_t kDefaultWebhookPort = 9876;

struct WebhookReply {
  int status = 200;
  std::string body;  // sent as application/json
};

using WebhookHandler = std::function<WebhookReply(std::string_view body)>;

struct WebhookServerOptions {
  std::string address = "0.0.0.0";
  uint16_t port = kDefaultWebhookPort;  // 0: any free port (tests)
  // The files CertController writes (CertDir::certFile(), keyFile()).
  std::string cert_file;
  std::string key_file;
  std::size_t max_body_bytes = std::size_t{3} << 20;
  std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
  log::Logger logger;
};

class WebhookServer {
 public:
  // Checks the options (kInvalidArgument: no cert or key file, or what HttpServer::create
  // refuses). No I/O.
  [[nodiscard]] static Result<std::unique_ptr<WebhookServer>> create(WebhookServerOptions options);
  ~WebhookServer();
  WebhookServer(const WebhookServer&) = delete;
  WebhookServer& operator=(const WebhookServer&) = delete;

  // Routes POST `path` to `handler`; kAlreadyExists for a path given twice, kInvalidArgument for
  // a path that does not start with '/'.
  [[nodiscard]] Status handle(std::string_view path, WebhookHandler handler);

  // The certificate files are new: start serving (first call) or reload them. A failure (the
  // port is taken, the files do not load) is returned; the server keeps what it served and the
  // next call tries again.
  [[nodiscard]] Status certificateWritten();

  // ok once serving; kUnavailable "the webhook server is not serving yet: <why>" before.
  [[nodiscard]] Status readiness() const;
  // The port listened on; 0 before serving.
  [[nodiscard]] uint16_t port() const;

  // Graceful stop (HttpServer::stop); idempotent, also done by the destructor with no grace.
  void stop(std::chrono::milliseconds grace);

 private:
  WebhookServer(WebhookServerOptions options, std::unique_ptr<http::HttpServer> server)
      : options_(std::move(options)), server_(std::move(server)) {}

  const WebhookServerOptions options_;
  const std::unique_ptr<http::HttpServer> server_;
  mutable std::mutex mu_;
  bool serving_ = false;                                             // guarded by mu_
  bool stopped_ = false;                                             // guarded by mu_
  std::string not_serving_ = "no certificate has been written yet";  // guarded by mu_
};

}  // namespace koord::manager::cert
