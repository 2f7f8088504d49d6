#include "koord/k8s/rest_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "koord/config/file.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::k8s {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);
constexpr auto kMaxRetryAfter = std::chrono::seconds(60);
constexpr size_t kMaxErrorBody = size_t{64} * 1024;

void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool isIdempotent(std::string_view method) {
  return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" ||
         method == "OPTIONS";
}

// Nothing reached the server: safe to retry any method.
bool notSent(CURLcode code) {
  return code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
         code == CURLE_COULDNT_RESOLVE_PROXY;
}

// The connection broke during the exchange: only an idempotent request may be sent again.
bool brokenMidway(CURLcode code) {
  return code == CURLE_SEND_ERROR || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING ||
         code == CURLE_PARTIAL_FILE;
}

Status curlFailure(CURLcode code, const char* errbuf, std::string_view method,
                   std::string_view path) {
  std::string cause = errbuf != nullptr && errbuf[0] != '\0' ? errbuf : curl_easy_strerror(code);
  std::string msg = "failed to ";
  msg += method;
  msg += " '";
  msg += path;
  msg += "': ";
  msg += cause;
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return Status::deadlineExceeded(std::move(msg));
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CIPHER:
      return Status::failedPrecondition(std::move(msg));
    default:
      return Status::unavailable(std::move(msg));
  }
}

void applyBlob(CURL* curl, CURLoption option, const std::string& data) {
  curl_blob blob{};
  blob.data = const_cast<char*>(data.data());  // copied by libcurl (CURL_BLOB_COPY)
  blob.len = data.size();
  blob.flags = CURL_BLOB_COPY;
  curl_easy_setopt(curl, option, &blob);
}

struct Transfer {
  std::string body;
  size_t max_bytes = 0;
  bool too_large = false;
  // Streaming: set when the reply is 2xx.
  const std::function<bool(std::string_view)>* on_chunk = nullptr;
  bool stopped_by_callback = false;
  CURL* curl = nullptr;
};

size_t writeBody(char* data, size_t size, size_t nmemb, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * nmemb;
  if (t->on_chunk != nullptr) {
    long code = 0;
    curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
    if (code >= 200 && code < 300) {
      if (!(*t->on_chunk)(std::string_view(data, n))) {
        t->stopped_by_callback = true;
        return 0;
      }
      return n;
    }
  }
  if (t->body.size() + n > t->max_bytes) {
    t->too_large = true;
    return 0;
  }
  t->body.append(data, n);
  return n;
}

class CurlList {
 public:
  CurlList() = default;
  CurlList(const CurlList&) = delete;
  CurlList& operator=(const CurlList&) = delete;
  ~CurlList() { curl_slist_free_all(list_); }
  void add(const std::string& line) { list_ = curl_slist_append(list_, line.c_str()); }
  [[nodiscard]] curl_slist* get() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

}  // namespace

class RestClient::Impl {
 public:
  Impl(const ClientConfig& config, RestClientOptions options)
      : config_(config),
        options_(std::move(options)),
        limiter_(config.qps, config.burst, options_.clock) {
    if (!options_.sleep) {
      options_.sleep = [](std::chrono::nanoseconds d) { std::this_thread::sleep_for(d); };
    }
  }

  ~Impl() {
    for (CURL* c : idle_) {
      curl_easy_cleanup(c);
    }
  }

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // A handle for one request: a pooled one as its last request left it (configure() done, the
  // per-request options to be set again by the caller), or a new one with configure() applied.
  // Not resetting a pooled handle spares re-copying the TLS material and re-setting every option
  // (test/bench/client/client_cost.cpp measures what a request costs the client).
  CURL* acquire() {
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      if (!idle_.empty()) {
        CURL* c = idle_.back();
        idle_.pop_back();
        return c;
      }
    }
    CURL* c = curl_easy_init();
    if (c != nullptr) {
      configure(c);
    }
    return c;
  }

  // Takes one of max_connections request slots, waiting at most `timeout`; false when none came
  // free in time. With no cap, always true at once.
  bool enter(std::chrono::milliseconds timeout) {
    if (options_.max_connections <= 0) {
      return true;
    }
    std::unique_lock<std::mutex> lock(pool_mu_);
    if (!slots_cv_.wait_for(lock, timeout,
                            [this] { return in_flight_ < options_.max_connections; })) {
      return false;
    }
    ++in_flight_;
    return true;
  }

  void leave() {
    if (options_.max_connections <= 0) {
      return;
    }
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      --in_flight_;
    }
    slots_cv_.notify_one();
  }

  // Returns a handle to the pool (or frees it when the pool is full). The options that pointed
  // at the finished request's memory are cleared first.
  void release(CURL* c) {
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, nullptr);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, nullptr);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, nullptr);
    std::lock_guard<std::mutex> lock(pool_mu_);
    if (static_cast<int>(idle_.size()) < options_.max_idle_handles) {
      idle_.push_back(c);
      return;
    }
    curl_easy_cleanup(c);
  }

  // The bearer token, re-read from token_file when that file changed.
  Result<std::string> token() {
    if (config_.token_file.empty()) {
      return config_.bearer_token;
    }
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(config_.token_file, ec);
    const auto size = ec ? 0 : std::filesystem::file_size(config_.token_file, ec);
    std::lock_guard<std::mutex> lock(token_mu_);
    if (!ec && token_loaded_ && mtime == token_mtime_ && size == token_size_) {
      return token_;
    }
    auto text = config::readFile(config_.token_file, 1 << 20);
    if (!text.ok()) {
      if (token_loaded_) {
        return token_;  // keep the last good token while the file is being replaced
      }
      return text.status().withPrefix("failed to read token file");
    }
    std::string t = std::move(text).value();
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) {
      t.pop_back();
    }
    token_ = std::move(t);
    token_loaded_ = true;
    token_mtime_ = mtime;
    token_size_ = size;
    return token_;
  }

  // The options that are the same for every request of this client: set once per handle.
  void configure(CURL* c) {
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, config_.user_agent.c_str());
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    if (config_.insecure) {
      curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!config_.ca_data.empty()) {
      applyBlob(c, CURLOPT_CAINFO_BLOB, config_.ca_data);
    } else if (!config_.ca_file.empty()) {
      curl_easy_setopt(c, CURLOPT_CAINFO, config_.ca_file.c_str());
    }
    if (!config_.cert_data.empty()) {
      applyBlob(c, CURLOPT_SSLCERT_BLOB, config_.cert_data);
      curl_easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
    } else if (!config_.cert_file.empty()) {
      curl_easy_setopt(c, CURLOPT_SSLCERT, config_.cert_file.c_str());
    }
    if (!config_.key_data.empty()) {
      applyBlob(c, CURLOPT_SSLKEY_BLOB, config_.key_data);
      curl_easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
    } else if (!config_.key_file.empty()) {
      curl_easy_setopt(c, CURLOPT_SSLKEY, config_.key_file.c_str());
    }
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, writeBody);
  }

  // Sets the URL, headers and error buffer of one request; the method, body, timeout and write
  // target are the caller's.
  Status prepare(CURL* c, std::string_view path, const std::string& accept,
                 std::string_view content_type, CurlList& headers, char* errbuf) {
    const std::string url = config_.server + std::string(path);
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    KOORD_ASSIGN_OR_RETURN(std::string tok, token());
    headers.add("Accept: " + accept);
    if (!content_type.empty()) {
      headers.add("Content-Type: " + std::string(content_type));
    }
    if (!tok.empty()) {
      headers.add("Authorization: Bearer " + tok);
    }
    headers.add("Expect:");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    return Status::ok();
  }

  void throttle() {
    const auto wait = limiter_.reserve();
    if (wait.count() > 0) {
      options_.sleep(wait);
    }
  }

  // Like throttle(), but gives up (false, no token taken) when the rate limit would hold the
  // request longer than `max_wait`.
  bool throttleWithin(std::chrono::nanoseconds max_wait) {
    const auto wait = limiter_.reserveWithin(max_wait);
    if (!wait) {
      return false;
    }
    if (wait->count() > 0) {
      options_.sleep(*wait);
    }
    return true;
  }

  [[nodiscard]] std::chrono::steady_clock::time_point now() const {
    return options_.clock ? options_.clock() : std::chrono::steady_clock::now();
  }

  void countConnects(CURL* c, std::atomic<uint64_t>& counter) {
    long n = 0;
    if (curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &n) == CURLE_OK && n > 0) {
      counter.fetch_add(static_cast<uint64_t>(n));
    }
  }

  const ClientConfig& config_;
  RestClientOptions options_;
  RateLimiter limiter_;
  std::mutex pool_mu_;
  std::vector<CURL*> idle_;           // guarded by pool_mu_
  int in_flight_ = 0;                 // requests holding a slot; guarded by pool_mu_
  std::condition_variable slots_cv_;  // a slot came free
  std::mutex token_mu_;
  std::string token_;
  bool token_loaded_ = false;
  std::filesystem::file_time_type token_mtime_{};
  std::uintmax_t token_size_ = 0;
};

Result<std::unique_ptr<RestClient>> RestClient::create(ClientConfig config,
                                                       RestClientOptions options) {
  if (config.server.rfind("https://", 0) != 0 && config.server.rfind("http://", 0) != 0) {
    return Status::invalidArgument(
        "failed to create API client: server: expected an http:// or "
        "https:// URL, got '" +
        config.server + "'");
  }
  while (config.server.back() == '/') {
    config.server.pop_back();
  }
  if (config.qps > 0 && config.burst < 1) {
    return Status::invalidArgument("failed to create API client: burst: must be at least 1");
  }
  if (config.timeout.count() <= 0) {
    return Status::invalidArgument("failed to create API client: timeout: must be positive");
  }
  if (options.max_connections < 0) {
    return Status::invalidArgument(
        "failed to create API client: max_connections: must not be negative");
  }
  if (options.max_idle_handles < 0) {
    return Status::invalidArgument(
        "failed to create API client: max_idle_handles: must not be negative");
  }
  initCurlOnce();
  return std::unique_ptr<RestClient>(new RestClient(std::move(config), std::move(options)));
}

RestClient::RestClient(ClientConfig config, RestClientOptions options)
    : config_(std::move(config)), impl_(std::make_unique<Impl>(config_, std::move(options))) {}

RestClient::~RestClient() = default;

Result<HttpResult> RestClient::request(std::string_view method, std::string_view path_with_query,
                                       std::string_view body, std::string_view content_type,
                                       const RequestOptions& options) {
  Backoff backoff(impl_->options_.backoff);
  const bool idempotent = isIdempotent(method);
  const bool send_body = !body.empty() || method == "POST" || method == "PUT" || method == "PATCH";
  const auto timeout = options.timeout.count() > 0 ? options.timeout : config_.timeout;
  // With a call_timeout, one deadline bounds the rate limiter's wait, the wait for a slot, each
  // attempt and the waits between them; without one, each attempt has `timeout`. An attempt is
  // sent only while `send_room` is left before the deadline, so that a request is not sent only to
  // be cut off at once, its outcome unknown.
  const bool bounded = options.call_timeout.count() > 0;
  const auto deadline =
      bounded ? impl_->now() + options.call_timeout : std::chrono::steady_clock::time_point::max();
  const std::chrono::milliseconds send_room =
      !bounded ? std::chrono::milliseconds(0)
      : options.min_attempt_time.count() > 0
          ? std::min(options.min_attempt_time, options.call_timeout)
          : options.call_timeout / 4;
  const auto left = [&]() -> std::chrono::milliseconds {
    if (!bounded) {
      return timeout;
    }
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - impl_->now());
    return std::min(timeout, remaining);
  };
  const auto what = [&] {
    return "failed to " + std::string(method) + " '" + std::string(path_with_query) + "'";
  };
  const auto limit = [&] { return std::to_string(options.call_timeout.count()) + " ms"; };
  // How long the call may still wait before it sends an attempt.
  const auto wait_left = [&] { return std::max(left() - send_room, std::chrono::milliseconds(0)); };
  while (true) {
    if (!bounded) {
      impl_->throttle();
    } else if (!impl_->throttleWithin(wait_left())) {
      char qps[32];
      std::snprintf(qps, sizeof qps, "%g", config_.qps);
      return Status::deadlineExceeded(what() + ": not sent: the client's rate limit (" + qps +
                                      " requests/s) would hold it too long for its " + limit() +
                                      " limit");
    }
    const auto slot_wait = bounded ? wait_left() : timeout;
    // Held for this attempt only, not while backing off before the next.
    class Slot {
     public:
      explicit Slot(Impl& impl) : impl_(impl) {}
      Slot(const Slot&) = delete;
      Slot& operator=(const Slot&) = delete;
      ~Slot() { impl_.leave(); }

     private:
      Impl& impl_;
    };
    if (!impl_->enter(slot_wait)) {
      return Status::deadlineExceeded(what() + ": not sent: no connection came free within " +
                                      std::to_string(std::max<int64_t>(slot_wait.count(), 0)) +
                                      " ms (" + std::to_string(impl_->options_.max_connections) +
                                      " requests in flight)");
    }
    std::optional<Slot> slot;
    slot.emplace(*impl_);
    CURL* c = impl_->acquire();
    if (c == nullptr) {
      return Status::internal("failed to create a libcurl handle");
    }
    char errbuf[CURL_ERROR_SIZE] = {0};
    CurlList headers;
    Status prepared =
        impl_->prepare(c, path_with_query, options.accept,
                       send_body ? content_type : std::string_view(), headers, errbuf);
    if (!prepared.isOk()) {
      impl_->release(c);
      return prepared;
    }
    const std::string method_str(method);
    // Every method option is set, since the handle keeps the previous request's: HTTPGET clears
    // a previous POST (and HEAD), NOBODY 0 a previous HEAD, CUSTOMREQUEST nullptr a previous verb.
    if (send_body) {
      curl_easy_setopt(c, CURLOPT_NOBODY, 0L);
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
    } else {
      curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(c, CURLOPT_NOBODY, method == "HEAD" ? 1L : 0L);
    }
    const bool custom = method != "GET" && method != "HEAD" && method != "POST";
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, custom ? method_str.c_str() : nullptr);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
                     static_cast<long>(std::max<int64_t>(left().count(), 1)));
    Transfer t;
    t.max_bytes = config_.max_response_bytes;
    t.curl = c;
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);

    const CURLcode rc = curl_easy_perform(c);
    impl_->countConnects(c, connections_opened_);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_off_t retry_after = 0;
    curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &retry_after);
    char* ctype = nullptr;
    curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ctype);
    std::string content_type_out = ctype != nullptr ? ctype : "";
    const Status transport =
        rc == CURLE_OK ? Status::ok() : curlFailure(rc, errbuf, method, path_with_query);
    if (t.too_large) {
      // The connection is mid-reply; do not reuse it.
      curl_easy_cleanup(c);
      return Status::resourceExhausted("failed to " + method_str + " '" +
                                       std::string(path_with_query) + "': response exceeds " +
                                       std::to_string(config_.max_response_bytes) + " bytes");
    }
    impl_->release(c);

    bool retryable = false;
    std::chrono::nanoseconds delay{0};
    Status failure;
    if (rc != CURLE_OK) {
      failure = transport;
      retryable = notSent(rc) || (idempotent && brokenMidway(rc));
    } else if (code >= 200 && code < 300) {
      return HttpResult{static_cast<int>(code), std::move(t.body), std::move(content_type_out)};
    } else {
      failure = apiErrorStatus(static_cast<int>(code), t.body, method, path_with_query);
      if (code == 429) {
        retryable = retry_after > 0;
      } else if (code >= 500) {
        retryable = idempotent;
      }
      if (retry_after > 0) {
        delay =
            std::min<std::chrono::nanoseconds>(std::chrono::seconds(retry_after), kMaxRetryAfter);
      }
    }
    if (!retryable || !options.retry || !backoff.canRetry()) {
      return failure;
    }
    const auto backoff_delay = backoff.next();
    if (delay.count() == 0) {
      delay = backoff_delay;
    }
    if (bounded && impl_->now() + delay + send_room > deadline) {
      return Status(failure.code(), failure.message() + " (not retried: the next attempt would " +
                                        "start past the call's " + limit() + " limit)");
    }
    impl_->options_.logger.debug("retrying API request", {{"method", method},
                                                          {"path", path_with_query},
                                                          {"attempt", backoff.attempts()},
                                                          {"cause", failure}});
    slot.reset();
    impl_->options_.sleep(delay);
  }
}

Status RestClient::stream(std::string_view path_with_query,
                          const std::function<bool(std::string_view chunk)>& on_chunk,
                          const StreamOptions& options) {
  Backoff backoff(impl_->options_.backoff);
  while (true) {
    impl_->throttle();
    CURL* c = curl_easy_init();
    CURLM* multi = curl_multi_init();
    if (c == nullptr || multi == nullptr) {
      curl_easy_cleanup(c);
      curl_multi_cleanup(multi);
      return Status::internal("failed to create a libcurl handle");
    }
    impl_->configure(c);
    char errbuf[CURL_ERROR_SIZE] = {0};
    CurlList headers;
    Status prepared = impl_->prepare(c, path_with_query, options.accept, {}, headers, errbuf);
    if (!prepared.isOk()) {
      curl_easy_cleanup(c);
      curl_multi_cleanup(multi);
      return prepared;
    }
    curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    if (options.timeout.count() > 0) {
      curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
    }
    Transfer t;
    t.max_bytes = kMaxErrorBody;
    t.on_chunk = &on_chunk;
    t.curl = c;
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, writeBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_multi_add_handle(multi, c);

    bool cancelled = false;
    CURLcode rc = CURLE_OK;
    bool done = false;
    while (!done) {
      int running = 0;
      curl_multi_perform(multi, &running);
      int queued = 0;
      while (CURLMsg* msg = curl_multi_info_read(multi, &queued)) {
        if (msg->msg == CURLMSG_DONE) {
          rc = msg->data.result;
          done = true;
        }
      }
      if (done) {
        break;
      }
      if (options.stop != nullptr && options.stop->load()) {
        cancelled = true;
        break;
      }
      curl_multi_poll(multi, nullptr, 0, static_cast<int>(kPollInterval.count()), nullptr);
    }
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    impl_->countConnects(c, connections_opened_);
    curl_multi_remove_handle(multi, c);
    curl_easy_cleanup(c);
    curl_multi_cleanup(multi);

    if (cancelled) {
      return Status::cancelled("failed to GET '" + std::string(path_with_query) +
                               "': stream stopped");
    }
    if (t.stopped_by_callback) {
      return Status::ok();
    }
    if (rc == CURLE_OK) {
      if (code >= 200 && code < 300) {
        return Status::ok();
      }
      return apiErrorStatus(static_cast<int>(code), t.body, "GET", path_with_query);
    }
    if (t.too_large) {
      return apiErrorStatus(static_cast<int>(code), t.body, "GET", path_with_query);
    }
    Status failure = curlFailure(rc, errbuf, "GET", path_with_query);
    // Retry only a connection that never delivered a reply.
    if (code != 0 || !notSent(rc) || !backoff.canRetry()) {
      return failure;
    }
    impl_->options_.sleep(backoff.next());
  }
}

}  // namespace koord::k8s
