// Connection: serves one accepted connection, plain HTTP or HTTPS, request after request, on the
// thread that calls serve(); SocketServerCore: what the connections of one socket server share
// (private to koord_http).
//
// The bytes go through a Transport (transport.hpp): plain, or TLS when core.https(). serve()
// first opens it: for TLS the handshake, given options.tls_handshake_timeout; a connection that
// fails it or runs out of time is closed without a word. Until its first request head has arrived
// a connection counts as waiting for one (evictable), handshake included.
//
// Per request: read the head (over 64 KiB: 431; malformed: 400; both close the connection), then
// the body (Content-Length or chunked, "HTTP/1.1 100 Continue" first when the client expects it),
// then route it and run the handler on this thread, holding one of core.slots (core.waiting_slots
// for a kWaits route); write the answer and go on with the next request unless either side asked
// to close. Bytes that arrived after a request (pipelining) stay buffered for the next one.
//  - A body over max_body_bytes is read and dropped, then answered 413 "Connection: close"; once
//    16 MiB more arrived, or at once when Content-Length already says so or when the client waits
//    for 100 Continue, the 413 goes out and the connection is cut (closed without reading on).
//  - request_timeout runs from the head's arrival. While the body is read, this thread answers 503
//    "Connection: close" at the deadline; while the handler runs (or waits for a slot) the watchdog
//    does, and shuts the socket's sending side; the handler's late result is then dropped.
//  - A request counts in core.in_flight from its head's arrival until its answer is written or it
//    is abandoned (the client went away, or the server shut the socket down). While the server is
//    stopping, a new request is answered 503 "Connection: close" at once, any answer carries
//    "Connection: close", and a connection idle after a request closes.
//  - After an answer with "Connection: close" the sending side is shut down and what the client
//    still sends is read and dropped (up to 1 MiB or 2 s), so that it reads the answer rather than
//    a reset. A connection waits at most kIdleTimeout (90 s) for the next request's head.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "handler_slots.hpp"
#include "input_buffer.hpp"
#include "koord/http/server.hpp"
#include "request_parser.hpp"
#include "router.hpp"
#include "tls_context.hpp"
#include "transport.hpp"
#include "watchdog.hpp"

namespace koord::http::detail {

struct SocketServerCore {
  explicit SocketServerCore(HttpServerOptions opts)
      : options(std::move(opts)),
        slots(options.handler_threads),
        waiting_slots(options.waiting_handler_threads) {}

  // The slots a handler of `kind` runs in.
  HandlerSlots& slotsFor(HandlerKind kind) {
    return kind == HandlerKind::kWaits ? waiting_slots : slots;
  }

  // Whether the server speaks HTTPS (the TLS files are set).
  [[nodiscard]] bool https() const { return !options.tls_cert_file.empty(); }
  // The TLS context new connections are accepted with: nullptr before start() loaded it.
  [[nodiscard]] std::shared_ptr<const TlsContext> currentTls() {
    std::lock_guard<std::mutex> lock(tls_mu);
    return tls;
  }
  // Replaces the context for connections accepted from now on; those open keep theirs.
  void setTls(std::shared_ptr<const TlsContext> context) {
    std::lock_guard<std::mutex> lock(tls_mu);
    tls = std::move(context);
  }

  const HttpServerOptions options;
  std::mutex tls_mu;
  // HTTPS: loaded by start() before the first connection is accepted, replaced by reloadTls();
  // each connection's transport holds the one it was accepted with. Guarded by tls_mu.
  std::shared_ptr<const TlsContext> tls;
  Router router;
  HandlerSlots slots;          // at most options.handler_threads kCompute handlers run at once
  HandlerSlots waiting_slots;  // at most options.waiting_handler_threads kWaits handlers
  Watchdog watchdog;           // request deadlines while handlers run

  std::mutex mu;
  // Notified when in_flight drops to 0.
  std::condition_variable cv;
  std::size_t in_flight = 0;          // guarded by mu
  std::atomic<bool> stopping{false};  // set under mu when stop() begins
  // Bytes of request bodies held by all connections (BodyBudget), at most
  // options.max_buffered_bytes.
  std::atomic<std::size_t> buffered_bytes{0};
};

// The bytes of request body one request holds against the core's max_buffered_bytes; gives them
// back when released or destroyed. Used by one connection thread.
class BodyBudget {
 public:
  explicit BodyBudget(SocketServerCore& core) : core_(core) {}
  BodyBudget(const BodyBudget&) = delete;
  BodyBudget& operator=(const BodyBudget&) = delete;
  ~BodyBudget() { release(); }

  // Takes `bytes` more; false, taking nothing, when the total would pass max_buffered_bytes.
  [[nodiscard]] bool reserve(std::size_t bytes);
  // Gives back all this one holds. Idempotent.
  void release();

 private:
  SocketServerCore& core_;
  std::size_t held_ = 0;
};

class Connection {
 public:
  using Clock = std::chrono::steady_clock;

  // Takes ownership of the connected socket `fd`. With `refuse`, serve() answers nothing but 503
  // "too many connections" (with "Connection: close") and ends: how a TLS server refuses a
  // connection over its limit, since the answer needs the handshake first.
  Connection(int fd, std::string remote_address, SocketServerCore& core, bool refuse = false);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  // Closes the socket unless closeSocket() did.
  ~Connection();

  // Serves requests until the connection ends: the client closes it, an answer or a timeout
  // closes it, or the server shuts the socket down. Leaves the socket open for closeSocket().
  // Throws nothing.
  void serve();

  // The three below require core.mu to be held (the socket server's registry is guarded by it).
  // Shuts the socket down unless a request is in flight: serve() then returns soon.
  void shutdownIfIdle();
  // Shuts the socket down: every wait of serve() ends and every write fails.
  void shutdownNow();
  // Closes the socket; only after serve() returned.
  void closeSocket();
  // Whether the connection waits for a request head (none in flight: idle between requests, or
  // its head still arriving) and was not evicted; since when it waits.
  [[nodiscard]] bool evictable() const { return fd_ >= 0 && !busy_ && !evicted_ && !refuse_; }
  [[nodiscard]] Clock::time_point waitingSince() const { return waiting_since_; }
  // Shuts the socket down to make room for a new connection (serve() then ends soon) and marks the
  // connection evicted.
  void evict();
  [[nodiscard]] bool evicted() const { return evicted_; }
  [[nodiscard]] bool refusing() const { return refuse_; }

 private:
  enum class Next { kKeepAlive, kClose, kCut };
  enum class Fill { kData, kClosed, kTimedOut };
  enum class Body { kComplete, kTooLarge, kOverBudget, kCutOff, kTimedOut, kMalformed, kClosed };

  Next serveRequest();
  // Waits for bytes until `deadline` and appends what arrived to in_. kClosed sets peer_closed_
  // when the client ended the connection.
  Fill fill(Clock::time_point deadline);
  Body readBody(const RequestHead& head, std::string& body, Clock::time_point deadline,
                BodyBudget& budget, std::string& error);
  // Runs `handler` in one of `slots` (the core's slots for the route's HandlerKind).
  void runHandler(const HttpHandler& handler, HandlerSlots& slots, const HttpRequest& request,
                  Clock::time_point deadline);
  HttpResponse callHandler(const HttpHandler& handler, const HttpRequest& request) const;

  // Counts the request in flight; returns whether the server is stopping.
  bool beginRequest();
  void finishRequest();
  // Answers the request in flight unless the watchdog did; false (and the connection is to close)
  // when it did.
  bool answer(const HttpResponse& response, bool close);
  void answerTimeout();
  // Called by the watchdog at the request's deadline.
  void onDeadline();
  // Ends the request in flight without an answer (the connection is closing).
  void abandon();
  void logTimeout() const;

  // Writes an answer, with "Connection: close" when `close`; false when the write failed or
  // (unless `wait`) would have blocked.
  bool writeResponse(const HttpResponse& response, bool close, bool wait);
  void lingeringClose();

  int fd_;  // closed (under core.mu) by closeSocket(), after serve()
  const std::string remote_address_;
  SocketServerCore& core_;
  const bool refuse_;
  // nullptr only when OpenSSL ran out of memory creating the TLS session: serve() then ends.
  const std::unique_ptr<Transport> transport_;
  InputBuffer in_;
  RequestHeadParser parser_{std::size_t{64} * 1024};
  bool busy_ = false;     // guarded by core.mu: a request is in flight
  bool evicted_ = false;  // guarded by core.mu
  // Guarded by core.mu: when the connection began to wait for its next request head.
  Clock::time_point waiting_since_ = Clock::now();
  bool peer_closed_ = false;  // a read saw the client's end of the stream
  std::size_t served_ = 0;

  // The request in flight; set before the watchdog is armed and read by it.
  std::atomic<bool> answered_{true};  // true while no request is in flight
  const HttpRequest* current_ = nullptr;
  bool head_only_ = false;  // a HEAD request: answers carry no body
  int minor_version_ = 1;
  bool close_ = false;  // close once the request is answered
};

}  // namespace koord::http::detail
