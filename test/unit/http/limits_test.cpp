// HttpServer under hostile clients on the same host: bodies where none belong, many large bodies at
// once, and floods of idle or slow connections (docs/security.md, "Limits of the HTTP servers").
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backends.hpp"
#include "koord/http/server.hpp"
#include "test_client.hpp"

namespace koord::http {
namespace {

using testing::Backend;
using testing::ClientReply;
using testing::ClientRequest;
using testing::RawConnection;
using testing::RawReply;

class HttpLimitsTest : public ::testing::TestWithParam<Backend> {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }

  void startServer(const HttpServerOptions& options) {
    auto created = GetParam().create(options);
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
    ASSERT_TRUE(server_
                    ->route("GET", "/healthz",
                            [this](const HttpRequest&) {
                              ++probe_calls_;
                              return HttpResponse::text(200, "ok\n");
                            })
                    .isOk());
    ASSERT_TRUE(server_
                    ->route("POST", "/hold",
                            [this](const HttpRequest& request) {
                              std::unique_lock lock(mu_);
                              ++holding_;
                              cv_.notify_all();
                              cv_.wait_for(lock, std::chrono::seconds(10),
                                           [this] { return open_; });
                              return HttpResponse::text(200, std::to_string(request.body.size()));
                            })
                    .isOk());
    ASSERT_TRUE(server_->start().isOk());
    port_ = GetParam().endpoint(server_->port());
  }

  bool waitHolding(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(5), [this, n] { return holding_ >= n; });
  }
  void release() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

  // Before server_: handlers still inside when the test ends wake up here.
  std::mutex mu_;
  std::condition_variable cv_;
  int holding_ = 0;
  bool open_ = false;
  std::atomic<int> probe_calls_{0};
  std::unique_ptr<HttpServer> server_;
  testing::Endpoint port_;
};

TEST_P(HttpLimitsTest, GetRequestsWithABodyAreRefusedUnread) {
  startServer({});
  ClientRequest with_body;
  with_body.target = "/healthz";
  with_body.body = "0123456789";
  const ClientReply refused = testing::send(port_, with_body);
  EXPECT_EQ(refused.status, 413) << refused.error;
  EXPECT_EQ(refused.body, "GET requests take no body\n");
  EXPECT_EQ(probe_calls_.load(), 0);
  // What a hostile client on the node sent to the agent: a large body to GET /healthz. It is
  // refused from the head, never buffered, and the handler does not run.
  const std::string head = "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n" +
                           std::string(1024, 'x');
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send(head));
  const std::optional<RawReply> reply = connection.read();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 413);
  EXPECT_EQ(reply->body, "GET requests take no body\n");
  EXPECT_EQ(probe_calls_.load(), 0);
  EXPECT_EQ(testing::get(port_, "/healthz").status, 200);
}

TEST_P(HttpLimitsTest, RequestsToNoRouteAreAnsweredWithoutReadingTheirBody) {
  startServer({});
  // 1 GiB declared to a path nobody serves: 404 at once, and the server stops taking bytes.
  const std::string head =
      "POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n";
  const size_t sent = testing::sendUntilCut(port_, head, size_t{256} << 20);
  EXPECT_LT(sent, size_t{64} << 20);
  EXPECT_EQ(testing::get(port_, "/healthz").status, 200);
}

TEST_P(HttpLimitsTest, BodiesHeldAtOnceStayWithinTheServersBudget) {
  HttpServerOptions options;
  options.max_body_bytes = 700 * 1024;
  options.max_buffered_bytes = 1024 * 1024;
  // The held request waits for the whole test; on a loaded machine that can pass the default 5 s.
  options.request_timeout = std::chrono::seconds(60);
  startServer(options);
  const std::string body(600 * 1024, 'x');
  ClientRequest hold;
  hold.method = "POST";
  hold.target = "/hold";
  hold.body = body;
  // The first body is held (its handler waits); a second would take the total past 1 MiB: 503 with
  // Retry-After and Connection: close, before its body is kept, for declared and chunked bodies.
  ClientReply first;
  std::thread holder([&] { first = testing::send(port_, hold); });
  ASSERT_TRUE(waitHolding(1));
  for (bool chunked : {false, true}) {
    ClientRequest second = hold;
    second.chunked = chunked;
    const ClientReply refused = testing::send(port_, second);
    EXPECT_EQ(refused.status, 503) << "chunked=" << chunked << " " << refused.error;
    EXPECT_EQ(refused.header("retry-after"), "1");
    EXPECT_EQ(refused.header("connection"), "close");
    EXPECT_NE(refused.body.find("request bodies held at once would exceed 1048576 bytes"),
              std::string::npos)
        << refused.body;
  }
  // Requests without a body, such as probes, are never refused for it.
  EXPECT_EQ(testing::get(port_, "/healthz").status, 200);
  release();
  holder.join();
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.body, "614400");
  // Once the first request ended its bytes are free again.
  const ClientReply again = testing::send(port_, hold);
  EXPECT_EQ(again.status, 200) << again.error;
}

TEST_P(HttpLimitsTest, FloodsOfIdleAndSlowConnectionsDoNotLockOutProbes) {
  HttpServerOptions options;
  options.max_connections = 16;
  startServer(options);
  // Twice the limit in connections that never send a byte (over TLS: never start their
  // handshake), and as many that send half a head and stall (slowloris), all opened before the
  // probes.
  std::vector<std::unique_ptr<RawConnection>> flood;
  for (int i = 0; i < 64; ++i) {
    flood.push_back(std::make_unique<RawConnection>(port_, /*handshake=*/i % 2 == 1));
    ASSERT_TRUE(flood.back()->connected());
    if (i % 2 == 1) {
      ASSERT_TRUE(flood.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "));
    }
  }
  // Every probe is answered, each on a new connection, while the flood stays open.
  for (int i = 0; i < 20; ++i) {
    const ClientReply probe = testing::get(port_, "/healthz");
    EXPECT_EQ(probe.status, 200) << i << ": " << probe.error << probe.body;
  }
  EXPECT_EQ(probe_calls_.load(), 20);
  // The connections closed to make room were the oldest waiting ones: at most 16 are still open.
  int still_open = 0;
  for (auto& connection : flood) {
    still_open += connection->closedWithin(50) ? 0 : 1;
  }
  EXPECT_LE(still_open, 16);
}

TEST_P(HttpLimitsTest, ConnectionsWithARequestInFlightAreNotClosedToMakeRoom) {
  HttpServerOptions options;
  options.max_connections = 2;
  options.request_timeout = std::chrono::seconds(60);
  startServer(options);
  ClientRequest hold;
  hold.method = "POST";
  hold.target = "/hold";
  hold.body = "x";
  ClientReply first;
  ClientReply second;
  std::thread a([&] { first = testing::send(port_, hold); });
  std::thread b([&] { second = testing::send(port_, hold); });
  ASSERT_TRUE(waitHolding(2));
  // Both connections are busy: a third cannot evict either and is answered 503.
  const ClientReply busy = testing::get(port_, "/healthz");
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(busy.body, "too many connections\n");
  release();
  a.join();
  b.join();
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(second.status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, HttpLimitsTest, testing::allBackends(), testing::backendName);

}  // namespace
}  // namespace koord::http
