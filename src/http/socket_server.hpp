// The two HttpServer back ends and the option checks they share (private to koord_http).
//
// HttpServer::create validates the options, then picks the socket server for plain HTTP and the
// cpprestsdk server for HTTPS. Tests create either back end directly to check both.
#pragma once

#include <memory>

#include "koord/http/server.hpp"

namespace koord::http::detail {

// Checks every option (kInvalidArgument "failed to create HTTP server: <field>: <cause>"); does no
// I/O. Shared by both back ends and HttpServer::create.
[[nodiscard]] Status validateOptions(const HttpServerOptions& options);

// Plain HTTP over POSIX sockets (socket_server.cpp): one thread per connection, handlers run on
// the connection's thread. Validates the options like HttpServer::create. Fails with
// kInvalidArgument when TLS files are set (this back end has no TLS). Does no I/O.
[[nodiscard]] Result<std::unique_ptr<HttpServer>> createSocketServer(
    const HttpServerOptions& options);

// HTTP or HTTPS over cpprestsdk's http_listener (cpprest_server.cpp). Validates the options like
// HttpServer::create. Does no I/O.
[[nodiscard]] Result<std::unique_ptr<HttpServer>> createCpprestServer(
    const HttpServerOptions& options);

}  // namespace koord::http::detail
