// The two ways the HttpServer serves, as a test parameter, so that every server test runs on both:
// "Plain" (HTTP) and "Tls" (HTTPS with the test certificate, tls_files.hpp). Both are the socket
// server (what HttpServer::create picks); the clients of test_client.hpp speak TLS to an Endpoint
// that carries the certificate to trust.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "koord/http/server.hpp"
#include "socket_server.hpp"
#include "test/support/tls/tls_files.hpp"
#include "test_client.hpp"

namespace koord::http::testing {

struct Backend {
  std::string name;
  bool tls;

  // Creates the server, with the test certificate and key when `tls`.
  [[nodiscard]] Result<std::unique_ptr<HttpServer>> create(HttpServerOptions options) const {
    if (tls) {
      options.tls_cert_file = koord::testing::serverCertificate().cert_file;
      options.tls_key_file = koord::testing::serverCertificate().key_file;
    }
    return detail::createSocketServer(options);
  }
  // Where the test clients reach a server of this kind listening on `port`.
  [[nodiscard]] Endpoint endpoint(uint16_t port) const {
    return Endpoint{port, tls ? koord::testing::serverCertificate().cert_file : ""};
  }
};

// Names the parameter in gtest's messages.
inline void PrintTo(const Backend& backend, std::ostream* os) {
  *os << backend.name;
}

inline auto allBackends() {
  return ::testing::Values(Backend{"Plain", false}, Backend{"Tls", true});
}

inline std::string backendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param.name;
}

}  // namespace koord::http::testing
