#include "http_client.hpp"

#include <curl/curl.h>

#include <memory>

namespace koord::extender::server::testing {
namespace {

size_t collectBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

}  // namespace

void initClient() {
  curl_global_init(CURL_GLOBAL_ALL);
}

Reply send(uint16_t port, const Request& request) {
  Reply reply;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  const std::string url = std::string(request.https ? "https" : "http") +
                          "://127.0.0.1:" + std::to_string(port) + request.path;
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Expect:");
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_CUSTOMREQUEST, request.method.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers);
  if (request.method != "GET") {
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, collectBody);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, 20000L);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYHOST, 0L);
  const CURLcode code = curl_easy_perform(curl.get());
  curl_slist_free_all(headers);
  if (code != CURLE_OK) {
    reply.error = curl_easy_strerror(code);
    return reply;
  }
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &reply.status);
  char* content_type = nullptr;
  curl_easy_getinfo(curl.get(), CURLINFO_CONTENT_TYPE, &content_type);
  if (content_type != nullptr) {
    reply.content_type = content_type;
  }
  return reply;
}

}  // namespace koord::extender::server::testing
