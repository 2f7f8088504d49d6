// RestClient against a local HttpServer (port 0) and, for streaming, a raw socket server.
#include "koord/k8s/rest_client.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "koord/http/server.hpp"
#include "koord/k8s/errors.hpp"
#include "temp_dir.hpp"

namespace koord::k8s {
namespace {

using std::chrono::milliseconds;

// A client whose clock only moves when it "sleeps" (backoff, rate limiter): call_timeout's
// deadline is then exact.
struct SteppedClock {
  std::mutex mu;
  std::chrono::steady_clock::time_point now{};
  std::vector<milliseconds> sleeps;

  void apply(RestClientOptions& opts) {
    opts.clock = [this] {
      std::lock_guard<std::mutex> lock(mu);
      return now;
    };
    opts.sleep = [this](std::chrono::nanoseconds d) {
      std::lock_guard<std::mutex> lock(mu);
      now += d;
      sleeps.push_back(std::chrono::duration_cast<milliseconds>(d));
    };
  }
};

class RestClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = http::HttpServer::create({});
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
  }

  void start() { ASSERT_TRUE(server_->start().isOk()); }

  // Replaces server_ with one that runs up to `handler_threads` handlers at once and routes
  // `GET path` to `handler`; does not start it.
  void serveOnly(size_t handler_threads, const std::string& path, http::HttpHandler handler) {
    http::HttpServerOptions options;
    options.handler_threads = handler_threads;
    auto created = http::HttpServer::create(options);
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
    ASSERT_TRUE(server_->route("GET", path, std::move(handler)).isOk());
  }

  // Starts server_ answering POST /bind with 201 and returns a client of it on `clock`, limited to
  // 1 request a second with a burst of 1.
  std::unique_ptr<RestClient> oneRequestPerSecond(SteppedClock& clock) {
    script("POST", "/bind", {reply(201, "{}")});
    start();
    RestClientOptions opts;
    clock.apply(opts);
    ClientConfig cfg;
    cfg.server = "http://127.0.0.1:" + std::to_string(server_->port());
    cfg.qps = 1;
    cfg.burst = 1;
    auto c = RestClient::create(cfg, opts);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? std::move(c).value() : nullptr;
  }

  // A client of server_ with `options` and nothing else set.
  std::unique_ptr<RestClient> plainClient(const RestClientOptions& options) {
    ClientConfig cfg;
    cfg.server = "http://127.0.0.1:" + std::to_string(server_->port());
    auto c = RestClient::create(cfg, options);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? std::move(c).value() : nullptr;
  }

  std::unique_ptr<RestClient> client(ClientConfig cfg = {}) {
    cfg.server = "http://127.0.0.1:" + std::to_string(server_->port());
    RestClientOptions opts;
    opts.backoff.initial = milliseconds(10);
    opts.backoff.jitter = 0;
    opts.backoff.max_retries = 3;
    opts.sleep = [this](std::chrono::nanoseconds d) {
      std::lock_guard<std::mutex> lock(mu_);
      sleeps_.push_back(std::chrono::duration_cast<milliseconds>(d));
    };
    auto c = RestClient::create(cfg, opts);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? std::move(c).value() : nullptr;
  }

  // Answers `path` with replies[i] for the i-th call (the last one repeats); counts the calls.
  void script(const std::string& method, const std::string& path,
              std::vector<http::HttpResponse> replies) {
    ASSERT_TRUE(server_
                    ->route(method, path,
                            [this, replies](const http::HttpRequest&) {
                              const size_t n = calls_.fetch_add(1);
                              return replies[std::min(n, replies.size() - 1)];
                            })
                    .isOk());
  }

  static http::HttpResponse reply(int status, std::string body, std::string retry_after = "") {
    auto r = http::HttpResponse::json(status, std::move(body));
    if (!retry_after.empty()) {
      r.headers["Retry-After"] = retry_after;
    }
    return r;
  }

  std::unique_ptr<http::HttpServer> server_;
  std::atomic<size_t> calls_{0};
  std::mutex mu_;
  std::vector<milliseconds> sleeps_;
};

TEST_F(RestClientTest, RetriesIdempotentRequestOn5xxWithBackoff) {
  script("GET", "/x", {reply(503, ""), reply(500, ""), reply(200, R"({"ok":true})")});
  start();
  auto c = client();
  auto r = c->request("GET", "/x");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->body, R"({"ok":true})");
  EXPECT_EQ(r->status_code, 200);
  EXPECT_EQ(calls_.load(), 3u);
  EXPECT_EQ(sleeps_, (std::vector<milliseconds>{milliseconds(10), milliseconds(20)}));
}

TEST_F(RestClientTest, GivesUpAfterMaxRetries) {
  script("PUT", "/x",
         {reply(503, R"({"kind":"Status","reason":"ServiceUnavailable","message":"down"})")});
  start();
  auto r = client()->request("PUT", "/x", "{}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(calls_.load(), 4u);  // 1 + max_retries
}

TEST_F(RestClientTest, HonoursRetryAfterOn429EvenForPost) {
  script("POST", "/x", {reply(429, "", "3"), reply(201, "{}")});
  start();
  auto r = client()->request("POST", "/x", "{}");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(calls_.load(), 2u);
  EXPECT_EQ(sleeps_, std::vector<milliseconds>{milliseconds(3000)});
}

TEST_F(RestClientTest, DoesNotRetry429WithoutRetryAfter) {
  script(
      "POST", "/evict",
      {reply(429, R"({"kind":"Status","reason":"TooManyRequests","message":"Cannot evict pod"})")});
  start();
  auto r = client()->request("POST", "/evict", "{}");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(isTooManyRequests(r.status())) << r.status();
  EXPECT_EQ(calls_.load(), 1u);
}

TEST_F(RestClientTest, DoesNotRetryPostOrPatchOn500) {
  script("POST", "/x", {reply(500, ""), reply(201, "{}")});
  script("PATCH", "/x", {reply(500, "")});
  start();
  auto c = client();
  EXPECT_EQ(c->request("POST", "/x", "{}").status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(calls_.load(), 1u);
  EXPECT_FALSE(c->request("PATCH", "/x", "{}").ok());
  EXPECT_EQ(calls_.load(), 2u);
  EXPECT_TRUE(sleeps_.empty());
}

TEST_F(RestClientTest, NotFoundIsNotRetriedAndKeepsReason) {
  script(
      "GET", "/x",
      {reply(
          404,
          R"({"kind":"Status","reason":"NotFound","message":"pods \"p\" not found","code":404})")});
  start();
  auto r = client()->request("GET", "/x");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(isNotFound(r.status()));
  EXPECT_EQ(r.status().message(), "NotFound: failed to GET '/x': pods \"p\" not found (HTTP 404)");
  EXPECT_EQ(calls_.load(), 1u);
}

TEST_F(RestClientTest, ResponseSizeCap) {
  script("GET", "/big", {reply(200, std::string(5000, 'a'))});
  start();
  ClientConfig cfg;
  cfg.max_response_bytes = 1000;
  auto c = client(cfg);
  auto r = c->request("GET", "/big");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(r.status().message().find("exceeds 1000 bytes"), std::string::npos);
  // A reply under the cap still works afterwards.
  cfg.max_response_bytes = 5000;
  EXPECT_TRUE(client(cfg)->request("GET", "/big").ok());
}

TEST_F(RestClientTest, TimeoutIsDeadlineExceeded) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(server_
                  ->route("GET", "/slow",
                          [released](const http::HttpRequest&) {
                            released.wait();
                            return http::HttpResponse::json(200, "{}");
                          })
                  .isOk());
  start();
  ClientConfig cfg;
  cfg.timeout = milliseconds(200);
  auto r = client(cfg)->request("GET", "/slow", {}, {},
                                RequestOptions{milliseconds(0), "application/json", false});
  release.set_value();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDeadlineExceeded) << r.status();
}

TEST_F(RestClientTest, ReusesConnections) {
  script("GET", "/x", {reply(200, "{}")});
  start();
  auto c = client();
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(c->request("GET", "/x").ok());
  }
  EXPECT_EQ(c->connectionsOpened(), 1u);
}

// koord-extender binds pods from many request threads at once; a burst that needs more
// connections than a few must not close them afterwards, or the next burst pays a new TCP and TLS
// handshake per request (on both sides: kube-apiserver's handshakes cost it more than ours).
TEST_F(RestClientTest, KeepsTheConnectionsOfAConcurrentBurst) {
  constexpr size_t kBurst = 16;
  std::mutex mu;
  std::condition_variable cv;
  size_t waiting = 0;
  size_t round = 0;
  // Each request waits until the whole burst is in flight, so the burst really holds kBurst
  // connections at once.
  serveOnly(kBurst, "/together", [&](const http::HttpRequest&) {
    std::unique_lock<std::mutex> lock(mu);
    const size_t mine = round;
    if (++waiting == kBurst) {
      waiting = 0;
      ++round;
      cv.notify_all();
    } else {
      cv.wait_for(lock, std::chrono::seconds(10), [&] { return round != mine; });
    }
    return http::HttpResponse::json(200, "{}");
  });
  start();
  auto c = client();
  auto burst = [&] {
    std::vector<std::thread> threads;
    std::atomic<size_t> ok{0};
    for (size_t i = 0; i < kBurst; ++i) {
      threads.emplace_back([&] {
        if (c->request("GET", "/together").ok())
          ok.fetch_add(1);
      });
    }
    for (auto& t : threads)
      t.join();
    return ok.load();
  };
  ASSERT_EQ(burst(), kBurst);
  EXPECT_EQ(c->connectionsOpened(), kBurst);
  ASSERT_EQ(burst(), kBurst);
  EXPECT_EQ(c->connectionsOpened(), kBurst) << "the second burst opened new connections";
}

// A burst of more requests than max_connections waits for the connections in flight instead of
// opening one per request: at the start of a scheduling run, koord-extender's binds opened up to
// 190 connections to kube-apiserver, each with a TLS handshake on both sides.
TEST_F(RestClientTest, ABurstOverMaxConnectionsWaitsForAConnection) {
  constexpr size_t kBurst = 24;
  constexpr int kMaxConnections = 4;
  std::mutex mu;
  size_t inside = 0;
  size_t most_inside = 0;
  serveOnly(kBurst, "/slow", [&](const http::HttpRequest&) {
    {
      std::lock_guard<std::mutex> lock(mu);
      most_inside = std::max(most_inside, ++inside);
    }
    std::this_thread::sleep_for(milliseconds(20));
    std::lock_guard<std::mutex> lock(mu);
    --inside;
    return http::HttpResponse::json(200, "{}");
  });
  start();
  RestClientOptions opts;
  opts.max_connections = kMaxConnections;
  auto c = plainClient(opts);
  ASSERT_NE(c, nullptr);
  std::vector<std::thread> threads;
  std::atomic<size_t> ok{0};
  for (size_t i = 0; i < kBurst; ++i) {
    threads.emplace_back([&] {
      if (c->request("GET", "/slow").ok())
        ok.fetch_add(1);
    });
  }
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(ok.load(), kBurst);
  EXPECT_LE(most_inside, static_cast<size_t>(kMaxConnections));
  EXPECT_LE(c->connectionsOpened(), static_cast<uint64_t>(kMaxConnections));
}

// A request that finds every connection busy for its whole timeout (or its call_timeout) fails
// with a clear error rather than waiting without end.
TEST_F(RestClientTest, ARequestWaitingForAConnectionPastItsTimeoutFails) {
  std::mutex mu;
  std::condition_variable cv;
  bool entered = false;
  bool release = false;
  serveOnly(2, "/held", [&](const http::HttpRequest&) {
    std::unique_lock<std::mutex> lock(mu);
    entered = true;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return release; });
    return http::HttpResponse::json(200, "{}");
  });
  start();
  RestClientOptions opts;
  opts.max_connections = 1;
  auto c = plainClient(opts);
  ASSERT_NE(c, nullptr);
  std::thread holder([&] { EXPECT_TRUE(c->request("GET", "/held").ok()); });
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(5), [&] { return entered; }));
  }
  RequestOptions short_wait;
  short_wait.timeout = milliseconds(200);
  const auto waited = c->request("GET", "/held", {}, "application/json", short_wait);
  EXPECT_EQ(waited.status().code(), StatusCode::kDeadlineExceeded) << waited.status();
  EXPECT_NE(waited.status().message().find("no connection came free"), std::string::npos)
      << waited.status();
  // A call_timeout bounds that wait too, whatever the attempt's own timeout (30 s here).
  RequestOptions bounded;
  bounded.call_timeout = milliseconds(200);
  const auto began = std::chrono::steady_clock::now();
  const auto unsent = c->request("GET", "/held", {}, "application/json", bounded);
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(10));
  EXPECT_EQ(unsent.status().code(), StatusCode::kDeadlineExceeded) << unsent.status();
  EXPECT_NE(unsent.status().message().find("not sent: no connection came free"), std::string::npos)
      << unsent.status();
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  holder.join();
  // The slot is free again once the first request is answered.
  EXPECT_TRUE(c->request("GET", "/held").ok());
}

TEST_F(RestClientTest, ACallTimeoutStartsNoRetryPastIt) {
  script("PUT", "/x",
         {reply(503, R"({"kind":"Status","reason":"ServiceUnavailable","message":"down"})")});
  start();
  SteppedClock clock;
  RestClientOptions opts;
  opts.backoff.initial = milliseconds(1000);
  opts.backoff.jitter = 0;
  opts.backoff.max_retries = 5;
  clock.apply(opts);
  auto c = plainClient(opts);
  ASSERT_NE(c, nullptr);
  RequestOptions bounded;
  bounded.call_timeout = milliseconds(2500);
  // Attempt at 0 ms, retry after 1000 ms; the next retry would start at 3000 ms, past 2500 ms.
  auto r = c->request("PUT", "/x", "{}", "application/json", bounded);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable) << r.status();
  EXPECT_NE(r.status().message().find("not retried"), std::string::npos) << r.status();
  EXPECT_EQ(calls_.load(), 2u);
  EXPECT_EQ(clock.sleeps, std::vector<milliseconds>{milliseconds(1000)});
  // Without one, the same client retries max_retries times.
  calls_ = 0;
  EXPECT_FALSE(c->request("PUT", "/x", "{}").ok());
  EXPECT_EQ(calls_.load(), 6u);
}

TEST_F(RestClientTest, ACallTimeoutDoesNotWaitForTheRateLimiterPastIt) {
  SteppedClock clock;
  auto c = oneRequestPerSecond(clock);
  ASSERT_NE(c, nullptr);
  RequestOptions bounded;
  bounded.call_timeout = milliseconds(500);
  ASSERT_TRUE(c->request("POST", "/bind", "{}", "application/json", bounded).ok());
  // The next token is due in 1 s: the call fails at once, unsent, and takes no token.
  auto refused = c->request("POST", "/bind", "{}", "application/json", bounded);
  EXPECT_EQ(refused.status().code(), StatusCode::kDeadlineExceeded) << refused.status();
  EXPECT_NE(refused.status().message().find(
                "not sent: the client's rate limit (1 requests/s) would hold it too long for its "
                "500 ms limit"),
            std::string::npos)
      << refused.status();
  EXPECT_EQ(calls_.load(), 1u);
  EXPECT_TRUE(clock.sleeps.empty());
  // A limit that leaves room waits for that same token.
  bounded.call_timeout = milliseconds(1500);
  ASSERT_TRUE(c->request("POST", "/bind", "{}", "application/json", bounded).ok());
  EXPECT_EQ(calls_.load(), 2u);
  EXPECT_EQ(clock.sleeps, std::vector<milliseconds>{milliseconds(1000)});
}

TEST_F(RestClientTest, ACallTimeoutSendsNoAttemptThatWouldHaveLessThanItsMinimumTime) {
  SteppedClock clock;
  auto c = oneRequestPerSecond(clock);
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->request("POST", "/bind", "{}").ok());
  // The next token comes at 1000 ms, which would leave 200 ms of a 1200 ms limit for the exchange:
  // less than the 500 ms asked for, so nothing is sent (a request sent then and cut off after
  // 200 ms could still be carried out by the server, unknown to the caller).
  RequestOptions bounded;
  bounded.call_timeout = milliseconds(1200);
  bounded.min_attempt_time = milliseconds(500);
  auto refused = c->request("POST", "/bind", "{}", "application/json", bounded);
  EXPECT_EQ(refused.status().code(), StatusCode::kDeadlineExceeded) << refused.status();
  EXPECT_EQ(calls_.load(), 1u);
  // By default a quarter of the limit is kept: 1000 ms of waiting leaves 400 of 1400 ms.
  bounded.call_timeout = milliseconds(1400);
  bounded.min_attempt_time = milliseconds(0);
  ASSERT_TRUE(c->request("POST", "/bind", "{}", "application/json", bounded).ok());
  EXPECT_EQ(calls_.load(), 2u);
}

TEST_F(RestClientTest, ACallTimeoutCutsOffAReplyThatComesLater) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(server_
                  ->route("POST", "/slow",
                          [released](const http::HttpRequest&) {
                            released.wait_for(std::chrono::seconds(20));
                            return http::HttpResponse::json(201, "{}");
                          })
                  .isOk());
  start();
  auto c = plainClient({});  // each attempt may take the default 30 s
  ASSERT_NE(c, nullptr);
  RequestOptions bounded;
  bounded.call_timeout = milliseconds(300);
  const auto began = std::chrono::steady_clock::now();
  const auto r = c->request("POST", "/slow", "{}", "application/json", bounded);
  const auto took = std::chrono::steady_clock::now() - began;
  release.set_value();
  EXPECT_EQ(r.status().code(), StatusCode::kDeadlineExceeded) << r.status();
  EXPECT_GE(took, milliseconds(250));
  EXPECT_LT(took, std::chrono::seconds(10));
}

TEST_F(RestClientTest, SendsBodyHeadersAndRereadsTokenFile) {
  std::mutex mu;
  std::vector<http::HttpRequest> seen;
  ASSERT_TRUE(server_
                  ->route("POST", "/echo",
                          [&](const http::HttpRequest& req) {
                            std::lock_guard<std::mutex> lock(mu);
                            seen.push_back(req);
                            return http::HttpResponse::json(201, "{}");
                          })
                  .isOk());
  start();
  testing::TempDir dir;
  ClientConfig cfg;
  cfg.token_file = dir.write("token", "first\n");
  cfg.user_agent = "koord-test/1";
  auto c = client(cfg);
  ASSERT_TRUE(c->request("POST", "/echo", R"({"a":1})", "application/merge-patch+json").ok());
  dir.write("token", "second-token");
  ASSERT_TRUE(c->request("POST", "/echo", "{}").ok());
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].body, R"({"a":1})");
  EXPECT_EQ(seen[0].header("Content-Type"), "application/merge-patch+json");
  EXPECT_EQ(seen[0].header("Authorization"), "Bearer first");
  EXPECT_EQ(seen[0].header("User-Agent"), "koord-test/1");
  EXPECT_EQ(seen[1].header("Authorization"), "Bearer second-token");
}

// Pooled handles are not reset between requests: each request must still go out with its own
// method and body, whatever the request before it on the same connection was.
TEST_F(RestClientTest, EachMethodOnAReusedConnectionSendsOnlyItsOwnBody) {
  std::mutex mu;
  std::vector<std::string> seen;  // "METHOD body"
  const auto record = [&](const http::HttpRequest& req) {
    std::lock_guard<std::mutex> lock(mu);
    seen.push_back(req.method + " " + req.body);
    return http::HttpResponse::json(200, "{}");
  };
  for (const char* method : {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}) {
    ASSERT_TRUE(server_->route(method, "/obj", record).isOk());
  }
  start();
  auto c = client();
  ASSERT_TRUE(c->request("POST", "/obj", R"({"post":1})", "application/json").ok());
  ASSERT_TRUE(c->request("GET", "/obj").ok());
  ASSERT_TRUE(c->request("PATCH", "/obj", R"({"patch":2})", "application/merge-patch+json").ok());
  ASSERT_TRUE(c->request("DELETE", "/obj").ok());
  ASSERT_TRUE(c->request("HEAD", "/obj").ok());
  ASSERT_TRUE(c->request("GET", "/obj").ok());
  ASSERT_TRUE(c->request("PUT", "/obj", R"({"put":3})", "application/json").ok());
  ASSERT_TRUE(c->request("POST", "/obj", "", "application/json").ok());
  EXPECT_EQ(seen,
            (std::vector<std::string>{"POST {\"post\":1}", "GET ", "PATCH {\"patch\":2}", "DELETE ",
                                      "HEAD ", "GET ", "PUT {\"put\":3}", "POST "}));
  EXPECT_EQ(c->connectionsOpened(), 1u);
}

TEST_F(RestClientTest, CreateValidatesConfig) {
  ClientConfig cfg;
  cfg.server = "127.0.0.1:6443";
  EXPECT_EQ(RestClient::create(cfg).status().code(), StatusCode::kInvalidArgument);
  cfg.server = "https://h";
  cfg.burst = 0;
  EXPECT_EQ(RestClient::create(cfg).status().code(), StatusCode::kInvalidArgument);
}

// A one-connection HTTP server whose reply body the test writes chunk by chunk.
class ChunkServer {
 public:
  ChunkServer() {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    ::listen(listen_fd_, 4);
    socklen_t len = sizeof(addr);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~ChunkServer() {
    closeConn();
    ::close(listen_fd_);
  }
  ChunkServer(const ChunkServer&) = delete;
  ChunkServer& operator=(const ChunkServer&) = delete;

  [[nodiscard]] uint16_t port() const { return port_; }

  // Accepts the connection, reads the request head, returns it.
  std::string accept() {
    conn_fd_ = ::accept(listen_fd_, nullptr, nullptr);
    std::string head;
    char buf[4096];
    while (head.find("\r\n\r\n") == std::string::npos) {
      const ssize_t n = ::recv(conn_fd_, buf, sizeof(buf), 0);
      if (n <= 0) {
        break;
      }
      head.append(buf, static_cast<size_t>(n));
    }
    return head;
  }
  void send(const std::string& data) const { (void)!::write(conn_fd_, data.data(), data.size()); }
  void chunk(const std::string& data) const {
    char size[32];
    std::snprintf(size, sizeof(size), "%zx\r\n", data.size());
    send(size + data + "\r\n");
  }
  void closeConn() {
    if (conn_fd_ >= 0) {
      ::close(conn_fd_);
      conn_fd_ = -1;
    }
  }

 private:
  int listen_fd_ = -1;
  int conn_fd_ = -1;
  uint16_t port_ = 0;
};

std::unique_ptr<RestClient> streamClient(uint16_t port) {
  ClientConfig cfg;
  cfg.server = "http://127.0.0.1:" + std::to_string(port);
  cfg.bearer_token = "t";
  return std::move(RestClient::create(cfg)).value();
}

TEST(RestClientStreamTest, DeliversChunksAsTheyArrive) {
  ChunkServer server;
  auto client = streamClient(server.port());
  std::mutex mu;
  std::vector<std::string> chunks;
  std::promise<void> first_seen;
  auto result = std::async(std::launch::async, [&] {
    return client->stream("/api/v1/pods?watch=true", [&](std::string_view c) {
      std::lock_guard<std::mutex> lock(mu);
      chunks.emplace_back(c);
      if (chunks.size() == 1) {
        first_seen.set_value();
      }
      return true;
    });
  });
  const std::string head = server.accept();
  EXPECT_EQ(head.rfind("GET /api/v1/pods?watch=true HTTP/1.1\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Authorization: Bearer t"), std::string::npos);
  server.send(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
  server.chunk("{\"type\":\"ADDED\"}\n");
  // The second chunk is only written once the first reached the callback.
  first_seen.get_future().wait();
  server.chunk("{\"type\":\"DELETED\"}\n");
  server.send("0\r\n\r\n");
  const Status s = result.get();
  EXPECT_TRUE(s.isOk()) << s;
  std::string all;
  for (const auto& c : chunks) {
    all += c;
  }
  EXPECT_EQ(all, "{\"type\":\"ADDED\"}\n{\"type\":\"DELETED\"}\n");
}

TEST(RestClientStreamTest, CallbackFalseEndsTheStream) {
  ChunkServer server;
  auto client = streamClient(server.port());
  auto result = std::async(std::launch::async, [&] {
    return client->stream("/w", [](std::string_view) { return false; });
  });
  server.accept();
  server.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
  server.chunk("x");
  EXPECT_TRUE(result.get().isOk());
}

TEST(RestClientStreamTest, StopFlagCancels) {
  ChunkServer server;
  auto client = streamClient(server.port());
  std::atomic<bool> stop{false};
  std::promise<void> got;
  auto result = std::async(std::launch::async, [&] {
    StreamOptions opts;
    opts.stop = &stop;
    return client->stream(
        "/w",
        [&](std::string_view) {
          got.set_value();
          return true;
        },
        opts);
  });
  server.accept();
  server.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
  server.chunk("x");
  got.get_future().wait();
  stop.store(true);
  EXPECT_EQ(result.get().code(), StatusCode::kCancelled);
}

TEST(RestClientStreamTest, ErrorReplyIsDecodedAndNotStreamed) {
  ChunkServer server;
  auto client = streamClient(server.port());
  bool called = false;
  auto result = std::async(std::launch::async, [&] {
    return client->stream("/w", [&](std::string_view) {
      called = true;
      return true;
    });
  });
  server.accept();
  const std::string body =
      R"({"kind":"Status","reason":"Expired","message":"too old resource version","code":410})";
  server.send("HTTP/1.1 410 Gone\r\nContent-Type: application/json\r\nContent-Length: " +
              std::to_string(body.size()) + "\r\n\r\n" + body);
  const Status s = result.get();
  EXPECT_TRUE(isGone(s)) << s;
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace koord::k8s
