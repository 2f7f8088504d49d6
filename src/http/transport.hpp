// Transport: how a Connection moves bytes over its accepted socket, plain or TLS (private to
// koord_http).
//
// Used by one thread at a time: the connection's thread, or the watchdog while that thread runs a
// handler (it then does no I/O). Deadlines are steady-clock points; every wait ends early when
// another thread shuts the socket down (shutdown(2)), which is how the server evicts, stops and
// times out connections without touching the transport. The transport does not own the socket.
//  - Plain: recv/sendmsg on the blocking socket; a blocked write gives up after `write_timeout`
//    (SO_SNDTIMEO).
//  - TLS: the socket is made non-blocking and every operation waits with poll(2) for what OpenSSL
//    asks for (either direction, in either call); open() is the server's handshake, a blocked write
//    gives up after `write_timeout`, and shutdownWrite() sends close_notify before ending the
//    sending side.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

namespace koord::http::detail {

class TlsContext;

class Transport {
 public:
  using Clock = std::chrono::steady_clock;

  struct Read {
    enum class Kind {
      kData,      // `bytes` (> 0) were read
      kEnd,       // the client ended its stream
      kFailed,    // reset, shut down, or a TLS error
      kTimedOut,  // nothing arrived by the deadline
    };
    Kind kind;
    std::size_t bytes = 0;
  };

  virtual ~Transport() = default;

  // Makes the connection ready for requests by `deadline`: nothing to do for plain; the TLS
  // handshake. False when it failed or timed out: the connection is then to be closed without a
  // word (a client that speaks no TLS, or too slowly, gets no HTTP answer).
  [[nodiscard]] virtual bool open(Clock::time_point deadline) = 0;
  // Reads at most space.size() bytes, waiting for them until `deadline`.
  [[nodiscard]] virtual Read read(std::span<char> space, Clock::time_point deadline) = 0;
  // Writes `head` then `body`, all of it; false when the write failed or (unless `wait`) would
  // block, or blocked past write_timeout. With `wait` false it never blocks (the watchdog's
  // answer); what did not fit is then lost and the connection is to close.
  [[nodiscard]] virtual bool write(std::string_view head, std::string_view body, bool wait) = 0;
  // Ends the server's sending side (TLS: close_notify first, without waiting); reads still work.
  virtual void shutdownWrite() = 0;
};

[[nodiscard]] std::unique_ptr<Transport> makePlainTransport(int fd,
                                                            std::chrono::seconds write_timeout);
// The transport keeps `context` alive while it lives (its SSL object and BIO come from it).
// nullptr when OpenSSL is out of memory or `context` is null.
[[nodiscard]] std::unique_ptr<Transport> makeTlsTransport(std::shared_ptr<const TlsContext> context,
                                                          int fd,
                                                          std::chrono::seconds write_timeout);

}  // namespace koord::http::detail
