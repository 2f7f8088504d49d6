// HttpServer over real loopback sockets: routing, errors, limits and robustness.
#include "koord/http/server.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "backends.hpp"
#include "test_client.hpp"

namespace koord::http {
namespace {

using testing::Backend;
using testing::ClientReply;
using testing::ClientRequest;
using testing::get;
using testing::send;

// A route whose handler blocks until release() (or 10 s), counting the handlers inside it.
class Gate {
 public:
  HttpHandler handler() {
    return [this](const HttpRequest&) {
      std::unique_lock lock(mu_);
      ++inside_;
      cv_.notify_all();
      cv_.wait_for(lock, std::chrono::seconds(10), [this] { return open_; });
      return HttpResponse::text(200, "waited");
    };
  }
  // Whether `n` handlers are inside at once within 5 s.
  bool waitInside(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(5), [this, n] { return inside_ >= n; });
  }
  int inside() {
    std::lock_guard lock(mu_);
    return inside_;
  }
  void release() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int inside_ = 0;
  bool open_ = false;
};

class HttpServerTest : public ::testing::TestWithParam<Backend> {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }

  // Creates and starts a server with the routes every test uses.
  void startServer(const HttpServerOptions& options = {}) {
    auto created = GetParam().create(options);
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
    ASSERT_TRUE(server_
                    ->route("GET", "/hello",
                            [](const HttpRequest&) { return HttpResponse::text(200, "hello"); })
                    .isOk());
    ASSERT_TRUE(server_
                    ->route("POST", "/echo",
                            [this](const HttpRequest& request) {
                              ++echo_calls_;
                              HttpResponse response = HttpResponse::json(201, request.body);
                              response.headers["X-Method"] = request.method;
                              response.headers["X-Query-Name"] =
                                  request.queryParam("name").value_or("-");
                              response.headers["X-Token"] = request.header("x-token");
                              response.headers["X-Path"] = request.path;
                              return response;
                            })
                    .isOk());
    ASSERT_TRUE(server_
                    ->route("PUT", "/echo",
                            [](const HttpRequest& request) {
                              return HttpResponse::text(200, "put " + request.body);
                            })
                    .isOk());
    ASSERT_TRUE(server_
                    ->route("GET", "/a b",
                            [](const HttpRequest&) { return HttpResponse::text(200, "decoded"); })
                    .isOk());
    ASSERT_TRUE(server_->start().isOk());
    port_ = GetParam().endpoint(server_->port());
    ASSERT_NE(port_.port, 0);
  }

  // Declared before server_, so that it outlives the server: a handler answered 503 at its
  // deadline may still be waking up inside the gate when the test body ends, and the server's
  // destruction joins its handler threads.
  Gate gate_;
  std::atomic<int> echo_calls_{0};  // before server_: its handlers count here until it is gone
  std::unique_ptr<HttpServer> server_;
  testing::Endpoint port_;
};

TEST_P(HttpServerTest, RoutesByMethodAndExactPath) {
  startServer();
  struct Case {
    std::string method;
    std::string target;
    long status;
    std::string body;
  };
  const Case cases[] = {
      {"GET", "/hello", 200, "hello"},
      {"GET", "/hello?x=1", 200, "hello"},
      {"PUT", "/echo", 200, "put "},
      {"GET", "/a%20b", 200, "decoded"},
      {"GET", "/hello/", 404, "no handler for path '/hello/'\n"},
      {"GET", "/hell", 404, "no handler for path '/hell'\n"},
      {"GET", "/", 404, "no handler for path '/'\n"},
      {"POST", "/hello", 405, "method POST is not allowed for '/hello'; allowed: GET, HEAD\n"},
      // Methods are case-sensitive (RFC 9110 9.1): "get" is an unknown method, as is BREW.
      {"get", "/hello", 501, "method get is not implemented\n"},
      {"BREW", "/nowhere", 501, "method BREW is not implemented\n"},
      {"DELETE", "/echo", 405, "method DELETE is not allowed for '/echo'; allowed: POST, PUT\n"},
  };
  for (const Case& c : cases) {
    ClientRequest request;
    request.method = c.method;
    request.target = c.target;
    const ClientReply reply = send(port_, request);
    EXPECT_EQ(reply.status, c.status) << c.method << " " << c.target << " " << reply.error;
    EXPECT_EQ(reply.body, c.body) << c.method << " " << c.target;
  }
  ClientRequest not_allowed;
  not_allowed.method = "DELETE";
  not_allowed.target = "/echo";
  EXPECT_EQ(send(port_, not_allowed).headers["allow"], "POST, PUT");
}

TEST_P(HttpServerTest, HandlersSeeBodyQueryHeadersAndSetResponseHeaders) {
  startServer();
  ClientRequest request;
  request.method = "POST";
  request.target = "/echo?name=a%20b+c&x";
  request.body = R"({"pod": "web"})";
  request.headers = {"X-Token: secret"};
  const ClientReply reply = send(port_, request);
  ASSERT_EQ(reply.status, 201) << reply.error;
  EXPECT_EQ(reply.body, request.body);
  EXPECT_EQ(reply.header("content-type"), "application/json");
  EXPECT_EQ(reply.header("content-length"), std::to_string(request.body.size()));
  EXPECT_EQ(reply.header("x-method"), "POST");
  EXPECT_EQ(reply.header("x-query-name"), "a b c");
  EXPECT_EQ(reply.header("x-token"), "secret");
  EXPECT_EQ(reply.header("x-path"), "/echo");

  request.chunked = true;
  request.body = std::string(300000, 'c');
  const ClientReply chunked = send(port_, request);
  ASSERT_EQ(chunked.status, 201) << chunked.error;
  EXPECT_EQ(chunked.body.size(), request.body.size());
}

TEST_P(HttpServerTest, BodyCapAnswers413WithoutCallingTheHandler) {
  HttpServerOptions options;
  options.max_body_bytes = 4 << 20;
  startServer(options);
  struct Case {
    size_t size;
    bool chunked;
    long status;
  };
  const Case cases[] = {
      {(4 << 20) + 1, false, 413}, {5 << 20, false, 413}, {5 << 20, true, 413},
      {4 << 20, false, 201},       {4 << 20, true, 201},  {0, false, 201},
  };
  for (const Case& c : cases) {
    const int calls_before = echo_calls_.load();
    ClientRequest request;
    request.method = "POST";
    request.target = "/echo";
    request.body = std::string(c.size, 'x');
    request.chunked = c.chunked;
    const ClientReply reply = send(port_, request);
    EXPECT_EQ(reply.status, c.status)
        << c.size << " bytes, chunked=" << c.chunked << ": " << reply.error;
    if (c.status == 413) {
      EXPECT_EQ(reply.body, "request body exceeds the limit of 4194304 bytes\n");
      EXPECT_EQ(reply.header("connection"), "close");
      EXPECT_EQ(echo_calls_.load(), calls_before);
    } else {
      EXPECT_EQ(reply.body.size(), c.size);
    }
  }
  EXPECT_EQ(get(port_, "/hello").status, 200);
}

TEST_P(HttpServerTest, HugeBodiesAreCutOffWithoutBeingRead) {
  HttpServerOptions options;
  options.max_body_bytes = 1 << 20;
  startServer(options);
  constexpr size_t kDeclared = size_t{1} << 30;
  const std::string head =
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(kDeclared) + "\r\n\r\n";
  const size_t sent = testing::sendUntilCut(port_, head, size_t{256} << 20);
  // The server stops reading at once; what got through sat in socket buffers.
  EXPECT_LT(sent, size_t{64} << 20);
  EXPECT_EQ(echo_calls_.load(), 0);
  EXPECT_EQ(get(port_, "/hello").status, 200);
}

TEST_P(HttpServerTest, HandlerExceptionsBecome500AndTheServerKeepsServing) {
  startServer();
  ASSERT_TRUE(
      server_
          ->route("GET", "/throw",
                  [](const HttpRequest&) -> HttpResponse { throw std::runtime_error("boom"); })
          .isOk());
  ASSERT_TRUE(
      server_->route("GET", "/throw-int", [](const HttpRequest&) -> HttpResponse { throw 42; })
          .isOk());
  ASSERT_TRUE(server_
                  ->route("GET", "/bad-status",
                          [](const HttpRequest&) { return HttpResponse::text(1234, "nonsense"); })
                  .isOk());
  for (int i = 0; i < 3; ++i) {
    const ClientReply thrown = get(port_, "/throw");
    EXPECT_EQ(thrown.status, 500) << thrown.error;
    EXPECT_EQ(thrown.body, "internal server error\n");
    EXPECT_EQ(get(port_, "/throw-int").status, 500);
  }
  EXPECT_EQ(get(port_, "/bad-status").status, 500);
  EXPECT_EQ(get(port_, "/hello").status, 200);
}

TEST_P(HttpServerTest, ConcurrentRequestsAreAnsweredIndependently) {
  HttpServerOptions options;
  options.handler_threads = 4;
  startServer(options);
  constexpr int kThreads = 12;
  constexpr int kRequests = 15;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &ok] {
      for (int i = 0; i < kRequests; ++i) {
        ClientRequest request;
        request.method = "POST";
        request.target = "/echo";
        request.body = "thread " + std::to_string(t) + " request " + std::to_string(i) +
                       std::string(static_cast<size_t>(i) * 1000, '.');
        const ClientReply reply = send(port_, request);
        if (reply.status == 201 && reply.body == request.body) {
          ++ok;
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(ok.load(), kThreads * kRequests);
  EXPECT_EQ(echo_calls_.load(), kThreads * kRequests);
}

TEST_P(HttpServerTest, WaitingHandlersNeverHoldUpComputeOnes) {
  HttpServerOptions options;
  options.handler_threads = 1;
  options.waiting_handler_threads = 4;
  startServer(options);
  ASSERT_TRUE(server_->route("POST", "/wait", gate_.handler(), HandlerKind::kWaits).isOk());
  std::vector<ClientReply> waited(4);
  std::vector<std::thread> clients;
  clients.reserve(waited.size());
  for (auto& reply : waited) {
    clients.emplace_back([this, &reply] {
      ClientRequest request;
      request.method = "POST";
      request.target = "/wait";
      reply = send(port_, request);
    });
  }
  // Four waiting handlers run at once although only one compute slot exists, and a compute
  // request is still answered at once while they wait.
  EXPECT_TRUE(gate_.waitInside(4)) << gate_.inside() << " waiting handlers inside";
  ClientRequest hello;
  hello.target = "/hello";
  hello.timeout_ms = 3000;
  const ClientReply answered = send(port_, hello);
  EXPECT_EQ(answered.status, 200) << answered.error;
  EXPECT_EQ(answered.body, "hello");
  gate_.release();
  for (auto& client : clients) {
    client.join();
  }
  for (const ClientReply& reply : waited) {
    EXPECT_EQ(reply.status, 200) << reply.error;
    EXPECT_EQ(reply.body, "waited");
  }
}

TEST_P(HttpServerTest, WaitingHandlersHaveASlotLimitOfTheirOwn) {
  HttpServerOptions options;
  options.handler_threads = 4;
  options.waiting_handler_threads = 1;
  options.request_timeout = std::chrono::milliseconds(500);
  startServer(options);
  ASSERT_TRUE(server_->route("POST", "/wait", gate_.handler(), HandlerKind::kWaits).isOk());
  ClientReply first;
  std::thread client([this, &first] {
    ClientRequest request;
    request.method = "POST";
    request.target = "/wait";
    first = send(port_, request);
  });
  ASSERT_TRUE(gate_.waitInside(1));
  // The one waiting slot is taken: a second waiting request gets no slot before its deadline,
  // while compute slots stay free.
  ClientRequest second;
  second.method = "POST";
  second.target = "/wait";
  const ClientReply refused = send(port_, second);
  EXPECT_EQ(refused.status, 503) << refused.error;
  EXPECT_EQ(gate_.inside(), 1);
  EXPECT_EQ(get(port_, "/hello").status, 200);
  // The first handler is still inside the gate and outlives its own deadline, so it is answered
  // 503 too, while it waits (the gate opens by itself after 10 s, which would answer 200).
  client.join();
  EXPECT_EQ(first.status, 503) << first.error;
  gate_.release();
}

TEST_P(HttpServerTest, MalformedRequestsDoNotCrashTheServer) {
  startServer();
  struct Case {
    std::string raw;
    std::string want_prefix;  // "" when any answer (or none) is fine
  };
  const Case cases[] = {
      {"GARBAGE\r\n\r\n", "HTTP/1.1 400"},
      {"GET\r\n\r\n", "HTTP/1.1 400"},
      {"GET /hello\r\n\r\n", "HTTP/1.1 400"},
      {"G(T /hello HTTP/1.1\r\n\r\n", "HTTP/1.1 400"},
      {"GET /hello HTTP/1.1\r\nno colon here\r\n\r\n", "HTTP/1.1 400"},
      {"GET /hello HTTP/1.1\r\n: empty name\r\n\r\n", "HTTP/1.1 400"},
      {"GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", ""},
      {"GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", ""},
      {"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\nabc", ""},
      {"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc", ""},
      {"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", ""},
      {"GET /%zz%%/../x HTTP/1.1\r\nHost: x\r\n\r\n", ""},
      {std::string("GET /\x01\x02\xff HTTP/1.1\r\n\r\n"), ""},
      {std::string("\0\0\0\0\r\n\r\n", 8), ""},
      {"\r\n\r\n", ""},
      {"GET /hello HTTP/1.1\r\nHost: x", ""},
  };
  for (const Case& c : cases) {
    const std::string reply = testing::sendRaw(port_, c.raw, 300);
    if (!c.want_prefix.empty()) {
      EXPECT_EQ(reply.substr(0, c.want_prefix.size()), c.want_prefix) << "request: " << c.raw;
    }
    const ClientReply healthy = get(port_, "/hello");
    ASSERT_EQ(healthy.status, 200) << "after: " << c.raw << ": " << healthy.error;
  }
}

// kube-scheduler keeps only 2 idle connections to an extender and opens a new one for many of
// its requests: the socket back end serves a new connection on a thread whose connection ended,
// rather than starting a thread for each.
TEST_P(HttpServerTest, NewConnectionsReuseTheThreadsOfEndedOnes) {
  startServer();
  std::mutex mu;
  std::set<pid_t> handler_tids;
  ASSERT_TRUE(server_
                  ->route("GET", "/tid",
                          [&](const HttpRequest&) {
                            std::lock_guard lock(mu);
                            handler_tids.insert(::gettid());
                            return HttpResponse::text(200, "ok");
                          })
                  .isOk());
  constexpr int kConnections = 6;
  for (int i = 0; i < kConnections; ++i) {
    {
      testing::RawConnection connection(port_);
      ASSERT_TRUE(connection.connected());
      ASSERT_TRUE(connection.send("GET /tid HTTP/1.1\r\nHost: x\r\n\r\n"));
      const auto reply = connection.read();
      ASSERT_TRUE(reply.has_value());
      EXPECT_EQ(reply->status, 200);
    }  // closed by the client, as Go's transport closes a connection it cannot keep
    // Time for the server to see the end of the connection and free its thread.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::lock_guard lock(mu);
  // A thread per connection would give kConnections different thread IDs (the kernel does not
  // hand out a thread ID again this soon).
  EXPECT_LE(handler_tids.size(), static_cast<size_t>(kConnections / 3));
}

INSTANTIATE_TEST_SUITE_P(Backends, HttpServerTest, testing::allBackends(), testing::backendName);

}  // namespace
}  // namespace koord::http
