// Free-port reservation for servers that cannot bind port 0 themselves (private to koord_http).
#pragma once

#include <cstdint>
#include <string>

#include "koord/common/result.hpp"

namespace koord::http::detail {

// A TCP socket bound (not listening) to a free port of an IPv4 address, with SO_REUSEADDR.
// While it is held, the kernel gives the port to no one else binding port 0 or connecting out,
// yet a listener with SO_REUSEADDR (as cpprestsdk's acceptor sets) can still bind and listen on it.
// Closing it (destruction) releases the reservation; the listener keeps the port.
class PortReservation {
 public:
  [[nodiscard]] static Result<PortReservation> reserve(const std::string& address);

  PortReservation(PortReservation&& other) noexcept : fd_(other.fd_), port_(other.port_) {
    other.fd_ = -1;
  }
  PortReservation& operator=(PortReservation&& other) noexcept;
  PortReservation(const PortReservation&) = delete;
  PortReservation& operator=(const PortReservation&) = delete;
  ~PortReservation();

  [[nodiscard]] uint16_t port() const { return port_; }

 private:
  PortReservation(int fd, uint16_t port) : fd_(fd), port_(port) {}
  int fd_ = -1;
  uint16_t port_ = 0;
};

}  // namespace koord::http::detail
