// A self-signed certificate and key for 127.0.0.1, written as PEM files into a directory, for the
// HTTPS tests (generated with OpenSSL; nothing is read from the machine).
#pragma once

#include <string>

namespace koord::extender::server::testing {

struct TlsFiles {
  std::string cert_file;
  std::string key_file;
};

// Writes <dir>/<stem>.crt and <dir>/<stem>.key; returns the paths, or empty paths on failure.
TlsFiles writeSelfSignedCertificate(const std::string& dir, const std::string& stem);

}  // namespace koord::extender::server::testing
