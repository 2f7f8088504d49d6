#include "connection.hpp"

#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "chunked_decoder.hpp"
#include "response_head.hpp"

namespace koord::http::detail {
namespace {

constexpr std::size_t kMaxHeadBytes = std::size_t{64} * 1024;
constexpr std::size_t kReadBytes = std::size_t{16} * 1024;
// How much of a body beyond max_body_bytes is read and dropped before the connection is cut.
constexpr uint64_t kMaxDrainBytes = uint64_t{16} << 20;
// How long a connection waits for the next request's head; also the limit on a blocked write.
constexpr std::chrono::seconds kIdleTimeout(90);
// After an answer that closes the connection: how long, and how much, the client's further bytes
// are read and dropped before the socket is closed.
constexpr std::chrono::seconds kLingerTimeout(2);
constexpr std::size_t kMaxLingerBytes = std::size_t{1} << 20;
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

HttpResponse plain(int status, std::string body) {
  return HttpResponse::text(status, std::move(body) + "\n");
}

HttpResponse tooLarge(std::size_t limit) {
  return plain(413, "request body exceeds the limit of " + std::to_string(limit) + " bytes");
}

HttpResponse overBudget(std::size_t limit) {
  HttpResponse response = plain(503, "server busy: request bodies held at once would exceed " +
                                         std::to_string(limit) + " bytes; try again");
  response.headers["Retry-After"] = "1";
  return response;
}

std::unique_ptr<Transport> makeTransport(SocketServerCore& core, int fd) {
  return core.https() ? makeTlsTransport(core.currentTls(), fd, kIdleTimeout)
                      : makePlainTransport(fd, kIdleTimeout);
}

}  // namespace

Connection::Connection(int fd, std::string remote_address, SocketServerCore& core, bool refuse)
    : fd_(fd),
      remote_address_(std::move(remote_address)),
      core_(core),
      refuse_(refuse),
      transport_(makeTransport(core, fd)) {}

Connection::~Connection() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

void Connection::shutdownIfIdle() {
  if (fd_ >= 0 && !busy_) {
    ::shutdown(fd_, SHUT_RDWR);
  }
}

void Connection::shutdownNow() {
  if (fd_ >= 0) {
    ::shutdown(fd_, SHUT_RDWR);
  }
}

bool BodyBudget::reserve(std::size_t bytes) {
  const std::size_t limit = core_.options.max_buffered_bytes;
  std::size_t total = core_.buffered_bytes.load();
  do {
    if (bytes > limit - total) {
      return false;
    }
  } while (!core_.buffered_bytes.compare_exchange_weak(total, total + bytes));
  held_ += bytes;
  return true;
}

void BodyBudget::release() {
  if (held_ > 0) {
    core_.buffered_bytes.fetch_sub(held_);
    held_ = 0;
  }
}

void Connection::evict() {
  evicted_ = true;
  shutdownNow();
}

void Connection::closeSocket() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

void Connection::serve() {
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  if (transport_ == nullptr) {
    core_.options.logger.warn("failed to set up a TLS connection: out of memory");
    return;
  }
  if (!transport_->open(Clock::now() + core_.options.tls_handshake_timeout)) {
    core_.options.logger.debug("TLS handshake failed or timed out", {{"remote", remote_address_}});
    return;
  }
  Next next = Next::kClose;
  try {
    if (refuse_) {
      writeResponse(HttpResponse::text(503, "too many connections\n"), true, true);
      lingeringClose();
      return;
    }
    do {
      next = serveRequest();
    } while (next == Next::kKeepAlive);
    if (next == Next::kClose) {
      lingeringClose();
    }
  } catch (const std::exception& e) {
    core_.options.logger.warn("HTTP connection failed", {{"error", e.what()}});
    abandon();
  } catch (...) {
    core_.options.logger.warn("HTTP connection failed");
    abandon();
  }
}

Connection::Next Connection::serveRequest() {
  // An idle connection of a stopping server closes; a new one still gets its 503 below.
  if (served_ > 0 && in_.empty() && core_.stopping.load()) {
    return Next::kClose;
  }
  head_only_ = false;
  minor_version_ = 1;
  close_ = false;
  parser_.reset();
  RequestHead head;
  const Clock::time_point idle_deadline = Clock::now() + kIdleTimeout;
  while (true) {
    if (!in_.empty()) {
      const RequestHeadParser::Outcome outcome = parser_.parse(in_.readable(), head);
      if (outcome == RequestHeadParser::Outcome::kDone) {
        break;
      }
      if (outcome == RequestHeadParser::Outcome::kTooLarge) {
        writeResponse(plain(431, "request head exceeds the limit of " +
                                     std::to_string(kMaxHeadBytes) + " bytes"),
                      true, true);
        return Next::kClose;
      }
      if (outcome == RequestHeadParser::Outcome::kMalformed) {
        writeResponse(plain(400, "malformed request: " + parser_.error()), true, true);
        return Next::kClose;
      }
    }
    if (fill(idle_deadline) != Fill::kData) {
      return Next::kClose;
    }
  }
  const Clock::time_point deadline = Clock::now() + core_.options.request_timeout;
  in_.consume(parser_.consumed());
  ++served_;
  HttpRequest& request = head.request;
  request.remote_address = remote_address_;
  head_only_ = request.method == "HEAD";
  minor_version_ = head.minor_version;
  close_ = !head.keep_alive;
  current_ = &request;
  if (beginRequest()) {
    answer(plain(503, "server is shutting down"), true);
    return Next::kClose;
  }
  // The route is found before the body is read: a body nobody would use is never buffered.
  const Router::Match match = core_.router.find(request.method, request.path);
  const bool has_body = head.chunked || head.content_length > 0;
  if (match.kind != Router::Match::Kind::kFound) {
    // A body is dropped by the lingering close.
    answer(unroutedAnswer(request.method, request.path, match), has_body);
    return close_ ? Next::kClose : Next::kKeepAlive;
  }
  if (!match.takes_body && has_body) {
    answer(plain(413, request.method + " requests take no body"), true);
    return Next::kClose;
  }
  BodyBudget budget(core_);
  std::string error;
  const std::size_t limit = core_.options.max_body_bytes;
  switch (readBody(head, request.body, deadline, budget, error)) {
    case Body::kComplete:
      break;
    case Body::kOverBudget:
      answer(overBudget(core_.options.max_buffered_bytes), true);
      return Next::kClose;
    case Body::kTooLarge:
      answer(tooLarge(limit), true);
      return Next::kClose;
    case Body::kCutOff:
      answer(tooLarge(limit), true);
      return Next::kCut;
    case Body::kTimedOut:
      answerTimeout();
      return Next::kClose;
    case Body::kMalformed:
      answer(plain(400, "malformed request: " + error), true);
      return Next::kClose;
    case Body::kClosed:
      abandon();
      return Next::kClose;
  }
  runHandler(match.handler, core_.slotsFor(match.handler_kind), request, deadline);
  const std::size_t trim_after = core_.options.trim_after_body_bytes;
  if (trim_after > 0 && request.body.size() >= trim_after) {
    // What decoding a large body allocated is free now, spread over the allocator's per-thread
    // arenas; give it back to the system so that a burst leaves no lasting footprint.
    std::string().swap(request.body);
    budget.release();
    ::malloc_trim(0);
  }
  return close_ ? Next::kClose : Next::kKeepAlive;
}

Connection::Fill Connection::fill(Clock::time_point deadline) {
  const Transport::Read read = transport_->read(in_.writable(kReadBytes), deadline);
  switch (read.kind) {
    case Transport::Read::Kind::kData:
      in_.commit(read.bytes);
      return Fill::kData;
    case Transport::Read::Kind::kTimedOut:
      return Fill::kTimedOut;
    case Transport::Read::Kind::kEnd:
      peer_closed_ = true;
      return Fill::kClosed;
    case Transport::Read::Kind::kFailed:
      break;
  }
  return Fill::kClosed;
}

Connection::Body Connection::readBody(const RequestHead& head, std::string& body,
                                      Clock::time_point deadline, BodyBudget& budget,
                                      std::string& error) {
  const uint64_t limit = core_.options.max_body_bytes;
  const uint64_t drain_limit = limit + std::min(kMaxDrainBytes, UINT64_MAX - limit);
  if (!head.chunked) {
    if (head.content_length == 0) {
      return Body::kComplete;
    }
    if (head.content_length > drain_limit) {
      return Body::kCutOff;
    }
    if (head.content_length > limit && head.expect_continue && in_.empty()) {
      return Body::kTooLarge;  // the client waits for our word before it sends the body
    }
  }
  // A body within the cap is held from here until the request ends: the whole of a declared
  // length at once, a chunked one as it arrives.
  if (!head.chunked && head.content_length <= limit &&
      !budget.reserve(static_cast<std::size_t>(head.content_length))) {
    return Body::kOverBudget;
  }
  if (head.expect_continue && in_.empty() && !transport_->write(kContinue, {}, true)) {
    return Body::kClosed;
  }
  uint64_t received = 0;
  bool over = false;
  bool over_budget = false;
  // Keeps `data` while the body is within the cap and the budget; false once it is past the
  // drain limit, or (chunked) as soon as the budget is spent.
  const auto take = [&](std::string_view data) {
    received += data.size();
    if (!over && received > limit) {
      over = true;
      std::string().swap(body);
      budget.release();
    }
    if (!over) {
      if (head.chunked && !budget.reserve(data.size())) {
        over_budget = true;
        std::string().swap(body);
        budget.release();
        return false;
      }
      body.append(data);
    }
    return received <= drain_limit;
  };
  const auto timedOut = [&] { return over ? Body::kTooLarge : Body::kTimedOut; };

  if (!head.chunked) {
    if (head.content_length <= limit) {
      body.reserve(static_cast<std::size_t>(head.content_length));
    }
    uint64_t left = head.content_length;
    while (left > 0) {
      if (in_.empty()) {
        const Fill filled = fill(deadline);
        if (filled != Fill::kData) {
          return filled == Fill::kTimedOut ? timedOut() : Body::kClosed;
        }
      }
      const std::string_view data = in_.readable().substr(
          0, static_cast<std::size_t>(std::min<uint64_t>(left, in_.readable().size())));
      take(data);
      in_.consume(data.size());
      left -= data.size();
    }
    return over ? Body::kTooLarge : Body::kComplete;
  }

  ChunkedDecoder decoder;
  while (true) {
    if (!in_.empty()) {
      std::size_t used = 0;
      std::string_view data;
      const ChunkedDecoder::Outcome outcome = decoder.next(in_.readable(), used, data);
      const bool within = outcome != ChunkedDecoder::Outcome::kData || take(data);
      in_.consume(used);
      if (!within) {
        return over_budget ? Body::kOverBudget : Body::kCutOff;
      }
      if (outcome == ChunkedDecoder::Outcome::kData) {
        continue;
      }
      if (outcome == ChunkedDecoder::Outcome::kDone) {
        return over ? Body::kTooLarge : Body::kComplete;
      }
      if (outcome == ChunkedDecoder::Outcome::kMalformed) {
        error = decoder.error();
        return Body::kMalformed;
      }
    }
    const Fill filled = fill(deadline);
    if (filled != Fill::kData) {
      return filled == Fill::kTimedOut ? timedOut() : Body::kClosed;
    }
  }
}

void Connection::runHandler(const HttpHandler& handler, HandlerSlots& slots,
                            const HttpRequest& request, Clock::time_point deadline) {
  std::optional<HttpResponse> response;
  {
    // Disarmed on every way out, so that the watchdog never calls into a Connection that is gone.
    struct Armed {
      Watchdog& watchdog;
      const Watchdog::Ticket ticket;
      ~Armed() { watchdog.disarm(ticket); }
    } armed{core_.watchdog, core_.watchdog.arm(deadline, [this] { onDeadline(); })};
    if (slots.acquire(deadline)) {
      struct Slot {
        HandlerSlots& slots;
        ~Slot() { slots.release(); }
      } slot{slots};
      if (!answered_.load()) {
        response = callHandler(handler, request);
      }
    }
  }
  if (response.has_value()) {
    if (!answer(*response, false)) {
      core_.options.logger.debug("discarded a late handler response",
                                 {{"method", request.method}, {"path", request.path}});
    }
  } else if (Clock::now() >= deadline) {
    answerTimeout();
  } else {
    abandon();  // no slot: the server is shutting down
  }
}

HttpResponse Connection::callHandler(const HttpHandler& handler, const HttpRequest& request) const {
  const log::Logger& logger = core_.options.logger;
  try {
    return handler(request);
  } catch (const std::exception& e) {
    logger.warn("HTTP handler threw",
                {{"method", request.method}, {"path", request.path}, {"error", e.what()}});
  } catch (...) {
    logger.warn("HTTP handler threw", {{"method", request.method}, {"path", request.path}});
  }
  return plain(500, "internal server error");
}

bool Connection::beginRequest() {
  answered_.store(false);
  std::lock_guard<std::mutex> lock(core_.mu);
  ++core_.in_flight;
  busy_ = true;
  return core_.stopping.load();
}

void Connection::finishRequest() {
  std::lock_guard<std::mutex> lock(core_.mu);
  busy_ = false;
  waiting_since_ = Clock::now();
  if (--core_.in_flight == 0) {
    core_.cv.notify_all();
  }
}

bool Connection::answer(const HttpResponse& response, bool close) {
  if (answered_.exchange(true)) {
    close_ = true;
    return false;
  }
  close_ = close_ || close || core_.stopping.load();
  if (!writeResponse(response, close_, true)) {
    close_ = true;
  }
  finishRequest();
  return true;
}

void Connection::answerTimeout() {
  const auto timeout = core_.options.request_timeout;
  if (answer(plain(503, "request timed out after " + std::to_string(timeout.count()) + " ms"),
             true)) {
    logTimeout();
  }
}

void Connection::onDeadline() {
  if (answered_.exchange(true)) {
    return;
  }
  const auto timeout = core_.options.request_timeout;
  // Never blocks the watchdog: an answer that does not fit the socket buffer is cut short.
  writeResponse(plain(503, "request timed out after " + std::to_string(timeout.count()) + " ms"),
                true, false);
  transport_->shutdownWrite();
  finishRequest();
  logTimeout();
}

void Connection::abandon() {
  if (!answered_.exchange(true)) {
    finishRequest();
  }
}

void Connection::logTimeout() const {
  core_.options.logger.warn("HTTP request timed out", {{"method", current_->method},
                                                       {"path", current_->path},
                                                       {"timeout", core_.options.request_timeout}});
}

bool Connection::writeResponse(const HttpResponse& response, bool close, bool wait) {
  const ConnectionField field = close                 ? ConnectionField::kClose
                                : minor_version_ == 0 ? ConnectionField::kKeepAlive
                                                      : ConnectionField::kNone;
  bool send_body = false;
  const std::string head = formatResponseHead(response, head_only_, field, send_body);
  return transport_->write(head, send_body ? std::string_view(response.body) : std::string_view(),
                           wait);
}

void Connection::lingeringClose() {
  if (peer_closed_) {
    return;  // the client has ended its side: nothing more can come to drain
  }
  transport_->shutdownWrite();
  const Clock::time_point deadline = Clock::now() + kLingerTimeout;
  std::size_t dropped = 0;
  while (dropped < kMaxLingerBytes && fill(deadline) == Fill::kData) {
    dropped += in_.readable().size();
    in_.consume(in_.readable().size());
  }
}

}  // namespace koord::http::detail
