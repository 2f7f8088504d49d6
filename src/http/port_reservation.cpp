#include "port_reservation.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace koord::http::detail {
namespace {

Status reserveError(const std::string& address, const std::string& cause) {
  return Status::unavailable("failed to reserve a port on '" + address + "': " + cause);
}

}  // namespace

Result<PortReservation> PortReservation::reserve(const std::string& address) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(address.c_str(), "0", &hints, &found);
  if (rc != 0 || found == nullptr) {
    return reserveError(address, rc != 0 ? ::gai_strerror(rc) : "no IPv4 address");
  }
  sockaddr_in addr{};
  std::memcpy(&addr, found->ai_addr, sizeof(addr));
  ::freeaddrinfo(found);

  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return reserveError(address, std::strerror(errno));
  }
  PortReservation reservation(fd, 0);
  const int one = 1;
  if (::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
      ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    return reserveError(address, std::strerror(errno));
  }
  socklen_t length = sizeof(addr);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
    return reserveError(address, std::strerror(errno));
  }
  reservation.port_ = ntohs(addr.sin_port);
  return reservation;
}

PortReservation& PortReservation::operator=(PortReservation&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = other.fd_;
    port_ = other.port_;
    other.fd_ = -1;
  }
  return *this;
}

PortReservation::~PortReservation() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

}  // namespace koord::http::detail
