// The HttpServer over POSIX sockets, for plain HTTP and HTTPS alike (TLS through OpenSSL, one
// Transport per connection, see transport.hpp), built for latency: a request is read, handled and
// answered on its connection's own thread, with no hand-off between threads.
//
// HTTPS: start() loads the certificate and key (TlsContext) before it listens, and reloadTls()
// loads them again for the connections accepted after it (each keeps the context it was accepted
// with, so a renewal cuts no connection off); each connection's
// thread does its TLS handshake (options.tls_handshake_timeout) before its first request, so a slow
// or silent handshake holds a connection thread, never the acceptor, and counts as a connection
// waiting for a request head (evictable). Everything below holds for both.
//
// Threads: one acceptor (poll() on the listening socket and an eventfd that wakes it to reap ended
// threads or to stop), connection threads, and one watchdog thread for the deadlines of running
// handlers. A connection is served from start to end by one connection thread (see
// connection.hpp for what it does per request); a thread whose connection ended waits up to
// kThreadIdleTimeout for the next accepted one (at most kMaxIdleThreads wait at once), so a client
// that opens a new connection for every few requests (kube-scheduler keeps only 2 idle ones) does
// not cost a thread's start and end each time. At most options.max_connections connections are
// open at once: a new one beyond that evicts (shuts down) the connection that has waited longest
// for a request head; when every connection has a request in flight, the new one is answered 503
// "Connection: close" and closed. Evicted connections no longer count while their thread ends.
// Over TLS that 503 needs a handshake, so a refused connection gets a connection thread of its own
// that shakes hands, answers and closes; at most kMaxRefusing of them at once (they do not count
// against max_connections), beyond which a refused connection is closed without an answer.
//
// Port 0 binds port 0 and reads the port the kernel chose (getsockname). The address is an IPv4
// literal or a host name resolved to IPv4 (getaddrinfo); the socket has SO_REUSEADDR, so a port in
// TIME_WAIT can be reused but one that another socket listens on cannot.
//
// stop(grace): new requests are answered 503 "Connection: close" (new connections are still
// accepted during the grace period, so that clients get that answer rather than a refused
// connection) and connections idle between requests are shut down at once; once no request is in
// flight, or the grace period is over, the listener is closed and every remaining socket shut down,
// which ends every connection thread except those whose handler is still running. The destructor
// stops with no grace and then joins every thread, waiting for handlers still running.
#include "socket_server.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <system_error>
#include <thread>
#include <vector>

#include "connection.hpp"
#include "koord/common/thread_name.hpp"
#include "response_head.hpp"

namespace koord::http {
namespace {

using detail::Connection;

// How many connection threads may wait for a new connection at once, and for how long each waits
// before it ends.
constexpr std::size_t kMaxIdleThreads = 32;
constexpr std::chrono::seconds kThreadIdleTimeout(60);
// How long the acceptor pauses after running out of file descriptors or memory.
constexpr int kAcceptRetryDelayMs = 100;
// TLS: how many connections over the limit may be answered 503 at once (each holds a thread for
// up to the handshake timeout and the answer).
constexpr std::size_t kMaxRefusing = 8;

class SocketServer final : public HttpServer {
 public:
  explicit SocketServer(HttpServerOptions options) : core_(std::move(options)) {}
  ~SocketServer() override;

  Status route(std::string_view method, std::string_view path, HttpHandler handler,
               HandlerKind kind) override {
    return core_.router.add(method, path, std::move(handler), kind);
  }
  Status start() override;
  Status reloadTls() override;
  uint16_t port() const override { return port_.load(); }
  void stop(std::chrono::milliseconds grace) override;

 private:
  void acceptLoop();
  // Accepts every pending connection.
  void acceptPending();
  void addConnection(int fd, const sockaddr_in& peer);
  // A connection thread: serves queued connections one after another, and ends once none came
  // for kThreadIdleTimeout, when kMaxIdleThreads others wait already, or when the server is being
  // destroyed and no connection is queued.
  void connectionThread(uint64_t thread_id);
  // Joins the connection threads that ended.
  void reapFinished();
  void wakeAcceptor();

  detail::SocketServerCore core_;

  std::mutex lifecycle_mu_;
  bool started_ = false;  // guarded by lifecycle_mu_
  bool stopped_ = false;  // guarded by lifecycle_mu_
  std::thread acceptor_;  // guarded by lifecycle_mu_
  std::atomic<uint16_t> port_{0};
  int listen_fd_ = -1;  // set by start(), then used and closed by the acceptor only
  int wake_fd_ = -1;    // eventfd; set by start(), closed by the destructor
  std::atomic<bool> acceptor_stop_{false};

  // Makes room for one more connection: true when under max_connections, or once the one that
  // has waited longest for a request head is evicted. Requires core_.mu.
  bool makeRoom();

  // Guarded by core_.mu.
  std::map<uint64_t, std::unique_ptr<Connection>> connections_;  // accepted and not closed yet
  std::size_t evicted_ = 0;                  // of connections_, evicted and not closed yet
  std::size_t refusing_ = 0;                 // of connections_, being refused (TLS), not closed
  std::deque<uint64_t> queued_;              // accepted, no connection thread has taken them yet
  std::map<uint64_t, std::thread> threads_;  // connection threads not joined yet
  std::vector<uint64_t> finished_;           // connection threads that ended, not joined yet
  std::size_t idle_threads_ = 0;             // connection threads waiting for a queued connection
  bool threads_stop_ = false;                // set by the destructor: idle threads end
  std::condition_variable queued_cv_;        // a connection was queued, or threads_stop_ was set
  uint64_t next_id_ = 0;
  uint64_t next_thread_id_ = 0;
};

SocketServer::~SocketServer() {
  stop(std::chrono::milliseconds(0));
  std::map<uint64_t, std::thread> threads;
  {
    // stop() joined the acceptor, so no thread is started from here on; each one serves what is
    // still queued (its socket is shut down) and ends.
    std::lock_guard<std::mutex> lock(core_.mu);
    threads_stop_ = true;
    queued_cv_.notify_all();
    threads.swap(threads_);
    finished_.clear();
  }
  for (auto& [id, thread] : threads) {
    thread.join();
  }
  if (wake_fd_ >= 0) {
    ::close(wake_fd_);
  }
}

Status SocketServer::start() {
  std::lock_guard<std::mutex> lock(lifecycle_mu_);
  if (started_ || stopped_) {
    return Status::failedPrecondition("failed to start HTTP server: already " +
                                      std::string(started_ ? "started" : "stopped"));
  }
  const HttpServerOptions& options = core_.options;
  if (core_.https()) {
    KOORD_ASSIGN_OR_RETURN(std::unique_ptr<detail::TlsContext> tls,
                           detail::TlsContext::load(options.tls_cert_file, options.tls_key_file));
    core_.setTls(std::move(tls));
  }
  const auto failure = [&](const std::string& cause) {
    return Status::unavailable("failed to listen on '" + options.address + ":" +
                               std::to_string(options.port) + "': " + cause);
  };
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(options.address.c_str(), nullptr, &hints, &found);
  if (rc != 0 || found == nullptr) {
    return failure(rc != 0 ? ::gai_strerror(rc) : "no IPv4 address");
  }
  sockaddr_in addr{};
  std::memcpy(&addr, found->ai_addr, sizeof(addr));
  ::freeaddrinfo(found);
  addr.sin_port = htons(options.port);

  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    return failure(std::strerror(errno));
  }
  const int one = 1;
  socklen_t length = sizeof(addr);
  if (::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
      ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::listen(fd, SOMAXCONN) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
    Status status = failure(std::strerror(errno));
    ::close(fd);
    return status;
  }
  const int wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake < 0) {
    Status status = failure(std::strerror(errno));
    ::close(fd);
    return status;
  }
  listen_fd_ = fd;
  wake_fd_ = wake;
  try {
    acceptor_ = std::thread([this] {
      nameThisThread("koord-accept");
      acceptLoop();
    });
  } catch (const std::system_error& e) {
    ::close(listen_fd_);
    listen_fd_ = -1;
    return failure(e.what());
  }
  port_.store(ntohs(addr.sin_port));
  started_ = true;
  return Status::ok();
}

void SocketServer::stop(std::chrono::milliseconds grace) {
  std::thread acceptor;
  {
    std::lock_guard<std::mutex> lock(lifecycle_mu_);
    if (stopped_) {
      return;
    }
    stopped_ = true;
    acceptor = std::move(acceptor_);
  }
  {
    std::unique_lock<std::mutex> lock(core_.mu);
    core_.stopping.store(true);
    for (auto& [id, connection] : connections_) {
      connection->shutdownIfIdle();
    }
    core_.cv.wait_for(lock, grace, [this] { return core_.in_flight == 0; });
  }
  if (acceptor.joinable()) {
    acceptor_stop_.store(true);
    wakeAcceptor();
    acceptor.join();
  }
  {
    std::lock_guard<std::mutex> lock(core_.mu);
    for (auto& [id, connection] : connections_) {
      connection->shutdownNow();
    }
  }
  core_.slots.abort();
  core_.waiting_slots.abort();
}

void SocketServer::acceptLoop() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  while (!acceptor_stop_.load()) {
    if (::poll(fds, 2, -1) < 0) {
      continue;  // EINTR; ENOMEM: try again
    }
    if (fds[1].revents != 0) {
      uint64_t count = 0;
      if (::read(wake_fd_, &count, sizeof(count)) < 0) {
        // Nothing to do: the eventfd was reset by an earlier read.
      }
      reapFinished();
    }
    if (fds[0].revents != 0 && !acceptor_stop_.load()) {
      acceptPending();
    }
  }
  ::close(listen_fd_);
  listen_fd_ = -1;
}

void SocketServer::acceptPending() {
  while (true) {
    sockaddr_in peer{};
    socklen_t length = sizeof(peer);
    const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_CLOEXEC);
    if (fd >= 0) {
      addConnection(fd, peer);
      continue;
    }
    if (errno == EINTR || errno == ECONNABORTED) {
      continue;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return;
    }
    core_.options.logger.warn("failed to accept an HTTP connection",
                              {{"error", std::strerror(errno)}});
    // Out of descriptors or memory: pause (unless woken to stop) rather than spin.
    pollfd wake{wake_fd_, POLLIN, 0};
    ::poll(&wake, 1, kAcceptRetryDelayMs);
    return;
  }
}

Status SocketServer::reloadTls() {
  if (!core_.https()) {
    return Status::failedPrecondition("failed to reload TLS: the server serves plain HTTP");
  }
  const HttpServerOptions& options = core_.options;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<detail::TlsContext> tls,
                         detail::TlsContext::load(options.tls_cert_file, options.tls_key_file));
  core_.setTls(std::move(tls));
  return Status::ok();
}

void SocketServer::addConnection(int fd, const sockaddr_in& peer) {
  char address[INET_ADDRSTRLEN] = "";
  ::inet_ntop(AF_INET, &peer.sin_addr, address, sizeof(address));
  std::unique_lock<std::mutex> lock(core_.mu);
  const bool room = makeRoom();
  const bool refuse = !room && core_.https() && refusing_ < kMaxRefusing;
  if (!room && !refuse) {
    lock.unlock();
    if (core_.https()) {
      ::close(fd);  // over TLS no answer can go out without a handshake
      return;
    }
    bool send_body = false;
    const HttpResponse busy = HttpResponse::text(503, "too many connections\n");
    const std::string answer =
        detail::formatResponseHead(busy, false, detail::ConnectionField::kClose, send_body) +
        busy.body;
    if (::send(fd, answer.data(), answer.size(), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
      // The client is gone already.
    }
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
    return;
  }
  const uint64_t id = next_id_++;
  connections_[id] = std::make_unique<Connection>(fd, address, core_, refuse);
  refusing_ += refuse ? 1 : 0;
  queued_.push_back(id);
  if (idle_threads_ >= queued_.size()) {
    queued_cv_.notify_one();
    return;
  }
  const uint64_t thread_id = next_thread_id_++;
  try {
    threads_[thread_id] = std::thread([this, thread_id] {
      nameThisThread("koord-http");
      connectionThread(thread_id);
    });
  } catch (const std::system_error& e) {
    threads_.erase(thread_id);
    queued_.pop_back();
    refusing_ -= refuse ? 1 : 0;
    connections_.erase(id);  // closes the socket
    core_.options.logger.warn("failed to start an HTTP connection thread", {{"error", e.what()}});
  }
}

bool SocketServer::makeRoom() {
  if (connections_.size() - evicted_ - refusing_ < core_.options.max_connections) {
    return true;
  }
  Connection* oldest = nullptr;
  for (const auto& [id, connection] : connections_) {
    if (connection->evictable() &&
        (oldest == nullptr || connection->waitingSince() < oldest->waitingSince())) {
      oldest = connection.get();
    }
  }
  if (oldest == nullptr) {
    return false;
  }
  oldest->evict();
  ++evicted_;
  return true;
}

void SocketServer::connectionThread(uint64_t thread_id) {
  std::unique_lock<std::mutex> lock(core_.mu);
  while (true) {
    if (queued_.empty()) {
      if (threads_stop_ || idle_threads_ >= kMaxIdleThreads) {
        break;
      }
      ++idle_threads_;
      queued_cv_.wait_for(lock, kThreadIdleTimeout,
                          [this] { return !queued_.empty() || threads_stop_; });
      --idle_threads_;
      if (queued_.empty()) {
        break;
      }
    }
    const uint64_t id = queued_.front();
    queued_.pop_front();
    Connection* connection = connections_.at(id).get();
    lock.unlock();
    connection->serve();
    lock.lock();
    const auto it = connections_.find(id);
    evicted_ -= it->second->evicted() ? 1 : 0;
    refusing_ -= it->second->refusing() ? 1 : 0;
    connections_.erase(it);  // closes the socket
  }
  if (threads_stop_) {
    return;  // the destructor joins it
  }
  finished_.push_back(thread_id);
  lock.unlock();
  wakeAcceptor();
}

void SocketServer::reapFinished() {
  std::vector<std::thread> ended;
  {
    std::lock_guard<std::mutex> lock(core_.mu);
    for (uint64_t id : finished_) {
      auto node = threads_.extract(id);
      if (!node.empty()) {
        ended.push_back(std::move(node.mapped()));
      }
    }
    finished_.clear();
  }
  for (std::thread& thread : ended) {
    thread.join();
  }
}

void SocketServer::wakeAcceptor() {
  const uint64_t one = 1;
  if (::write(wake_fd_, &one, sizeof(one)) < 0) {
    // The counter is saturated: the acceptor is awake anyway.
  }
}

}  // namespace

namespace detail {

Result<std::unique_ptr<HttpServer>> createSocketServer(const HttpServerOptions& options) {
  KOORD_RETURN_IF_ERROR(validateOptions(options));
  return std::unique_ptr<HttpServer>(std::make_unique<SocketServer>(options));
}

}  // namespace detail
}  // namespace koord::http
