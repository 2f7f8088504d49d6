// HttpServer: a small HTTP/1.1 server for the extender, webhooks, health checks and /metrics.
//
// Routing is by method and exact path. The server answers by itself:
//   404 no route has the path;            405 the path exists for other methods (with Allow);
//   501 the method is not a standard one (methods are case-sensitive: "get" is not GET);
//   413 the body exceeds max_body_bytes, or a GET or HEAD request has one;
//   500 the handler threw (the server keeps serving);
//   503 the handler did not answer within request_timeout (its late result is discarded), or the
//       server is stopping, or the bodies held by all connections would exceed max_buffered_bytes;
//   400 for requests the HTTP parser rejects; 431 for a request head over 64 KiB.
// Plain HTTP and HTTPS are served by the same code (HTTPS adds TLS under each connection), so every
// limit below holds for both.
// HEAD is answered by the path's GET handler with the head of its answer only.
// 413 and the timeout/stopping 503s carry "Connection: close". A body over the cap is never kept:
// the 413 goes out once the client has sent it (read and dropped, up to 16 MiB past the cap), and a
// larger one is cut off (a body the client holds back until "100 Continue" is refused at once).
// Other answers are written only after the request body has arrived.
//
// Threading: each handler runs on its connection's thread (no hand-off, for latency;
// src/http/socket_server.cpp); at most options.handler_threads handlers of kCompute routes run at
// once, and at most options.waiting_handler_threads of kWaits routes besides them (HandlerKind),
// and they may run concurrently with each other. A handler must be thread-safe and should return
// promptly (a handler that never returns holds its thread and blocks the server's destruction). All
// methods of HttpServer are thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"

namespace koord::http {

// Orders header names case-insensitively (ASCII), so HttpHeaders finds "content-type" as
// "Content-Type".
struct HeaderNameLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};
using HttpHeaders = std::map<std::string, std::string, HeaderNameLess>;

struct HttpRequest {
  std::string method;   // "GET", "POST", ... as sent (methods are case-sensitive)
  std::string path;     // percent-decoded, e.g. "/filter"
  std::string query;    // raw, without '?', e.g. "a=1&b=x%20y"; "" when absent
  HttpHeaders headers;  // repeated headers are joined with ", "
  std::string body;
  std::string remote_address;

  // The header's value, or "" when absent.
  [[nodiscard]] std::string header(std::string_view name) const;
  // The percent-decoded value of the first query parameter `name` ('+' reads as a space), nullopt
  // when absent; "a" in "?a&b=1" is present and empty.
  [[nodiscard]] std::optional<std::string> queryParam(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  HttpHeaders headers;  // Content-Type defaults to "text/plain; charset=utf-8"
  std::string body;

  static HttpResponse text(int status, std::string body);
  static HttpResponse json(int status, std::string body);  // application/json
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// How a route's handler spends its time, which decides the slots it runs in. Handlers that mostly
// wait on another server have slots of their own, so that a burst of them (koord-extender's binds,
// each waiting for kube-apiserver) never keeps a handler that works on the CPU (a filter on
// kube-scheduler's critical path) waiting for a slot.
enum class HandlerKind {
  kCompute,  // works on the CPU: at most options.handler_threads run at once
  kWaits,    // mostly waits on another server: at most options.waiting_handler_threads at once
};

struct HttpServerOptions {
  // An IPv4 address or host name to listen on ("0.0.0.0" for every interface).
  std::string address = "127.0.0.1";
  // 0 picks a free port; port() tells which.
  uint16_t port = 0;
  // The largest request body a route that takes one accepts (413 past it). GET and HEAD routes
  // take none: a GET or HEAD request with a body is answered 413 without reading it.
  std::size_t max_body_bytes = std::size_t{4} << 20;
  // The request bodies held at once, all connections together (>= max_body_bytes). A
  // request whose body would take the total past it is answered 503 "Connection: close" with
  // Retry-After, and its body is not kept.
  std::size_t max_buffered_bytes = std::size_t{16} << 20;
  // The connections open at once (2..65536). When a new one would go past it, the
  // connection that has waited longest for a request head (idle between requests, or sending its
  // head slowly) is closed to make room; only when every connection has a request in flight is
  // the new one answered 503 and closed. So a flood of idle connections cannot lock out a probe.
  // Over HTTPS a connection still in its TLS handshake counts as waiting for a request head.
  std::size_t max_connections = 512;
  // After answering a request whose body was at least this large, the memory the
  // process has freed is given back to the system (glibc's malloc_trim), so that a burst of large
  // requests does not leave the process holding what their decoding allocated. 0: never.
  std::size_t trim_after_body_bytes = std::size_t{256} << 10;
  // Counted from the moment the request headers arrive, so a slowly sent body counts too.
  std::chrono::milliseconds request_timeout = std::chrono::seconds(5);
  // At most this many handlers of kCompute routes run at once (1..1024).
  std::size_t handler_threads = 8;
  // The same for kWaits routes (1..1024), apart from the kCompute ones.
  std::size_t waiting_handler_threads = 64;
  // HTTPS when both are set: a PEM certificate chain and its PEM private key, read by start()
  // (kInvalidArgument naming the file when either cannot be loaded or they do not match) and
  // again by reloadTls(). Both empty: plain HTTP. One without the other is rejected by create().
  // TLS 1.2 and 1.3 through OpenSSL; no client certificates are asked for.
  std::string tls_cert_file;
  std::string tls_key_file;
  // HTTPS: how long a new connection has to complete its TLS handshake; one that has not is
  // closed without an answer (a client that speaks plain HTTP to the port fails at once).
  std::chrono::milliseconds tls_handshake_timeout = std::chrono::seconds(10);
  // Receives warnings (handler exceptions, timeouts); discards by default.
  log::Logger logger;
};

class HttpServer {
 public:
  virtual ~HttpServer() = default;

  // Validates the options (kInvalidArgument naming the field); does no I/O. Plain HTTP and HTTPS
  // are both served over POSIX sockets (src/http/socket_server.cpp), HTTPS with OpenSSL under
  // each connection (src/http/tls_transport.cpp).
  [[nodiscard]] static Result<std::unique_ptr<HttpServer>> create(const HttpServerOptions& options);

  // Routes `method` (e.g. "POST") and the exact `path` (starting with '/') to `handler`, which runs
  // in the slots of `kind`. Allowed before and after start(). kAlreadyExists for a route given
  // twice, kInvalidArgument for a bad method or path.
  [[nodiscard]] virtual Status route(std::string_view method, std::string_view path,
                                     HttpHandler handler,
                                     HandlerKind kind = HandlerKind::kCompute) = 0;

  // Binds and starts serving. With port 0 the system picks a free port (see port()). Fails with
  // kUnavailable naming the address when it cannot listen, kInvalidArgument when the TLS files
  // cannot be loaded, kFailedPrecondition when called twice.
  [[nodiscard]] virtual Status start() = 0;

  // HTTPS: reads tls_cert_file and tls_key_file again (a renewed certificate), with start()'s
  // checks and messages; connections accepted after it succeeds present the new certificate, those
  // open keep the old one. On failure nothing changes. Allowed before start() (which reads the
  // files itself) and after. kFailedPrecondition for a plain-HTTP server, kInvalidArgument
  // naming the file when the files cannot be loaded or do not match.
  [[nodiscard]] virtual Status reloadTls() = 0;

  // The port being listened on after a successful start() (the real one when options.port was
  // 0); 0 before.
  [[nodiscard]] virtual uint16_t port() const = 0;

  // Graceful stop: new requests get 503 "Connection: close" at once, requests in flight get up to
  // `grace` to finish and be answered, then every connection is closed. Idempotent; the destructor
  // calls stop(0s) and then waits for handlers still running.
  virtual void stop(std::chrono::milliseconds grace) = 0;
};

}  // namespace koord::http
