#include "tls_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <memory>

namespace koord::manager::cert::testing {
namespace {

std::string sslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  char text[256] = "";
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

int connectTo(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return -1;
  }
  const timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::string postRequest(const std::string& path, const std::string& body) {
  return "POST " + path +
         " HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

TlsReply httpsExchange(uint16_t port, const std::string& ca_pem, const std::string& host,
                       WallTime verify_at, const std::string& request) {
  // A server that cuts the connection must not end the test with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  TlsReply reply;
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()),
                                                        &SSL_CTX_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(ca_pem.data(), static_cast<int>(ca_pem.size())), &BIO_free);
  std::unique_ptr<X509, decltype(&X509_free)> ca(
      bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr, &X509_free);
  if (ctx == nullptr || ca == nullptr ||
      X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get()) != 1) {
    reply.error = "cannot set up the client: " + sslError();
    return reply;
  }
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  X509_VERIFY_PARAM_set_time(SSL_CTX_get0_param(ctx.get()),
                             std::chrono::system_clock::to_time_t(verify_at));
  const int fd = connectTo(port);
  if (fd < 0) {
    reply.error = "cannot connect";
    return reply;
  }
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), &SSL_free);
  SSL_set_fd(ssl.get(), fd);
  SSL_set1_host(ssl.get(), host.c_str());
  if (SSL_connect(ssl.get()) != 1) {
    reply.error = "handshake failed: " + sslError() +
                  " (verify: " + X509_verify_cert_error_string(SSL_get_verify_result(ssl.get())) +
                  ")";
    ::close(fd);
    return reply;
  }
  reply.handshake = true;
  if (X509* peer = SSL_get1_peer_certificate(ssl.get())) {
    std::unique_ptr<BIO, decltype(&BIO_free)> out(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_X509(out.get(), peer);
    char* data = nullptr;
    const long size = BIO_get_mem_data(out.get(), &data);
    const Result<CertificateInfo> info =
        parseCertificate(std::string(data, static_cast<std::size_t>(size)));
    if (info.ok()) {
      reply.peer_serial = info->serial;
    }
    X509_free(peer);
  }
  std::size_t sent = 0;
  while (sent < request.size()) {
    const int n =
        SSL_write(ssl.get(), request.data() + sent,
                  static_cast<int>(std::min<std::size_t>(request.size() - sent, 1 << 20)));
    if (n <= 0) {
      break;  // the server may have answered and closed already: read what it said
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string answer;
  char buffer[16384];
  while (true) {
    const int n = SSL_read(ssl.get(), buffer, sizeof(buffer));
    if (n <= 0) {
      break;
    }
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  ERR_clear_error();
  ::close(fd);
  const std::size_t space = answer.find(' ');
  const std::size_t head_end = answer.find("\r\n\r\n");
  if (answer.rfind("HTTP/1.1 ", 0) == 0 && space != std::string::npos &&
      head_end != std::string::npos) {
    reply.status = std::stoi(answer.substr(space + 1, 3));
    reply.body = answer.substr(head_end + 4);
  } else {
    reply.error = "no HTTP answer: '" + answer.substr(0, 200) + "'";
  }
  return reply;
}

}  // namespace koord::manager::cert::testing
