// Loopback HTTP clients for the server tests: libcurl for well-formed requests, a raw socket for
// malformed ones.
#pragma once

#include <cstdint>
#include <map>
#include <string>
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

}  // namespace koord::http::testing
