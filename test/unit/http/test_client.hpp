// Loopback HTTP clients for the server tests: libcurl for well-formed requests, a raw socket for
// malformed ones.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace koord::http::testing {

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
ClientReply send(uint16_t port, const ClientRequest& request);
// A GET of `target`.
ClientReply get(uint16_t port, const std::string& target);

// Writes `raw` to a new connection and returns everything read until the server closes it, or
// until nothing arrives for `idle_ms`.
std::string sendRaw(uint16_t port, const std::string& raw, int idle_ms = 3000);

// Sends `head` then zeros, up to `max_body` bytes, until the server stops taking them (the
// connection is reset or nothing is accepted for 5 s). Returns how many body bytes were sent.
size_t sendUntilCut(uint16_t port, const std::string& head, size_t max_body);

// Whether a TCP connection to the port is accepted.
bool canConnect(uint16_t port);

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
// can share the connection, back to back or pipelined.
class RawConnection {
 public:
  explicit RawConnection(uint16_t port);
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  ~RawConnection();

  [[nodiscard]] bool connected() const { return fd_ >= 0; }
  bool send(std::string_view bytes);
  // The next answer (a "100 Continue" counts as one), or nullopt when none arrived within
  // timeout_ms or the connection ended first. With `head_only`, no body is read (answers to HEAD).
  std::optional<RawReply> read(int timeout_ms = 5000, bool head_only = false);
  // Whether the server closes the connection within timeout_ms (bytes still unread are dropped).
  bool closedWithin(int timeout_ms);

 private:
  // Reads more into buffer_; false on end of stream, error or timeout.
  bool fill(int timeout_ms);

  int fd_ = -1;
  std::string buffer_;
};

}  // namespace koord::http::testing
