// A loopback HTTP(S) client for the extender server tests (libcurl).
#pragma once

#include <cstdint>
#include <string>

namespace koord::extender::server::testing {

struct Reply {
  long status = 0;    // 0 when the transfer failed
  std::string error;  // curl's message when it failed
  std::string content_type;
  std::string body;
};

struct Request {
  std::string method = "GET";
  std::string path = "/";
  std::string body;
  bool https = false;  // without certificate verification, as kube-scheduler without a CA
};

// Call once before send() (curl_global_init).
void initClient();
Reply send(uint16_t port, const Request& request);
inline Reply post(uint16_t port, const std::string& path, const std::string& body) {
  return send(port, Request{"POST", path, body, false});
}
inline Reply get(uint16_t port, const std::string& path) {
  return send(port, Request{"GET", path, "", false});
}

}  // namespace koord::extender::server::testing
