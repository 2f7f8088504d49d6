#include "test_client.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

namespace koord::http::testing {
namespace {

size_t collectBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t collectHeader(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string line(data, size * count);
  const size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r\n") + 1);
    (*headers)[name] = value;
  }
  return size * count;
}

struct Upload {
  const std::string* body;
  size_t offset = 0;
};

size_t readUpload(char* buffer, size_t size, size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  const size_t n = std::min(size * count, upload->body->size() - upload->offset);
  std::memcpy(buffer, upload->body->data() + upload->offset, n);
  upload->offset += n;
  return n;
}

int connectTo(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

void initClient() {
  curl_global_init(CURL_GLOBAL_DEFAULT);
}

ClientReply send(const Endpoint& endpoint, const ClientRequest& request) {
  ClientReply reply;
  CURL* curl = curl_easy_init();
  const std::string url = std::string(endpoint.tls() ? "https" : "http") +
                          "://127.0.0.1:" + std::to_string(endpoint.port) + request.target;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  if (endpoint.tls()) {
    curl_easy_setopt(curl, CURLOPT_CAINFO, endpoint.ca_file.c_str());
    curl_easy_setopt(curl, CURLOPT_CAPATH, nullptr);
  }
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collectBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collectHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &reply.headers);
  curl_slist* headers = curl_slist_append(nullptr, "Expect:");
  for (const std::string& header : request.headers) {
    headers = curl_slist_append(headers, header.c_str());
  }
  Upload upload{&request.body};
  if (request.chunked) {
    headers = curl_slist_append(headers, "Transfer-Encoding: chunked");
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, readUpload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
  } else if (!request.body.empty() || request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
  const bool get_with_body = request.method == "GET" && (!request.body.empty() || request.chunked);
  if ((request.method != "GET" && request.method != "POST") || get_with_body) {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  } else if (request.method == "POST" && request.body.empty() && !request.chunked) {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  const CURLcode code = curl_easy_perform(curl);
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  } else {
    reply.error = curl_easy_strerror(code);
    // A response read before the failure (e.g. the server closed while we were still sending).
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return reply;
}

ClientReply get(const Endpoint& endpoint, const std::string& target) {
  ClientRequest request;
  request.target = target;
  return send(endpoint, request);
}

std::string sendRaw(const Endpoint& endpoint, const std::string& raw, int idle_ms) {
  RawConnection connection(endpoint);
  if (!connection.connected()) {
    return endpoint.tls() ? "<handshake failed>" : "<connect failed>";
  }
  connection.send(raw);
  return connection.readAll(idle_ms);
}

size_t sendUntilCut(const Endpoint& endpoint, const std::string& head, size_t max_body) {
  RawConnection connection(endpoint);
  if (!connection.connected()) {
    return 0;
  }
  connection.setSendTimeout(5);
  size_t sent = 0;
  const std::string zeros(64 * 1024, '\0');
  bool ok = connection.send(head);
  while (ok && sent < max_body) {
    ok = connection.send(zeros);
    sent += ok ? zeros.size() : 0;
  }
  return sent;
}

bool canConnect(const Endpoint& endpoint) {
  const int fd = connectTo(endpoint.port);
  if (fd < 0) {
    return false;
  }
  ::close(fd);
  return true;
}

RawConnection::RawConnection(const Endpoint& endpoint, bool handshake)
    : fd_(connectTo(endpoint.port)), tls_(endpoint.tls() && handshake) {
  if (fd_ < 0 || !tls_) {
    return;
  }
  // Blocking reads and writes that give up after 10 s, so that a test never hangs on the server.
  const timeval timeout{10, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  ctx_ = SSL_CTX_new(TLS_client_method());
  if (ctx_ == nullptr ||
      SSL_CTX_load_verify_locations(ctx_, endpoint.ca_file.c_str(), nullptr) != 1) {
    return;
  }
  SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
  // SSL_read returns after a record without application data (a session ticket) rather than
  // blocking for the next one, so that reads keep to their timeouts.
  SSL_CTX_clear_mode(ctx_, SSL_MODE_AUTO_RETRY);
  SSL* ssl = SSL_new(ctx_);
  // Writes with MSG_NOSIGNAL (the server's own BIO): a server that cuts the connection must not
  // kill the test with SIGPIPE.
  BIO* bio = bio_method_.wrap(fd_);
  if (ssl == nullptr || bio == nullptr) {
    BIO_free(bio);
    SSL_free(ssl);
    return;
  }
  SSL_set_bio(ssl, bio, bio);
  SSL_set1_host(ssl, "127.0.0.1");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (true) {
    ERR_clear_error();
    const int rc = SSL_connect(ssl);
    if (rc == 1) {
      break;
    }
    const int error = SSL_get_error(ssl, rc);
    ERR_clear_error();
    if ((error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) ||
        std::chrono::steady_clock::now() > deadline) {
      SSL_free(ssl);
      return;
    }
  }
  ssl_ = ssl;
}

RawConnection::~RawConnection() {
  SSL_free(ssl_);
  SSL_CTX_free(ctx_);
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

std::string RawConnection::tlsVersion() const {
  return ssl_ != nullptr ? SSL_get_version(ssl_) : "";
}

void RawConnection::setSendTimeout(int seconds) {
  const timeval timeout{seconds, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
}

bool RawConnection::send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = 0;
    if (tls_) {
      ERR_clear_error();
      n = ssl_ == nullptr ? -1
                          : SSL_write(ssl_, bytes.data(),
                                      static_cast<int>(std::min<size_t>(bytes.size(), 1 << 30)));
    } else {
      n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    }
    if (n <= 0) {
      ERR_clear_error();
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

long RawConnection::receive(char* chunk, size_t size, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    if (!tls_ || ssl_ == nullptr || SSL_pending(ssl_) == 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd pfd{fd_, POLLIN, 0};
      if (left.count() < 0 || ::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) {
        return -1;
      }
    }
    if (!tls_) {
      const ssize_t n = ::recv(fd_, chunk, size, 0);
      return n > 0 ? static_cast<long>(n) : 0;
    }
    if (ssl_ == nullptr) {
      return 0;
    }
    ERR_clear_error();
    const int n = SSL_read(ssl_, chunk, static_cast<int>(size));
    if (n > 0) {
      return n;
    }
    const int error = SSL_get_error(ssl_, n);
    ERR_clear_error();
    if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) {
      return 0;
    }
    // A record without application data (TLS 1.3's session tickets): wait for more.
  }
}

bool RawConnection::fill(int timeout_ms) {
  char chunk[16384];
  const long n = receive(chunk, sizeof(chunk), timeout_ms);
  if (n <= 0) {
    return false;
  }
  buffer_.append(chunk, static_cast<size_t>(n));
  return true;
}

std::string RawConnection::readAll(int idle_ms) {
  while (fill(idle_ms)) {
  }
  std::string out;
  out.swap(buffer_);
  return out;
}

std::optional<RawReply> RawConnection::read(int timeout_ms, bool head_only) {
  size_t head_end = std::string::npos;
  while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!fill(timeout_ms)) {
      return std::nullopt;
    }
  }
  RawReply reply;
  const std::string head = buffer_.substr(0, head_end + 2);
  buffer_.erase(0, head_end + 4);
  if (head.rfind("HTTP/1.", 0) != 0 || head.size() < 12) {
    return std::nullopt;
  }
  reply.status = std::stoi(head.substr(9, 3));
  for (size_t line = head.find("\r\n") + 2; line < head.size();) {
    const size_t end = head.find("\r\n", line);
    const std::string field = head.substr(line, end - line);
    line = end + 2;
    const size_t colon = field.find(':');
    if (colon == std::string::npos) {
      continue;
    }
    std::string name = field.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string value = field.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    reply.headers[name] = value;
  }
  const size_t length = head_only || reply.header("content-length").empty()
                            ? 0
                            : std::stoul(reply.header("content-length"));
  while (buffer_.size() < length) {
    if (!fill(timeout_ms)) {
      return std::nullopt;
    }
  }
  reply.body = buffer_.substr(0, length);
  buffer_.erase(0, length);
  return reply;
}

bool RawConnection::closedWithin(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char chunk[4096];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return false;
    }
    const long n = receive(chunk, sizeof(chunk), static_cast<int>(left.count()));
    if (n < 0) {
      return false;
    }
    if (n == 0) {
      return true;
    }
  }
}

}  // namespace koord::http::testing
