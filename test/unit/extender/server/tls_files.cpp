#include "tls_files.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <functional>
#include <memory>

namespace koord::extender::server::testing {
namespace {

bool writePem(const std::string& path, const std::function<int(FILE*)>& write) {
  FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return false;
  }
  const bool ok = write(file) == 1;
  return std::fclose(file) == 0 && ok;
}

}  // namespace

TlsFiles writeSelfSignedCertificate(const std::string& dir, const std::string& stem) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
  if (key == nullptr || cert == nullptr) {
    return {};
  }
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    return {};
  }
  TlsFiles files{dir + "/" + stem + ".crt", dir + "/" + stem + ".key"};
  const bool written =
      writePem(files.cert_file, [&](FILE* f) { return PEM_write_X509(f, cert.get()); }) &&
      writePem(files.key_file, [&](FILE* f) {
        return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
      });
  return written ? files : TlsFiles{};
}

}  // namespace koord::extender::server::testing
