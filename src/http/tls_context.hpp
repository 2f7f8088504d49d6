// TlsContext: the server side of TLS for the socket server, loaded once from a PEM certificate
// chain and its PEM private key (private to koord_http).
//
// load() reads both files and checks that they load and match, with the messages start() reports
// (kInvalidArgument): "failed to read TLS certificate|key '<path>': cannot open the file",
// "failed to load TLS certificate '<path>': <OpenSSL's reason>", "failed to load TLS key '<path>':
// <reason>", "failed to load TLS key '<key>': it does not match the certificate '<cert>'". A
// context never changes once loaded: HttpServer::reloadTls() loads a new one for the connections
// accepted after it.
//
// The context accepts TLS 1.2 and 1.3 only, with OpenSSL's default ciphers at its default
// security level, no renegotiation and no compression; idle connections give their read and write
// buffers back (SSL_MODE_RELEASE_BUFFERS), so that the connection limit, not TLS, bounds the memory
// of idle connections. A client's end of stream without close_notify counts as an ordinary end
// (HTTP's own framing tells a cut body). Thread-safe once loaded: each connection takes its own
// SSL object from it.
#pragma once

#include <openssl/ssl.h>

#include <memory>
#include <string>

#include "koord/common/result.hpp"
#include "socket_bio.hpp"

namespace koord::http::detail {

class TlsContext {
 public:
  [[nodiscard]] static Result<std::unique_ptr<TlsContext>> load(const std::string& cert_file,
                                                                const std::string& key_file);
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;
  ~TlsContext();

  // A new server-side SSL object over the connected socket `fd` (which it does not own); nullptr
  // when OpenSSL is out of memory.
  [[nodiscard]] SSL* newSession(int fd) const;

 private:
  explicit TlsContext(SSL_CTX* ctx) : ctx_(ctx) {}

  SSL_CTX* ctx_;
  SocketBio bio_;
};

}  // namespace koord::http::detail
