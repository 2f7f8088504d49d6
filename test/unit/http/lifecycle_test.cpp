// HttpServer lifecycle: options, ports, timeouts and graceful stop.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "backends.hpp"
#include "koord/http/server.hpp"
#include "test_client.hpp"

namespace koord::http {
namespace {

using testing::Backend;
using testing::ClientReply;
using testing::ClientRequest;
using testing::get;
using testing::send;

// A gate a handler waits on until the test opens it; also tells the test the handler is waiting.
class LifecycleGate {
 public:
  void waitInHandler() {
    entered_.fetch_add(1);
    entered_.notify_all();
    opened_.wait();
  }
  void waitUntilEntered(int count = 1) {
    for (int seen = entered_.load(); seen < count; seen = entered_.load()) {
      entered_.wait(seen);
    }
  }
  void open() { promise_.set_value(); }

 private:
  std::atomic<int> entered_{0};
  std::promise<void> promise_;
  std::shared_future<void> opened_ = promise_.get_future().share();
};

std::unique_ptr<HttpServer> startedServer(const Backend& backend,
                                          const HttpServerOptions& options) {
  auto created = backend.create(options);
  EXPECT_TRUE(created.ok()) << created.status();
  if (!created.ok()) {
    return nullptr;
  }
  auto server = std::move(created).value();
  EXPECT_TRUE(server
                  ->route("GET", "/fast",
                          [](const HttpRequest&) { return HttpResponse::text(200, "fast"); })
                  .isOk());
  return server;
}

class HttpLifecycleTest : public ::testing::TestWithParam<Backend> {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }
};

TEST_P(HttpLifecycleTest, CreateValidatesOptions) {
  struct Case {
    std::function<void(HttpServerOptions&)> edit;
    std::string message;
  };
  const Case cases[] = {
      {[](HttpServerOptions& o) { o.address = ""; },
       "failed to create HTTP server: address: must not be empty"},
      {[](HttpServerOptions& o) { o.address = "::1"; },
       "failed to create HTTP server: address: IPv6 addresses are not supported"},
      {[](HttpServerOptions& o) { o.address = "a/b"; },
       "failed to create HTTP server: address: 'a/b' is not a host name or IPv4 address"},
      {[](HttpServerOptions& o) { o.max_body_bytes = 0; },
       "failed to create HTTP server: max_body_bytes: must be positive"},
      {[](HttpServerOptions& o) { o.request_timeout = std::chrono::milliseconds(0); },
       "failed to create HTTP server: request_timeout: must be positive"},
      {[](HttpServerOptions& o) { o.handler_threads = 0; },
       "failed to create HTTP server: handler_threads: must be between 1 and 1024"},
      {[](HttpServerOptions& o) { o.waiting_handler_threads = 1025; },
       "failed to create HTTP server: waiting_handler_threads: must be between 1 and 1024"},
  };
  for (const Case& c : cases) {
    HttpServerOptions options;
    c.edit(options);
    for (const auto& server : {GetParam().create(options), HttpServer::create(options)}) {
      ASSERT_FALSE(server.ok()) << c.message;
      EXPECT_EQ(server.status().code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(server.status().message(), c.message);
    }
  }
}

TEST_P(HttpLifecycleTest, RouteRejectsBadAndDuplicateRoutes) {
  auto server = startedServer(GetParam(), {});
  ASSERT_NE(server, nullptr);
  const auto handler = [](const HttpRequest&) { return HttpResponse::text(200, ""); };
  EXPECT_EQ(server->route("GET", "/fast", handler).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(server->route("GET", "fast", handler).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(server->route("G T", "/x", handler).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(server->route("", "/x", handler).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(server->route("GET", "/x", nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(server->route("POST", "/fast", handler).isOk());
}

TEST_P(HttpLifecycleTest, PortZeroPicksDistinctFreePortsAndBusyPortsFail) {
  auto first = startedServer(GetParam(), {});
  auto second = startedServer(GetParam(), {});
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->port(), 0);
  ASSERT_TRUE(first->start().isOk());
  ASSERT_TRUE(second->start().isOk());
  EXPECT_NE(first->port(), 0);
  EXPECT_NE(first->port(), second->port());
  EXPECT_EQ(get(GetParam().endpoint(first->port()), "/fast").body, "fast");
  EXPECT_EQ(get(GetParam().endpoint(second->port()), "/fast").body, "fast");
  EXPECT_EQ(first->start().code(), StatusCode::kFailedPrecondition);

  HttpServerOptions busy;
  busy.port = first->port();
  auto third = startedServer(GetParam(), busy);
  ASSERT_NE(third, nullptr);
  const Status status = third->start();
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(status.message().rfind(
                "failed to listen on '127.0.0.1:" + std::to_string(first->port()) + "': ", 0),
            0u)
      << status;
  EXPECT_EQ(third->port(), 0);
}

TEST_P(HttpLifecycleTest, SlowHandlerGets503AndItsLateResultIsDiscarded) {
  LifecycleGate gate;  // outlives the server, whose handler threads wait on it
  HttpServerOptions options;
  options.request_timeout = std::chrono::milliseconds(200);
  auto server = startedServer(GetParam(), options);
  ASSERT_NE(server, nullptr);
  std::atomic<bool> returned{false};
  ASSERT_TRUE(server
                  ->route("GET", "/slow",
                          [&](const HttpRequest&) {
                            gate.waitInHandler();
                            returned = true;
                            return HttpResponse::text(200, "too late");
                          })
                  .isOk());
  ASSERT_TRUE(server->start().isOk());

  const ClientReply reply = get(GetParam().endpoint(server->port()), "/slow");
  EXPECT_EQ(reply.status, 503) << reply.error;
  EXPECT_EQ(reply.body, "request timed out after 200 ms\n");
  EXPECT_FALSE(returned.load());
  // The fast route still works while the slow handler holds a pool thread.
  EXPECT_EQ(get(GetParam().endpoint(server->port()), "/fast").status, 200);
  gate.open();
  server.reset();  // joins the handler; its late response goes nowhere
  EXPECT_TRUE(returned.load());
}

TEST_P(HttpLifecycleTest, GracefulStopLetsInFlightRequestsFinish) {
  LifecycleGate gate;  // outlives the server, whose handler threads wait on it
  auto server = startedServer(GetParam(), {});
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(server
                  ->route("GET", "/slow",
                          [&](const HttpRequest&) {
                            gate.waitInHandler();
                            return HttpResponse::text(200, "finished");
                          })
                  .isOk());
  ASSERT_TRUE(server->start().isOk());
  const testing::Endpoint port = GetParam().endpoint(server->port());

  auto in_flight = std::async(std::launch::async, [port] { return get(port, "/slow"); });
  gate.waitUntilEntered();
  std::atomic<bool> stopped{false};
  auto stopper = std::async(std::launch::async, [&] {
    server->stop(std::chrono::seconds(20));
    stopped = true;
  });
  // While draining, new requests are refused with 503 and the in-flight one is still running.
  ClientReply refused;
  for (int i = 0; i < 1000 && refused.status != 503; ++i) {
    refused = get(port, "/fast");
  }
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(refused.body, "server is shutting down\n");
  EXPECT_FALSE(stopped.load());

  gate.open();
  const ClientReply finished = in_flight.get();
  EXPECT_EQ(finished.status, 200) << finished.error;
  EXPECT_EQ(finished.body, "finished");
  stopper.get();
  EXPECT_TRUE(stopped.load());
  EXPECT_FALSE(testing::canConnect(port));
  server->stop(std::chrono::seconds(1));  // idempotent
}

TEST_P(HttpLifecycleTest, StopGivesUpOnRequestsThatOutliveTheGracePeriod) {
  LifecycleGate gate;  // outlives the server, whose handler threads wait on it
  HttpServerOptions options;
  options.request_timeout = std::chrono::seconds(30);
  auto server = startedServer(GetParam(), options);
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(server
                  ->route("GET", "/stuck",
                          [&](const HttpRequest&) {
                            gate.waitInHandler();
                            return HttpResponse::text(200, "never seen");
                          })
                  .isOk());
  ASSERT_TRUE(server->start().isOk());
  const testing::Endpoint port = GetParam().endpoint(server->port());
  auto in_flight = std::async(std::launch::async, [port] { return get(port, "/stuck"); });
  gate.waitUntilEntered();
  const auto before = std::chrono::steady_clock::now();
  server->stop(std::chrono::milliseconds(100));
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(10));
  const ClientReply cut = in_flight.get();
  EXPECT_NE(cut.status, 200);
  EXPECT_FALSE(testing::canConnect(port));
  gate.open();
  server.reset();
}

INSTANTIATE_TEST_SUITE_P(Backends, HttpLifecycleTest, testing::allBackends(), testing::backendName);

}  // namespace
}  // namespace koord::http
