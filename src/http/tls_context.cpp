#include "tls_context.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <fstream>
#include <iterator>
#include <optional>

namespace koord::http::detail {
namespace {

// The first reason in OpenSSL's error queue of this thread (which is then emptied), or
// `fallback` when the queue holds none.
std::string sslError(const std::string& fallback) {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) {
    return fallback;
  }
  const char* reason = ERR_reason_error_string(code);
  return reason != nullptr ? reason : "OpenSSL error " + std::to_string(code);
}

Result<std::string> readPem(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::invalidArgument("failed to read TLS " + std::string(what) + " '" + path +
                                   "': cannot open the file");
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return Status::invalidArgument("failed to read TLS " + std::string(what) + " '" + path +
                                   "': read error");
  }
  return data;
}

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;

Bio memoryBio(const std::string& pem) {
  return {BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free};
}

// Loads the leaf certificate and the chain after it into `ctx`; the reason when it fails.
std::optional<std::string> useCertificateChain(SSL_CTX* ctx, const std::string& pem) {
  Bio bio = memoryBio(pem);
  if (bio == nullptr) {
    return sslError("out of memory");
  }
  std::unique_ptr<X509, decltype(&X509_free)> leaf(
      PEM_read_bio_X509_AUX(bio.get(), nullptr, nullptr, nullptr), &X509_free);
  if (leaf == nullptr) {
    return sslError("no PEM certificate");
  }
  if (SSL_CTX_use_certificate(ctx, leaf.get()) != 1) {
    return sslError("the certificate is not usable");
  }
  while (X509* next = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    if (SSL_CTX_add0_chain_cert(ctx, next) != 1) {
      X509_free(next);
      return sslError("the certificate chain is not usable");
    }
  }
  // The loop ends at the end of the PEM text, which OpenSSL records as "no start line".
  const unsigned long last = ERR_peek_last_error();
  if (ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE) {
    ERR_clear_error();
    return std::nullopt;
  }
  return last == 0 ? std::nullopt : std::optional<std::string>(sslError(""));
}

// Loads the private key into `ctx`, after the certificate; the error names the key file.
Status usePrivateKey(SSL_CTX* ctx, const std::string& pem, const std::string& key_file,
                     const std::string& cert_file) {
  const auto failure = [&](const std::string& cause) {
    return Status::invalidArgument("failed to load TLS key '" + key_file + "': " + cause);
  };
  Bio bio = memoryBio(pem);
  if (bio == nullptr) {
    return failure(sslError("out of memory"));
  }
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
  if (key == nullptr) {
    return failure(sslError("no PEM private key"));
  }
  if (X509_check_private_key(SSL_CTX_get0_certificate(ctx), key.get()) != 1) {
    ERR_clear_error();
    return failure("it does not match the certificate '" + cert_file + "'");
  }
  if (SSL_CTX_use_PrivateKey(ctx, key.get()) != 1) {
    return failure(sslError("the key is not usable"));
  }
  return Status::ok();
}

}  // namespace

Result<std::unique_ptr<TlsContext>> TlsContext::load(const std::string& cert_file,
                                                     const std::string& key_file) {
  KOORD_ASSIGN_OR_RETURN(const std::string cert_pem, readPem(cert_file, "certificate"));
  KOORD_ASSIGN_OR_RETURN(const std::string key_pem, readPem(key_file, "key"));
  ERR_clear_error();
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx == nullptr) {
    return Status::invalidArgument("failed to set up TLS: " + sslError("out of memory"));
  }
  std::unique_ptr<TlsContext> context(new TlsContext(ctx));
  if (context->bio_.method() == nullptr) {
    return Status::invalidArgument("failed to set up TLS: out of memory");
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION |
                               SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
  if (const auto error = useCertificateChain(ctx, cert_pem)) {
    return Status::invalidArgument("failed to load TLS certificate '" + cert_file + "': " + *error);
  }
  KOORD_RETURN_IF_ERROR(usePrivateKey(ctx, key_pem, key_file, cert_file));
  return context;
}

TlsContext::~TlsContext() {
  SSL_CTX_free(ctx_);
}

SSL* TlsContext::newSession(int fd) const {
  SSL* ssl = SSL_new(ctx_);
  if (ssl == nullptr) {
    return nullptr;
  }
  BIO* bio = bio_.wrap(fd);
  if (bio == nullptr) {
    SSL_free(ssl);
    return nullptr;
  }
  SSL_set_bio(ssl, bio, bio);
  SSL_set_accept_state(ssl);
  return ssl;
}

}  // namespace koord::http::detail
