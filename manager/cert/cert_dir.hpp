// CertDir: the directory koord-manager's webhook server reads its certificate from
// (--webhook-cert-dir; Koordinator's WEBHOOK_CERT_DIR, default /tmp/koordinator-webhook-certs).
//
// write() puts the serving certificate in tls.crt (mode 0644) and its key in tls.key (mode 0600),
// creating the directory when missing. Each file is written to a temporary file in the
// same directory and renamed over the old one, so a reader never sees a half-written file; a
// file that already holds the same bytes is left alone. Not thread-safe: one writer (the
// certificate controller).
#pragma once

#include <string>

#include "koord/common/result.hpp"
#include "manager/cert/certificates.hpp"

namespace koord::manager::cert {

inline constexpr char kDefaultCertDir[] = "/tmp/koordinator-webhook-certs";

class CertDir {
 public:
  explicit CertDir(std::string dir) : dir_(std::move(dir)) {}

  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] std::string certFile() const { return dir_ + "/tls.crt"; }
  [[nodiscard]] std::string keyFile() const { return dir_ + "/tls.key"; }

  // Returns whether either file changed. A failure names the path, with the code its errno
  // maps to ("failed to write '<path>': <strerror>"; Status::fromErrno).
  [[nodiscard]] Result<bool> write(const KeyPair& serving) const;

 private:
  std::string dir_;
};

}  // namespace koord::manager::cert
