// Loopback HTTP and HTTPS clients for the server tests: libcurl for well-formed requests, a raw
// socket (under OpenSSL for HTTPS) for malformed ones.
#pragma once

#include <openssl/ssl.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "socket_bio.hpp"

namespace koord::http::testing {

// Where a test server listens: plain HTTP, or HTTPS when `ca_file` names the certificate (PEM)
// that the clients trust as their only CA, verifying the server's name (127.0.0.1) against it.
struct Endpoint {
  // A bare port is a plain-HTTP endpoint, so that `get(port, "/x")` reads as it always did.
  Endpoint(uint16_t p = 0, std::string ca = "")  // NOLINT(google-explicit-constructor)
      : port(p), ca_file(std::move(ca)) {}

  uint16_t port = 0;
  std::string ca_file;

  [[nodiscard]] bool tls() const { return !ca_file.empty(); }
};

struct ClientReply {
  long status = 0;                             // 0 when the transfer failed
  std::string error;                           // curl's message when it failed
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;

  // The header's value ("" when absent); `name` in lower case.
  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

struct ClientRequest {
  std::string method = "GET";
  std::string target = "/";  // path and query
  std::string body;
  std::vector<std::string> headers;  // "Name: value"
  bool chunked = false;              // send the body with Transfer-Encoding: chunked
  long timeout_ms = 20000;
};

// Call once before any other function here (curl_global_init).
void initClient();
ClientReply send(const Endpoint& endpoint, const ClientRequest& request);
// A GET of `target`.
ClientReply get(const Endpoint& endpoint, const std::string& target);

// Writes `raw` to a new connection and returns everything read until the server closes it, or
// until nothing arrives for `idle_ms`. Over TLS, "<handshake failed>" when that failed.
std::string sendRaw(const Endpoint& endpoint, const std::string& raw, int idle_ms = 3000);

// Sends `head` then zeros, up to `max_body` bytes, until the server stops taking them (the
// connection is reset or nothing is accepted for 5 s). Returns how many body bytes were sent.
size_t sendUntilCut(const Endpoint& endpoint, const std::string& head, size_t max_body);

// Whether a TCP connection to the port is accepted (no TLS handshake).
bool canConnect(const Endpoint& endpoint);

// One answer as RawConnection reads it.
struct RawReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;

  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// A raw client connection for protocol tests: sends bytes as given and reads answers one at a
// time (a body is read by Content-Length; without one, none is expected), so that several requests
// can share the connection, back to back or pipelined. Over TLS it shakes hands first (within
// 10 s) unless `handshake` is false: then it is a bare TCP connection to the TLS port, which sends
// what it is given as is.
class RawConnection {
 public:
  explicit RawConnection(const Endpoint& endpoint, bool handshake = true);
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  ~RawConnection();

  // Connected, and over TLS the handshake succeeded.
  [[nodiscard]] bool connected() const { return fd_ >= 0 && (!tls_ || ssl_ != nullptr); }
  // The TLS version agreed ("TLSv1.3"); "" without TLS.
  [[nodiscard]] std::string tlsVersion() const;
  bool send(std::string_view bytes);
  // The next answer (a "100 Continue" counts as one), or nullopt when none arrived within
  // timeout_ms or the connection ended first. With `head_only`, no body is read (answers to HEAD).
  std::optional<RawReply> read(int timeout_ms = 5000, bool head_only = false);
  // Whether the server closes the connection within timeout_ms (bytes still unread are dropped).
  bool closedWithin(int timeout_ms);
  // Everything that arrives until the server closes the connection or nothing comes for idle_ms.
  std::string readAll(int idle_ms);
  // A send() that cannot go on for `seconds` fails.
  void setSendTimeout(int seconds);

 private:
  // Reads more into buffer_; false on end of stream, error or timeout.
  bool fill(int timeout_ms);

  // Reads what is there (TLS: decrypted) into `chunk`: > 0 bytes; 0 at the end of the stream or
  // on an error; -1 when nothing came within timeout_ms.
  long receive(char* chunk, size_t size, int timeout_ms);

  detail::SocketBio bio_method_;
  int fd_ = -1;
  bool tls_ = false;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  std::string buffer_;
};

}  // namespace koord::http::testing
