#include "manager/cert/webhook_server.hpp"

#include <utility>

namespace koord::manager::cert {

Result<std::unique_ptr<WebhookServer>> WebhookServer::create(WebhookServerOptions options) {
  if (options.cert_file.empty() || options.key_file.empty()) {
    return Status::invalidArgument(
        "failed to create the webhook server: cert_file and key_file must be set");
  }
  http::HttpServerOptions server_options;
  server_options.address = options.address;
  server_options.port = options.port;
  server_options.max_body_bytes = options.max_body_bytes;
  // Room for several bodies of the largest size at once (kube-apiserver calls in parallel).
  server_options.max_buffered_bytes = options.max_body_bytes * 8;
  server_options.request_timeout = options.request_timeout;
  server_options.tls_cert_file = options.cert_file;
  server_options.tls_key_file = options.key_file;
  server_options.logger = options.logger;
  Result<std::unique_ptr<http::HttpServer>> server = http::HttpServer::create(server_options);
  if (!server.ok()) {
    return server.status().withPrefix("failed to create the webhook server");
  }
  KOORD_RETURN_IF_ERROR((*server)->route("GET", "/healthz", [](const http::HttpRequest&) {
    return http::HttpResponse::text(200, "ok\n");
  }));
  return std::unique_ptr<WebhookServer>(
      new WebhookServer(std::move(options), std::move(server).value()));
}

WebhookServer::~WebhookServer() {
  stop(std::chrono::milliseconds(0));
}

Status WebhookServer::handle(std::string_view path, WebhookHandler handler) {
  return server_->route("POST", path,
                        [handler = std::move(handler)](const http::HttpRequest& request) {
                          WebhookReply reply = handler(request.body);
                          return http::HttpResponse::json(reply.status, std::move(reply.body));
                        });
}

Status WebhookServer::certificateWritten() {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopped_) {
    return Status::failedPrecondition("the webhook server is stopped");
  }
  if (serving_) {
    const Status reloaded = server_->reloadTls();
    if (reloaded.isOk()) {
      options_.logger.info("webhook server reloaded its certificate",
                           {{"cert", options_.cert_file}});
    }
    return reloaded.withPrefix("failed to reload the webhook certificate");
  }
  const Status started = server_->start();
  if (!started.isOk()) {
    not_serving_ = started.message();
    return started.withPrefix("failed to start the webhook server");
  }
  serving_ = true;
  options_.logger.info("webhook server serving",
                       {{"address", options_.address}, {"port", server_->port()}});
  return Status::ok();
}

Status WebhookServer::readiness() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (serving_) {
    return Status::ok();
  }
  return Status::unavailable("the webhook server is not serving yet: " + not_serving_);
}

uint16_t WebhookServer::port() const {
  return server_->port();
}

void WebhookServer::stop(std::chrono::milliseconds grace) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
  }
  server_->stop(grace);
}

}  // namespace koord::manager::cert
