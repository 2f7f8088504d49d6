// The HttpServer back end over cpprestsdk's http_listener, used for HTTPS (plain HTTP goes to the
// socket server, socket_server.cpp): the only file that includes cpprestsdk (its headers cost
// ~20 s of compile time per translation unit).
//
// How the features map onto cpprestsdk (2.10, asio back end):
//  - cpprestsdk calls us once the request headers are parsed, while it keeps reading the body into
//    a stream, and it writes an answer only after the whole body has arrived. We read that stream
//    in 64 KiB chunks and keep at most max_body_bytes. Past the cap we answer 413 with
//    "Connection: close" and go on reading and dropping the body, so that a client still sending
//    gets a clean answer rather than a reset; beyond kMaxDrainBytes more (or when the declared
//    Content-Length is already that large) the body stream is closed with an exception, which makes
//    cpprestsdk stop reading, write the answer and close the connection.
//  - Handlers run on our own pool (Dispatcher), never on cpprestsdk's threads, which are only used
//    for non-blocking continuations. A timer answers 503 at the deadline; whichever of handler and
//    timer answers first wins (an atomic flag), the other's response is dropped.
//  - Port 0: the listener cannot report the port it bound, so a free port is reserved first
//    (PortReservation: a bound, non-listening SO_REUSEADDR socket that keeps the kernel from
//    handing the port to anyone else) and the listener is opened on it; on failure a new port is
//    tried.
//  - HTTPS: the certificate and key files are read and checked once in start(); every TLS
//    connection's context is then configured from those bytes in memory (cpprestsdk calls the
//    context callback per connection, where an exception could not be reported).
//  - Graceful stop: a flag makes new requests answer 503 at once; we wait for the in-flight count
//    (incremented when a request arrives, decremented when its answer has been written or failed)
//    to reach zero or the grace period to end, then close the listener, which closes every
//    connection.
// Known limits of the library: request headers have no size limit, pipelined requests (sent before
// the previous answer arrived) are dropped, a client that stops sending mid-body keeps its
// connection until it goes away or the server stops, IPv6 addresses cannot be listened on, and a
// continuation can be left queued in its thread pool when the process exits right after a client's
// "Connection: close" (LeakSanitizer sees it; test/sanitizers/lsan.supp).
#include <cpprest/http_listener.h>

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "dispatcher.hpp"
#include "koord/http/server.hpp"
#include "port_reservation.hpp"
#include "router.hpp"
#include "socket_server.hpp"
#include "text.hpp"

namespace koord::http {
namespace {

using web::http::http_request;
using web::http::http_response;
using web::http::experimental::listener::http_listener;

constexpr std::size_t kReadChunkBytes = std::size_t{64} * 1024;
constexpr int kPortAttempts = 8;
constexpr std::chrono::seconds kDrainOnDestruction(5);
// How much of a body beyond max_body_bytes is read and dropped before the connection is cut.
constexpr std::size_t kMaxDrainBytes = std::size_t{16} << 20;

struct ServerState {
  explicit ServerState(HttpServerOptions opts) : options(std::move(opts)) {}

  const HttpServerOptions options;
  detail::Router router;
  detail::Dispatcher dispatcher;          // kCompute handlers, request deadlines
  detail::Dispatcher waiting_dispatcher;  // kWaits handlers

  std::mutex mu;
  std::condition_variable idle_cv;
  std::size_t in_flight = 0;
  bool stopping = false;
};

// One request, from its headers' arrival to its answer, shared by the body reader, the handler task
// and (weakly) the timer. It counts as in flight from construction until its answer has been
// written (or has failed), or until it is destroyed unanswered (e.g. dropped from the queue at
// shutdown).
struct Exchange {
  Exchange(http_request req, std::shared_ptr<ServerState> st)
      : request(std::move(req)), state(std::move(st)), chunk(kReadChunkBytes) {
    std::lock_guard<std::mutex> lock(state->mu);
    ++state->in_flight;
  }
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;
  ~Exchange();

  http_request request;
  const std::shared_ptr<ServerState> state;
  std::atomic<bool> answered{false};
  std::atomic<bool> body_complete{false};
  // Set once the body went over the cap: the rest is read and dropped. Only the reader touches it
  // and `received`.
  bool draining = false;
  std::size_t received = 0;
  HttpRequest converted;  // written by the reader, read by the handler task after it
  std::vector<uint8_t> chunk;
};

void finishRequest(const std::shared_ptr<ServerState>& state) {
  std::lock_guard<std::mutex> lock(state->mu);
  if (--state->in_flight == 0) {
    state->idle_cv.notify_all();
  }
}

Exchange::~Exchange() {
  if (!answered.load()) {
    finishRequest(state);
  }
}

http_response toCpprest(HttpResponse response) {
  const int status = response.status >= 100 && response.status <= 599 ? response.status : 500;
  http_response out(static_cast<web::http::status_code>(status));
  std::string content_type = "text/plain; charset=utf-8";
  for (auto& [name, value] : response.headers) {
    if (detail::equalsIgnoreCase(name, "Content-Type")) {
      content_type = value;
    } else if (!detail::equalsIgnoreCase(name, "Content-Length")) {
      out.headers().add(name, value);
    }
  }
  out.headers().set_content_type(content_type);
  // The byte-vector overload: the std::string one reinterprets a char stream buffer as a byte one,
  // which UBSan reports inside cpprestsdk.
  out.set_body(std::vector<unsigned char>(response.body.begin(), response.body.end()));
  return out;
}

// Makes cpprestsdk stop reading the request body: its next write into the body stream fails, which
// completes the request (with an error) so that the answer is written and the connection closed.
void abortBody(const std::shared_ptr<Exchange>& ex) {
  try {
    (void)ex->request.body().streambuf().close(
        std::ios_base::out, std::make_exception_ptr(std::runtime_error("request body not read")));
  } catch (const std::exception&) {  // no body stream: nothing is being read
  }
}

// What happens to the connection after an answer.
enum class After {
  kKeepAlive,
  kClose,              // "Connection: close" once the answer is written
  kCloseAndAbortBody,  // and stop cpprestsdk reading the body (it then writes the answer at once)
};

// Answers the request unless it was answered already; returns whether this call answered it.
// cpprestsdk writes an answer only after the whole request body has arrived (or failed).
bool answer(const std::shared_ptr<Exchange>& ex, HttpResponse response, After after) {
  if (ex->answered.exchange(true)) {
    return false;
  }
  std::shared_ptr<ServerState> state = ex->state;
  try {
    http_response out = toCpprest(std::move(response));
    if (after != After::kKeepAlive) {
      out.headers().add("Connection", "close");
    }
    if (after == After::kCloseAndAbortBody && !ex->body_complete.load()) {
      abortBody(ex);
    }
    ex->request.reply(out).then([state](pplx::task<void> written) {
      try {
        written.get();
      } catch (...) {  // the client went away; nothing left to do
      }
      finishRequest(state);
    });
  } catch (const std::exception& e) {
    // cpprestsdk already answered (e.g. it closed the connection): the request is over.
    state->options.logger.debug("failed to answer request", {{"error", e.what()}});
    finishRequest(state);
  }
  return true;
}

// The PEM bytes of a server certificate chain and its key, checked to load and match.
struct TlsMaterial {
  std::string cert_pem;
  std::string key_pem;
};

// Configures `ctx` for a server: TLS 1.2 and later, the chain and key from memory. Throws
// boost::system::system_error when the PEM does not load.
void configureTls(boost::asio::ssl::context& ctx, const TlsMaterial& tls) {
  ctx.set_options(boost::asio::ssl::context::default_workarounds |
                  boost::asio::ssl::context::no_sslv2 | boost::asio::ssl::context::no_sslv3 |
                  boost::asio::ssl::context::no_tlsv1 | boost::asio::ssl::context::no_tlsv1_1 |
                  boost::asio::ssl::context::single_dh_use);
  ctx.use_certificate_chain(boost::asio::buffer(tls.cert_pem));
  ctx.use_private_key(boost::asio::buffer(tls.key_pem), boost::asio::ssl::context::pem);
}

Result<std::string> readPem(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::invalidArgument("failed to read TLS " + std::string(what) + " '" + path +
                                   "': cannot open the file");
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return Status::invalidArgument("failed to read TLS " + std::string(what) + " '" + path +
                                   "': read error");
  }
  return data;
}

Result<TlsMaterial> loadTls(const HttpServerOptions& options) {
  TlsMaterial tls;
  KOORD_ASSIGN_OR_RETURN(tls.cert_pem, readPem(options.tls_cert_file, "certificate"));
  KOORD_ASSIGN_OR_RETURN(tls.key_pem, readPem(options.tls_key_file, "key"));
  try {
    boost::asio::ssl::context ctx(boost::asio::ssl::context::tls_server);
    try {
      ctx.use_certificate_chain(boost::asio::buffer(tls.cert_pem));
    } catch (const std::exception& e) {
      return Status::invalidArgument("failed to load TLS certificate '" + options.tls_cert_file +
                                     "': " + e.what());
    }
    try {
      ctx.use_private_key(boost::asio::buffer(tls.key_pem), boost::asio::ssl::context::pem);
    } catch (const std::exception& e) {
      return Status::invalidArgument("failed to load TLS key '" + options.tls_key_file +
                                     "': " + e.what());
    }
    if (SSL_CTX_check_private_key(ctx.native_handle()) != 1) {
      return Status::invalidArgument("failed to load TLS key '" + options.tls_key_file +
                                     "': it does not match the certificate '" +
                                     options.tls_cert_file + "'");
    }
  } catch (const std::exception& e) {
    return Status::invalidArgument(std::string("failed to set up TLS: ") + e.what());
  }
  return tls;
}

HttpResponse plain(int status, std::string body) {
  return HttpResponse::text(status, std::move(body) + "\n");
}

void runHandler(const std::shared_ptr<Exchange>& ex, const HttpHandler& handler) {
  if (ex->answered.load()) {
    return;  // timed out while queued
  }
  const log::Logger& logger = ex->state->options.logger;
  HttpResponse response;
  try {
    response = handler(ex->converted);
  } catch (const std::exception& e) {
    logger.warn(
        "HTTP handler threw",
        {{"method", ex->converted.method}, {"path", ex->converted.path}, {"error", e.what()}});
    response = plain(500, "internal server error");
  } catch (...) {
    logger.warn("HTTP handler threw",
                {{"method", ex->converted.method}, {"path", ex->converted.path}});
    response = plain(500, "internal server error");
  }
  if (ex->converted.method == "HEAD") {
    response.body.clear();  // HEAD is served by the GET handler: the head of its answer only
  }
  if (!answer(ex, std::move(response), After::kKeepAlive)) {
    logger.debug("discarded a late handler response",
                 {{"method", ex->converted.method}, {"path", ex->converted.path}});
  }
}

void dispatch(const std::shared_ptr<Exchange>& ex) {
  const detail::Router::Match match =
      ex->state->router.find(ex->converted.method, ex->converted.path);
  if (match.kind != detail::Router::Match::Kind::kFound) {
    answer(ex, detail::unroutedAnswer(ex->converted.method, ex->converted.path, match),
           After::kKeepAlive);
    return;
  }
  if (!match.takes_body && !ex->converted.body.empty()) {  // a chunked one: no length told
    answer(ex, plain(413, ex->converted.method + " requests take no body"), After::kClose);
    return;
  }
  const bool queued = (match.handler_kind == HandlerKind::kWaits ? ex->state->waiting_dispatcher
                                                                 : ex->state->dispatcher)
                          .submit([ex, handler = match.handler] { runHandler(ex, handler); });
  if (!queued) {
    bool stopping = false;
    {
      std::lock_guard<std::mutex> lock(ex->state->mu);
      stopping = ex->state->stopping;
    }
    answer(ex,
           plain(503, stopping ? "server is shutting down" : "no handler thread could be started"),
           After::kCloseAndAbortBody);
  }
}

HttpResponse tooLarge(std::size_t limit) {
  return plain(413, "request body exceeds the limit of " + std::to_string(limit) + " bytes");
}

// Reads the body chunk by chunk, keeping at most max_body_bytes, then dispatches. Past the cap the
// request is answered 413 and the rest of the body is read and dropped (so that the client, still
// sending, gets a clean answer instead of a reset connection), up to kMaxDrainBytes more.
void readBody(const std::shared_ptr<Exchange>& ex) {
  if (ex->answered.load() && !ex->draining) {
    return;
  }
  pplx::task<std::size_t> pending;
  try {
    pending = ex->request.body().streambuf().getn(ex->chunk.data(), ex->chunk.size());
  } catch (const std::exception&) {
    answer(ex, plain(400, "failed to read the request body"), After::kCloseAndAbortBody);
    return;
  }
  pending.then([ex](pplx::task<std::size_t> read) {
    std::size_t n = 0;
    try {
      n = read.get();
    } catch (const std::exception&) {
      answer(ex, plain(400, "failed to read the request body"), After::kCloseAndAbortBody);
      return;
    }
    const std::size_t limit = ex->state->options.max_body_bytes;
    if (ex->draining) {
      ex->received += n;
      if (n == 0) {
        return;
      }
      if (ex->received > limit + kMaxDrainBytes) {
        abortBody(ex);
        return;
      }
      readBody(ex);
      return;
    }
    if (ex->answered.load()) {
      return;
    }
    if (n == 0) {
      ex->body_complete.store(true);
      dispatch(ex);
      return;
    }
    ex->received += n;
    if (ex->received > limit) {
      ex->draining = true;
      answer(ex, tooLarge(limit), After::kClose);
      readBody(ex);
      return;
    }
    ex->converted.body.append(reinterpret_cast<const char*>(ex->chunk.data()), n);
    readBody(ex);
  });
}

void convertHead(const http_request& request, HttpRequest& out) {
  out.method = request.method();
  const web::uri& uri = request.request_uri();
  out.path = detail::percentDecode(uri.path(), false);
  out.query = uri.query();
  for (const auto& [name, value] : request.headers()) {
    out.headers[name] = value;
  }
  out.remote_address = request.remote_address();
}

void onRequest(const std::shared_ptr<ServerState>& state, http_request request) {
  auto ex = std::make_shared<Exchange>(std::move(request), state);
  bool stopping = false;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    stopping = state->stopping;
  }
  if (stopping) {
    answer(ex, plain(503, "server is shutting down"), After::kCloseAndAbortBody);
    return;
  }
  const auto timeout = state->options.request_timeout;
  state->dispatcher.schedule(
      detail::Dispatcher::Clock::now() + timeout, [weak = std::weak_ptr<Exchange>(ex), timeout] {
        const std::shared_ptr<Exchange> timed_out = weak.lock();
        if (timed_out == nullptr) {
          return;
        }
        const bool body_complete = timed_out->body_complete.load();
        if (answer(timed_out,
                   plain(503, "request timed out after " + std::to_string(timeout.count()) + " ms"),
                   body_complete ? After::kKeepAlive : After::kCloseAndAbortBody)) {
          timed_out->state->options.logger.warn("HTTP request timed out",
                                                {{"method", timed_out->request.method()},
                                                 {"path", timed_out->request.request_uri().path()},
                                                 {"timeout", timeout}});
        }
      });
  try {
    convertHead(ex->request, ex->converted);
  } catch (const std::exception& e) {
    answer(ex, plain(400, std::string("malformed request: ") + e.what()),
           After::kCloseAndAbortBody);
    return;
  }
  const std::size_t declared = ex->request.headers().content_length();
  // The route is found before the body is read: a body nobody would use is not read.
  const detail::Router::Match match = state->router.find(ex->converted.method, ex->converted.path);
  if (match.kind != detail::Router::Match::Kind::kFound) {
    answer(ex, detail::unroutedAnswer(ex->converted.method, ex->converted.path, match),
           declared > 0 ? After::kCloseAndAbortBody : After::kKeepAlive);
    return;
  }
  if (!match.takes_body && declared > 0) {
    answer(ex, plain(413, ex->converted.method + " requests take no body"),
           After::kCloseAndAbortBody);
    return;
  }
  const std::size_t limit = state->options.max_body_bytes;
  if (declared > limit + kMaxDrainBytes) {
    answer(ex, tooLarge(limit), After::kCloseAndAbortBody);
    return;
  }
  if (declared > limit) {
    ex->draining = true;
    answer(ex, tooLarge(limit), After::kClose);
  }
  readBody(ex);
}

class CppRestHttpServer final : public HttpServer {
 public:
  explicit CppRestHttpServer(HttpServerOptions options)
      : state_(std::make_shared<ServerState>(std::move(options))) {}

  // After the handlers have returned, waits (boundedly) for the answers already handed to
  // cpprestsdk to complete, so that no continuation of this server is left behind.
  ~CppRestHttpServer() override {
    stop(std::chrono::milliseconds(0));
    state_->dispatcher.shutdown();
    state_->waiting_dispatcher.shutdown();
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->idle_cv.wait_for(lock, kDrainOnDestruction, [this] { return state_->in_flight == 0; });
  }

  Status route(std::string_view method, std::string_view path, HttpHandler handler,
               HandlerKind kind) override {
    return state_->router.add(method, path, std::move(handler), kind);
  }

  Status start() override {
    std::lock_guard<std::mutex> lock(lifecycle_mu_);
    if (started_ || stopped_) {
      return Status::failedPrecondition("failed to start HTTP server: already " +
                                        std::string(started_ ? "started" : "stopped"));
    }
    const HttpServerOptions& options = state_->options;
    if (!dispatcher_started_) {
      state_->dispatcher.start(options.handler_threads);
      state_->waiting_dispatcher.start(options.waiting_handler_threads);
      dispatcher_started_ = true;
    }
    web::http::experimental::listener::http_listener_config config;
    std::string scheme = "http://";
    if (!options.tls_cert_file.empty()) {
      KOORD_ASSIGN_OR_RETURN(TlsMaterial loaded, loadTls(options));
      auto tls = std::make_shared<const TlsMaterial>(std::move(loaded));
      config.set_ssl_context_callback([tls](boost::asio::ssl::context& ctx) {
        try {
          configureTls(ctx, *tls);
        } catch (const std::exception&) {  // checked in start(); the handshake fails otherwise
        }
      });
      scheme = "https://";
    }
    std::string last_error;
    uint16_t last_port = options.port;
    for (int attempt = 0; attempt < (options.port == 0 ? kPortAttempts : 1); ++attempt) {
      std::optional<detail::PortReservation> reservation;
      uint16_t port = options.port;
      if (port == 0) {
        KOORD_ASSIGN_OR_RETURN(detail::PortReservation reserved,
                               detail::PortReservation::reserve(options.address));
        port = reserved.port();
        reservation.emplace(std::move(reserved));
      }
      last_port = port;
      try {
        auto listener = std::make_unique<http_listener>(
            web::uri(scheme + options.address + ":" + std::to_string(port) + "/"), config);
        listener->support(
            [state = state_](http_request request) { onRequest(state, std::move(request)); });
        listener->open().wait();
        listener_ = std::move(listener);
        port_.store(port);
        started_ = true;
        return Status::ok();
      } catch (const std::exception& e) {
        last_error = e.what();
      }
    }
    return Status::unavailable("failed to listen on '" + options.address + ":" +
                               std::to_string(last_port) + "': " + last_error);
  }

  uint16_t port() const override { return port_.load(); }

  void stop(std::chrono::milliseconds grace) override {
    std::unique_ptr<http_listener> listener;
    {
      std::lock_guard<std::mutex> lock(lifecycle_mu_);
      if (stopped_) {
        return;
      }
      stopped_ = true;
      listener = std::move(listener_);
    }
    {
      std::unique_lock<std::mutex> lock(state_->mu);
      state_->stopping = true;
      state_->idle_cv.wait_for(lock, grace, [this] { return state_->in_flight == 0; });
    }
    if (listener != nullptr) {
      try {
        listener->close().wait();
      } catch (const std::exception& e) {
        state_->options.logger.warn("failed to close HTTP listener", {{"error", e.what()}});
      }
    }
  }

 private:
  const std::shared_ptr<ServerState> state_;
  std::mutex lifecycle_mu_;
  std::unique_ptr<http_listener> listener_;
  std::atomic<uint16_t> port_{0};
  bool started_ = false;
  bool stopped_ = false;
  bool dispatcher_started_ = false;
};

}  // namespace

namespace detail {

Result<std::unique_ptr<HttpServer>> createCpprestServer(const HttpServerOptions& options) {
  KOORD_RETURN_IF_ERROR(validateOptions(options));
  return std::unique_ptr<HttpServer>(std::make_unique<CppRestHttpServer>(options));
}

}  // namespace detail
}  // namespace koord::http
