#include "socket_bio.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstdint>

namespace koord::http::detail {
namespace {

int socketOf(BIO* bio) {
  return static_cast<int>(reinterpret_cast<intptr_t>(BIO_get_data(bio)));
}

bool retriable(int error) {
  return error == EAGAIN || error == EWOULDBLOCK || error == EINTR;
}

int bioWrite(BIO* bio, const char* data, int size) {
  BIO_clear_retry_flags(bio);
  const ssize_t n = ::send(socketOf(bio), data, static_cast<std::size_t>(size), MSG_NOSIGNAL);
  if (n < 0 && retriable(errno)) {
    BIO_set_retry_write(bio);
  }
  return static_cast<int>(n);
}

int bioRead(BIO* bio, char* data, int size) {
  BIO_clear_retry_flags(bio);
  const ssize_t n = ::recv(socketOf(bio), data, static_cast<std::size_t>(size), 0);
  if (n < 0 && retriable(errno)) {
    BIO_set_retry_read(bio);
  }
  return static_cast<int>(n);
}

int bioPuts(BIO* bio, const char* text) {
  int size = 0;
  while (text[size] != '\0') {
    ++size;
  }
  return bioWrite(bio, text, size);
}

long bioCtrl(BIO* /*bio*/, int command, long /*number*/, void* /*pointer*/) {
  // Writes go straight to the socket: there is nothing to flush. Every other control (pending
  // bytes, kTLS, ...) is answered "not supported".
  return command == BIO_CTRL_FLUSH ? 1 : 0;
}

int bioCreate(BIO* bio) {
  BIO_set_init(bio, 1);
  return 1;
}

}  // namespace

SocketBio::SocketBio() {
  method_ = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "koord socket");
  if (method_ == nullptr) {
    return;
  }
  BIO_meth_set_write(method_, bioWrite);
  BIO_meth_set_read(method_, bioRead);
  BIO_meth_set_puts(method_, bioPuts);
  BIO_meth_set_ctrl(method_, bioCtrl);
  BIO_meth_set_create(method_, bioCreate);
}

SocketBio::~SocketBio() {
  BIO_meth_free(method_);
}

BIO* SocketBio::wrap(int fd) const {
  if (method_ == nullptr) {
    return nullptr;
  }
  BIO* bio = BIO_new(method_);
  if (bio != nullptr) {
    BIO_set_data(bio, reinterpret_cast<void*>(static_cast<intptr_t>(fd)));
  }
  return bio;
}

}  // namespace koord::http::detail
