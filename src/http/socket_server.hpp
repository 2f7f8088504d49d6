// The HttpServer back end and its option checks (private to koord_http).
//
// HttpServer::create validates the options and creates the socket server, which serves plain HTTP
// and HTTPS alike. Tests create it directly too.
#pragma once

#include <memory>

#include "koord/http/server.hpp"

namespace koord::http::detail {

// Checks every option (kInvalidArgument "failed to create HTTP server: <field>: <cause>"); does no
// I/O.
[[nodiscard]] Status validateOptions(const HttpServerOptions& options);

// HTTP, or HTTPS when the TLS files are set, over POSIX sockets and OpenSSL (socket_server.cpp):
// one thread per connection, handlers run on the connection's thread. Validates the options like
// HttpServer::create. Does no I/O (the TLS files are read by start()).
[[nodiscard]] Result<std::unique_ptr<HttpServer>> createSocketServer(
    const HttpServerOptions& options);

}  // namespace koord::http::detail
