// HttpServer::create and its option checks: plain HTTP and HTTPS both go to the socket server
// (socket_server.cpp).
#include "koord/http/server.hpp"

#include <cctype>
#include <string>

#include "socket_server.hpp"

namespace koord::http {
namespace {

Status optionError(std::string_view field, std::string_view cause) {
  return Status::invalidArgument("failed to create HTTP server: " + std::string(field) + ": " +
                                 std::string(cause));
}

}  // namespace

namespace detail {

Status validateOptions(const HttpServerOptions& options) {
  if (options.address.empty()) {
    return optionError("address", "must not be empty");
  }
  if (options.address.find(':') != std::string::npos) {
    return optionError("address", "IPv6 addresses are not supported");
  }
  for (char c : options.address) {
    const bool allowed = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
    if (!allowed) {
      return optionError("address", "'" + options.address + "' is not a host name or IPv4 address");
    }
  }
  if (options.max_body_bytes == 0) {
    return optionError("max_body_bytes", "must be positive");
  }
  if (options.max_buffered_bytes < options.max_body_bytes) {
    return optionError("max_buffered_bytes", "must be at least max_body_bytes");
  }
  if (options.max_connections < 2 || options.max_connections > 65536) {
    return optionError("max_connections", "must be between 2 and 65536");
  }
  if (options.request_timeout.count() <= 0) {
    return optionError("request_timeout", "must be positive");
  }
  if (options.tls_handshake_timeout.count() <= 0) {
    return optionError("tls_handshake_timeout", "must be positive");
  }
  if (options.handler_threads == 0 || options.handler_threads > 1024) {
    return optionError("handler_threads", "must be between 1 and 1024");
  }
  if (options.waiting_handler_threads == 0 || options.waiting_handler_threads > 1024) {
    return optionError("waiting_handler_threads", "must be between 1 and 1024");
  }
  if (options.tls_cert_file.empty() != options.tls_key_file.empty()) {
    return optionError(
        options.tls_cert_file.empty() ? "tls_cert_file" : "tls_key_file",
        "must be set together with " +
            std::string(options.tls_cert_file.empty() ? "tls_key_file" : "tls_cert_file"));
  }
  return Status::ok();
}

}  // namespace detail

Result<std::unique_ptr<HttpServer>> HttpServer::create(const HttpServerOptions& options) {
  return detail::createSocketServer(options);
}

}  // namespace koord::http
