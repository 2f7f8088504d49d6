// The two HttpServer back ends as a test parameter, so that every server test runs on both:
// "Socket" (plain HTTP over POSIX sockets, what HttpServer::create picks without TLS) and "Cpprest"
// (cpprestsdk, used for HTTPS).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "koord/http/server.hpp"
#include "socket_server.hpp"

namespace koord::http::testing {

struct Backend {
  std::string name;
  Result<std::unique_ptr<HttpServer>> (*create)(const HttpServerOptions&);
  bool socket;  // the socket back end (some protocol features exist only there)
};

// Names the parameter in gtest's messages.
inline void PrintTo(const Backend& backend, std::ostream* os) {
  *os << backend.name;
}

inline auto allBackends() {
  return ::testing::Values(Backend{"Socket", &detail::createSocketServer, true},
                           Backend{"Cpprest", &detail::createCpprestServer, false});
}

inline std::string backendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param.name;
}

}  // namespace koord::http::testing
