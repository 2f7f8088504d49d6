// RestClient: HTTP/1.1 transport to one API server over libcurl.
//
// - Connections are kept alive and reused: a small pool of libcurl handles, each used by one
//   request at a time, each keeping its own connection open between requests.
// - Authentication: the configured CA (or none with `insecure`), client certificate and key
//   (files or PEM bytes), bearer token; a token_file is re-read whenever its size or modification
//   time changes (service-account token rotation).
// - Rate limiting: one token bucket (qps, burst) for all requests and streams of the client.
// - Retries, with the BackoffPolicy's exponential backoff and jitter, or the server's Retry-After:
//     connection refused / host not resolved (nothing was sent)  every method
//     429 with a Retry-After header                              every method
//     5xx and connections broken mid-request                      GET, HEAD, PUT, DELETE, OPTIONS
//   POST and PATCH are never sent twice once the server could have seen them. A 429 without
//   Retry-After (e.g. an eviction refused by a PodDisruptionBudget) is returned at once.
// - A response larger than max_response_bytes is aborted with kResourceExhausted.
// - A reply that is not 2xx becomes a Status built by apiErrorStatus() (see errors.hpp);
//   transport failures are kUnavailable, timeouts kDeadlineExceeded, a bad local certificate or CA
//   file kFailedPrecondition.
//
// Thread safety: all methods are thread-safe and may run concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/k8s/backoff.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/rate_limiter.hpp"
#include "koord/log/logger.hpp"

namespace koord::k8s {

struct HttpResult {
  int status_code = 0;
  std::string body;
  std::string content_type;
};

struct RequestOptions {
  // Whole-request timeout of each attempt; 0 uses ClientConfig::timeout.
  std::chrono::milliseconds timeout{0};
  // Accept header.
  std::string accept = "application/json";
  // false: one attempt, whatever the failure.
  bool retry = true;
  // Limit on the whole call: the rate limiter's wait, the wait for a free connection, every
  // attempt and the waits between retries; 0: none (each attempt still has `timeout`). An attempt
  // is sent only while at least min_attempt_time of the limit is left: a call that cannot be sent
  // by then fails with kDeadlineExceeded ("not sent: ..."), having taken no rate-limit token, and
  // no retry starts later than that. An attempt sent but not answered by the limit is cut off
  // (kDeadlineExceeded), yet the server may still carry it out. koord-extender's binds use this to
  // answer before kube-scheduler gives up on them.
  std::chrono::milliseconds call_timeout{0};
  // The least time an attempt is given before the limit; 0: a quarter of call_timeout.
  std::chrono::milliseconds min_attempt_time{0};
};

struct StreamOptions {
  // Limit on the whole stream; 0 means none (the server ends it, e.g. a watch's timeoutSeconds).
  std::chrono::milliseconds timeout{0};
  // Set by another thread to end the stream; seen within about 100 ms.
  const std::atomic<bool>* stop = nullptr;
  std::string accept = "application/json";
};

struct RestClientOptions {
  BackoffPolicy backoff;
  // How the client waits (rate limiting, backoff). Tests inject one that records and returns.
  std::function<void(std::chrono::nanoseconds)> sleep;
  // Clock of the rate limiter; steady_clock by default.
  RateLimiter::Clock clock;
  // Idle handles (and so kept-alive connections) kept in the pool. A burst of concurrent requests
  // (koord-extender binds from every request thread at once) keeps up to this many connections
  // open for the next one instead of paying a TCP and TLS handshake per request again.
  int max_idle_handles = 64;
  // At most this many requests (watches are not counted) are in flight at once; more wait for one
  // to finish, up to their timeout (then kDeadlineExceeded). Over HTTP/1.1 each request in flight
  // holds a connection of its own, so without a cap a burst of koord-extender's binds opened one
  // TCP and TLS connection per bind (up to 190 at the start of a 2,000-pod benchmark, each a
  // handshake on both sides) only to close most of them after the burst. 0: no cap. Keep it at most
  // max_idle_handles, so that the connections of a full burst are all kept.
  int max_connections = 32;
  log::Logger logger;
};

class RestClient {
 public:
  // Validates the config (kInvalidArgument naming the field: server must be an http(s) URL, burst
  // and qps sane); does no I/O.
  [[nodiscard]] static Result<std::unique_ptr<RestClient>> create(ClientConfig config,
                                                                  RestClientOptions options = {});
  ~RestClient();
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;

  // Sends `method` to server + `path_with_query` (already escaped) with `body` (sent when not
  // empty, or always for POST/PUT/PATCH) and returns the 2xx reply; see the header comment for
  // failures and retries. kDeadlineExceeded, without a retry, when max_connections requests stay
  // in flight for the whole timeout.
  [[nodiscard]] Result<HttpResult> request(std::string_view method,
                                           std::string_view path_with_query,
                                           std::string_view body = {},
                                           std::string_view content_type = "application/json",
                                           const RequestOptions& options = {});

  // GETs `path_with_query` and hands the body to `on_chunk` as it arrives, in pieces of any size.
  // Returns ok when the server ends the reply or on_chunk returns false, kCancelled when
  // options.stop was set, kDeadlineExceeded when options.timeout passed, an apiErrorStatus() for a
  // reply that is not 2xx (on_chunk is not called then), kUnavailable when the connection failed
  // or broke. Only the connection is retried (not once data arrived): callers resume themselves.
  [[nodiscard]] Status stream(std::string_view path_with_query,
                              const std::function<bool(std::string_view chunk)>& on_chunk,
                              const StreamOptions& options = {});

  // TCP connections opened so far (a count that stops growing when connections are reused).
  [[nodiscard]] uint64_t connectionsOpened() const { return connections_opened_.load(); }

  [[nodiscard]] const ClientConfig& config() const { return config_; }

 private:
  class Impl;
  RestClient(ClientConfig config, RestClientOptions options);

  ClientConfig config_;
  std::unique_ptr<Impl> impl_;
  std::atomic<uint64_t> connections_opened_{0};
};

}  // namespace koord::k8s
