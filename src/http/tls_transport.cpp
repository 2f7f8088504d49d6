// The TLS Transport: OpenSSL over the non-blocking socket, each call waiting with poll(2) for what
// OpenSSL asks for (see transport.hpp).
#include <fcntl.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <memory>
#include <string>
#include <utility>

#include "tls_context.hpp"
#include "transport.hpp"

namespace koord::http::detail {
namespace {

// Small answers go out as one TLS record (one write, usually one packet): head and body are
// joined when they fit in one.
constexpr std::size_t kMaxJoinedBytes = std::size_t{16} * 1024;

class TlsTransport final : public Transport {
 public:
  TlsTransport(std::shared_ptr<const TlsContext> context, SSL* ssl, int fd,
               std::chrono::seconds write_timeout)
      : context_(std::move(context)), ssl_(ssl), fd_(fd), write_timeout_(write_timeout) {
    const int flags = ::fcntl(fd_, F_GETFL);
    ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK);
  }
  TlsTransport(const TlsTransport&) = delete;
  TlsTransport& operator=(const TlsTransport&) = delete;
  ~TlsTransport() override { SSL_free(ssl_); }

  bool open(Clock::time_point deadline) override {
    while (true) {
      ERR_clear_error();
      const int rc = SSL_do_handshake(ssl_);
      if (rc == 1) {
        return true;
      }
      if (!await(SSL_get_error(ssl_, rc), deadline)) {
        return false;
      }
    }
  }

  Read read(std::span<char> space, Clock::time_point deadline) override {
    const int size = static_cast<int>(std::min<std::size_t>(space.size(), INT_MAX));
    while (true) {
      ERR_clear_error();
      const int n = SSL_read(ssl_, space.data(), size);
      if (n > 0) {
        return {Read::Kind::kData, static_cast<std::size_t>(n)};
      }
      const int error = SSL_get_error(ssl_, n);
      if (error == SSL_ERROR_ZERO_RETURN) {
        return {Read::Kind::kEnd};
      }
      if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) {
        failed_ = true;
        return {Read::Kind::kFailed};
      }
      if (!await(error, deadline)) {
        return {failed_ ? Read::Kind::kFailed : Read::Kind::kTimedOut};
      }
    }
  }

  bool write(std::string_view head, std::string_view body, bool wait) override {
    const Clock::time_point deadline = Clock::now() + write_timeout_;
    if (!body.empty() && head.size() + body.size() <= kMaxJoinedBytes) {
      std::string joined;
      joined.reserve(head.size() + body.size());
      joined.append(head).append(body);
      return writeAll(joined, wait, deadline);
    }
    return writeAll(head, wait, deadline) && writeAll(body, wait, deadline);
  }

  void shutdownWrite() override {
    // After a fatal error OpenSSL must not be asked to shut down; either way no more is sent.
    if (!failed_ && SSL_is_init_finished(ssl_) == 1) {
      ERR_clear_error();
      SSL_shutdown(ssl_);  // sends close_notify, or gives up when the socket buffer is full
      ERR_clear_error();
    }
    ::shutdown(fd_, SHUT_WR);
  }

 private:
  bool writeAll(std::string_view data, bool wait, Clock::time_point deadline) {
    while (!data.empty()) {
      const int size = static_cast<int>(std::min<std::size_t>(data.size(), INT_MAX));
      ERR_clear_error();
      const int n = SSL_write(ssl_, data.data(), size);
      if (n > 0) {
        data.remove_prefix(static_cast<std::size_t>(n));
        continue;
      }
      const int error = SSL_get_error(ssl_, n);
      if (!wait && (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE)) {
        failed_ = true;  // a record may be half written: nothing more can follow it
        return false;
      }
      if (!await(error, deadline)) {
        return false;
      }
    }
    return true;
  }

  // Waits until the socket is ready for what `error` (from SSL_get_error) asks for; false when
  // the error is not a wait (failed_ is then set) or `deadline` passed first.
  bool await(int error, Clock::time_point deadline) {
    short events = 0;
    if (error == SSL_ERROR_WANT_READ) {
      events = POLLIN;
    } else if (error == SSL_ERROR_WANT_WRITE) {
      events = POLLOUT;
    } else {
      failed_ = true;
      ERR_clear_error();
      return false;
    }
    while (true) {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        return false;
      }
      pollfd pfd{fd_, events, 0};
      const int ready = ::poll(&pfd, 1, static_cast<int>(std::min<decltype(left)>(left, INT_MAX)));
      if (ready > 0) {
        return true;  // readiness, end of stream or an error: the next call tells which
      }
      if (ready < 0 && errno != EINTR) {
        failed_ = true;
        return false;
      }
    }
  }

  // Outlives ssl_, whose BIO method it owns.
  const std::shared_ptr<const TlsContext> context_;
  SSL* const ssl_;
  const int fd_;
  const std::chrono::seconds write_timeout_;
  bool failed_ = false;  // OpenSSL reported a fatal error, or a write was cut short
};

}  // namespace

std::unique_ptr<Transport> makeTlsTransport(std::shared_ptr<const TlsContext> context, int fd,
                                            std::chrono::seconds write_timeout) {
  if (context == nullptr) {
    return nullptr;
  }
  SSL* ssl = context->newSession(fd);
  if (ssl == nullptr) {
    return nullptr;
  }
  return std::make_unique<TlsTransport>(std::move(context), ssl, fd, write_timeout);
}

}  // namespace koord::http::detail
