#include "test/support/tls/tls_files.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>

namespace koord::testing {
namespace {

bool writePem(const std::string& path, const std::function<int(FILE*)>& write) {
  FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return false;
  }
  const bool ok = write(file) == 1;
  return std::fclose(file) == 0 && ok;
}

// Removes the process's certificate directory at exit.
struct TemporaryDirectory {
  std::filesystem::path path;
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

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
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, decltype(&X509_EXTENSION_free)> san(
      X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1"),
      &X509_EXTENSION_free);
  if (san == nullptr || X509_add_ext(cert.get(), san.get(), -1) != 1 ||
      X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
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

const TlsFiles& serverCertificate() {
  static const TemporaryDirectory dir{std::filesystem::temp_directory_path() /
                                      ("koord-http-test-" + std::to_string(::getpid()))};
  static const TlsFiles files = [] {
    std::filesystem::create_directories(dir.path);
    return writeSelfSignedCertificate(dir.path.string(), "server");
  }();
  return files;
}

}  // namespace koord::testing
