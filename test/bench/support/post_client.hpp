// A keep-alive libcurl client for the HTTP benchmarks: POSTs JSON bodies to 127.0.0.1 the way
// kube-scheduler's extender client does (one connection reused, no "Expect: 100-continue").
// Not thread-safe; curl_global_init must have been called.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <string>

namespace koord::bench {

class PostClient {
 public:
  explicit PostClient(uint16_t port) : port_(port), curl_(curl_easy_init(), &curl_easy_cleanup) {
    headers_ = curl_slist_append(nullptr, "Content-Type: application/json");
    headers_ = curl_slist_append(headers_, "Expect:");
  }
  ~PostClient() { curl_slist_free_all(headers_); }
  PostClient(const PostClient&) = delete;
  PostClient& operator=(const PostClient&) = delete;

  // POSTs `body` to `path`; returns the HTTP status (0 on a transport error). reply() holds the
  // answer's body.
  long post(const std::string& path, const std::string& body) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port_) + path;
    reply_.clear();
    curl_easy_setopt(curl_.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl_.get(), CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(curl_.get(), CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl_.get(), CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(curl_.get(), CURLOPT_WRITEFUNCTION, &PostClient::append);
    curl_easy_setopt(curl_.get(), CURLOPT_WRITEDATA, &reply_);
    curl_easy_setopt(curl_.get(), CURLOPT_NOSIGNAL, 1L);
    if (curl_easy_perform(curl_.get()) != CURLE_OK) {
      return 0;
    }
    long status = 0;
    curl_easy_getinfo(curl_.get(), CURLINFO_RESPONSE_CODE, &status);
    return status;
  }

  [[nodiscard]] const std::string& reply() const { return reply_; }

 private:
  static size_t append(char* data, size_t size, size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
  }

  uint16_t port_;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl_;
  curl_slist* headers_ = nullptr;
  std::string reply_;
};

}  // namespace koord::bench
