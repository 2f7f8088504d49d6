// The plain-HTTP Transport: recv and sendmsg on the blocking socket (see transport.hpp).
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <climits>

#include "transport.hpp"

namespace koord::http::detail {
namespace {

int pollTimeoutMs(Transport::Clock::duration left) {
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::clamp<decltype(ms)>(ms, 0, INT_MAX));
}

class PlainTransport final : public Transport {
 public:
  PlainTransport(int fd, std::chrono::seconds write_timeout)
      : fd_(fd), write_timeout_(write_timeout) {}

  bool open(Clock::time_point /*deadline*/) override {
    const timeval send_timeout{write_timeout_.count(), 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof(send_timeout));
    return true;
  }

  Read read(std::span<char> space, Clock::time_point deadline) override {
    while (true) {
      const Clock::duration left = deadline - Clock::now();
      if (left <= Clock::duration::zero()) {
        return {Read::Kind::kTimedOut};
      }
      pollfd pfd{fd_, POLLIN, 0};
      const int ready = ::poll(&pfd, 1, pollTimeoutMs(left));
      if (ready < 0 && errno != EINTR) {
        return {Read::Kind::kFailed};
      }
      if (ready <= 0) {
        continue;
      }
      const ssize_t n = ::recv(fd_, space.data(), space.size(), 0);
      if (n > 0) {
        return {Read::Kind::kData, static_cast<std::size_t>(n)};
      }
      if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
        continue;
      }
      return {n == 0 ? Read::Kind::kEnd : Read::Kind::kFailed};
    }
  }

  bool write(std::string_view head, std::string_view body, bool wait) override {
    iovec parts[2] = {{const_cast<char*>(head.data()), head.size()},
                      {const_cast<char*>(body.data()), body.size()}};
    iovec* next = parts;
    std::size_t count = body.empty() ? 1 : 2;
    const int flags = MSG_NOSIGNAL | (wait ? 0 : MSG_DONTWAIT);
    while (count > 0) {
      msghdr message{};
      message.msg_iov = next;
      message.msg_iovlen = count;
      const ssize_t n = ::sendmsg(fd_, &message, flags);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        return false;
      }
      auto sent = static_cast<std::size_t>(n);
      while (count > 0 && sent >= next->iov_len) {
        sent -= next->iov_len;
        ++next;
        --count;
      }
      if (count > 0) {
        next->iov_base = static_cast<char*>(next->iov_base) + sent;
        next->iov_len -= sent;
      }
    }
    return true;
  }

  void shutdownWrite() override { ::shutdown(fd_, SHUT_WR); }

 private:
  const int fd_;
  const std::chrono::seconds write_timeout_;
};

}  // namespace

std::unique_ptr<Transport> makePlainTransport(int fd, std::chrono::seconds write_timeout) {
  return std::make_unique<PlainTransport>(fd, write_timeout);
}

}  // namespace koord::http::detail
