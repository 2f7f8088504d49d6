// A one-request HTTPS client over OpenSSL for the webhook server tests: it trusts only the CA
// given (PEM), checks the server's certificate names `host` (an IP address or DNS name) and is
// valid at `verify_at` (the tests' fake wall time), sends a raw request and reads the answer until
// the server closes the connection.
#pragma once

#include <cstdint>
#include <string>

#include "manager/cert/certificates.hpp"

namespace koord::manager::cert::testing {

struct TlsReply {
  bool handshake = false;  // the TLS handshake, with verification, succeeded
  std::string error;       // why it did not
  int status = 0;          // 0 when no answer was read
  std::string body;
  std::string peer_serial;  // the server certificate's serial, as parseCertificate() writes it
};

// `request` is sent as is (it should carry "Connection: close").
TlsReply httpsExchange(uint16_t port, const std::string& ca_pem, const std::string& host,
                       WallTime verify_at, const std::string& request);

// A POST of `body` to `path` with Connection: close.
std::string postRequest(const std::string& path, const std::string& body);

}  // namespace koord::manager::cert::testing
