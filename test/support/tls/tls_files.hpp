// Self-signed certificates for the HTTPS tests (the core library's server, koord-extender's),
// generated with OpenSSL into a temporary directory (nothing is read from the machine): EC P-256,
// valid for an hour, subjectAltName IP 127.0.0.1 so that clients verify the server as they would in
// production.
#pragma once

#include <string>

namespace koord::testing {

struct TlsFiles {
  std::string cert_file;
  std::string key_file;
};

// Writes <dir>/<stem>.crt and <dir>/<stem>.key; empty paths on failure.
TlsFiles writeSelfSignedCertificate(const std::string& dir, const std::string& stem);

// One certificate for the whole test process, written on first use under the temporary directory
// (removed at exit); the server presents it and the clients trust it as their only CA.
const TlsFiles& serverCertificate();

}  // namespace koord::testing
