// SocketBio: an OpenSSL BIO over a connected socket that never raises SIGPIPE (private to
// koord_http).
//
// OpenSSL's own socket BIO writes with write(2), which raises SIGPIPE when the peer has gone; a
// library must not change the process's signal disposition, so this BIO sends with MSG_NOSIGNAL
// instead. Reads and writes are single recv(2)/send(2) calls: on a non-blocking socket, EAGAIN
// sets the BIO's retry flag (SSL_ERROR_WANT_READ/WRITE); EINTR retries too. The BIO does not own
// the socket: freeing it leaves the descriptor open.
#pragma once

#include <openssl/bio.h>

namespace koord::http::detail {

class SocketBio {
 public:
  // Creates the BIO method; an object with no method (method() == nullptr) when OpenSSL is out of
  // memory.
  SocketBio();
  SocketBio(const SocketBio&) = delete;
  SocketBio& operator=(const SocketBio&) = delete;
  ~SocketBio();

  [[nodiscard]] const BIO_METHOD* method() const { return method_; }
  // A new BIO over `fd` (the caller owns it, e.g. through SSL_set_bio); nullptr on failure.
  [[nodiscard]] BIO* wrap(int fd) const;

 private:
  BIO_METHOD* method_ = nullptr;
};

}  // namespace koord::http::detail
