#include "test_client.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
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

ClientReply send(uint16_t port, const ClientRequest& request) {
  ClientReply reply;
  CURL* curl = curl_easy_init();
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + request.target;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
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

ClientReply get(uint16_t port, const std::string& target) {
  ClientRequest request;
  request.target = target;
  return send(port, request);
}

std::string sendRaw(uint16_t port, const std::string& raw, int idle_ms) {
  const int fd = connectTo(port);
  if (fd < 0) {
    return "<connect failed>";
  }
  size_t sent = 0;
  while (sent < raw.size()) {
    const ssize_t n = ::send(fd, raw.data() + sent, raw.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      break;
    }
    sent += static_cast<size_t>(n);
  }
  std::string out;
  char buffer[4096];
  while (true) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, idle_ms) <= 0) {
      break;
    }
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) {
      break;
    }
    out.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

size_t sendUntilCut(uint16_t port, const std::string& head, size_t max_body) {
  const int fd = connectTo(port);
  if (fd < 0) {
    return 0;
  }
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  size_t sent = 0;
  const std::string zeros(64 * 1024, '\0');
  bool ok = ::send(fd, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size());
  while (ok && sent < max_body) {
    const ssize_t n = ::send(fd, zeros.data(), zeros.size(), MSG_NOSIGNAL);
    ok = n > 0;
    sent += ok ? static_cast<size_t>(n) : 0;
  }
  ::close(fd);
  return sent;
}

bool canConnect(uint16_t port) {
  const int fd = connectTo(port);
  if (fd < 0) {
    return false;
  }
  ::close(fd);
  return true;
}

RawConnection::RawConnection(uint16_t port) : fd_(connectTo(port)) {}

RawConnection::~RawConnection() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

bool RawConnection::send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool RawConnection::fill(int timeout_ms) {
  pollfd pfd{fd_, POLLIN, 0};
  if (::poll(&pfd, 1, timeout_ms) <= 0) {
    return false;
  }
  char chunk[16384];
  const ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
  if (n <= 0) {
    return false;
  }
  buffer_.append(chunk, static_cast<size_t>(n));
  return true;
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
    pollfd pfd{fd_, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) {
      return false;
    }
    if (::recv(fd_, chunk, sizeof(chunk), 0) <= 0) {
      return true;
    }
  }
}

}  // namespace koord::http::testing

// LeakSanitizer (asan preset): when a pplx task_completion_event is destroyed without being set
// (cpprestsdk does this for requests it answers itself, e.g. malformed ones), pplx schedules the
// cancelled continuations on cpprestsdk's thread pool; those still queued when the test process
// exits are reported as leaked. Only that exit-time path is suppressed.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:_Task_completion_event_impl\n";
}
