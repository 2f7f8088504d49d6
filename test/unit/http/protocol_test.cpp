// HttpServer's HTTP/1.1 connection handling as a raw client sees it: keep-alive, pipelining,
// Expect: 100-continue, HTTP/1.0, head limits, HEAD, chunked framing, and stop() with idle
// connections. Every case runs over plain HTTP and over HTTPS (backends.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "backends.hpp"
#include "koord/http/server.hpp"
#include "test_client.hpp"

namespace koord::http {
namespace {

using testing::Backend;
using testing::RawConnection;
using testing::RawReply;

std::string post(const std::string& path, const std::string& body,
                 const std::string& extra_headers = "") {
  return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n" + extra_headers + "\r\n" + body;
}

std::string getHello() {
  return "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n";
}

class HttpProtocolTest : public ::testing::TestWithParam<Backend> {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }

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
                              return HttpResponse::text(201, request.body);
                            })
                    .isOk());
    ASSERT_TRUE(server_->start().isOk());
    port_ = GetParam().endpoint(server_->port());
  }

  std::atomic<int> echo_calls_{0};  // before server_: its handlers count here until it is gone
  std::unique_ptr<HttpServer> server_;
  testing::Endpoint port_;
};

TEST_P(HttpProtocolTest, KeepAliveConnectionServesSeveralRequests) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(connection.connected());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(connection.send(getHello()));
    const std::optional<RawReply> hello = connection.read();
    ASSERT_TRUE(hello.has_value()) << "request " << i;
    EXPECT_EQ(hello->status, 200);
    EXPECT_EQ(hello->body, "hello");
    EXPECT_NE(hello->header("connection"), "close");

    const std::string body = "body " + std::to_string(i);
    ASSERT_TRUE(connection.send(post("/echo", body)));
    const std::optional<RawReply> echoed = connection.read();
    ASSERT_TRUE(echoed.has_value()) << "request " << i;
    EXPECT_EQ(echoed->status, 201);
    EXPECT_EQ(echoed->body, body);
  }
}

TEST_P(HttpProtocolTest, PipelinedRequestsAreAnsweredInOrder) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send(post("/echo", "first") + getHello() + post("/echo", "third") +
                              "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"));
  const std::optional<RawReply> first = connection.read();
  const std::optional<RawReply> second = connection.read();
  const std::optional<RawReply> third = connection.read();
  const std::optional<RawReply> fourth = connection.read();
  ASSERT_TRUE(first && second && third && fourth);
  EXPECT_EQ(first->body, "first");
  EXPECT_EQ(second->body, "hello");
  EXPECT_EQ(third->body, "third");
  EXPECT_EQ(fourth->status, 404);
}

TEST_P(HttpProtocolTest, ExpectContinueGetsContinueBeforeTheBodyIsSent) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"));
  const std::optional<RawReply> go_on = connection.read();
  ASSERT_TRUE(go_on.has_value());
  EXPECT_EQ(go_on->status, 100);
  ASSERT_TRUE(connection.send("hello"));
  const std::optional<RawReply> echoed = connection.read();
  ASSERT_TRUE(echoed.has_value());
  EXPECT_EQ(echoed->status, 201);
  EXPECT_EQ(echoed->body, "hello");
}

TEST_P(HttpProtocolTest, ExpectContinueOverTheCapIsRefusedWithoutTheBody) {
  HttpServerOptions options;
  options.max_body_bytes = 100;
  startServer(options);
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\nExpect: 100-continue\r\n\r\n"));
  const std::optional<RawReply> refused = connection.read();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 413);
  EXPECT_EQ(refused->header("connection"), "close");
  EXPECT_TRUE(connection.closedWithin(5000));
  EXPECT_EQ(echo_calls_.load(), 0);
}

TEST_P(HttpProtocolTest, OverlongHeadGets431AndTheConnectionCloses) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " +
                              std::string(std::size_t{70} * 1024, 'a') + "\r\n\r\n"));
  const std::optional<RawReply> reply = connection.read();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 431);
  EXPECT_EQ(reply->header("connection"), "close");
  EXPECT_TRUE(connection.closedWithin(5000));
  // A head just under the limit is fine.
  RawConnection fits(port_);
  ASSERT_TRUE(fits.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " +
                        std::string(std::size_t{60} * 1024, 'a') + "\r\n\r\n"));
  const std::optional<RawReply> ok = fits.read();
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->status, 200);
}

TEST_P(HttpProtocolTest, Http10ClosesAfterTheAnswerUnlessAskedToKeepAlive) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send("GET /hello HTTP/1.0\r\n\r\n"));
  const std::optional<RawReply> reply = connection.read();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "hello");
  EXPECT_TRUE(connection.closedWithin(5000));

  RawConnection kept(port_);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    const std::optional<RawReply> again = kept.read();
    ASSERT_TRUE(again.has_value()) << "request " << i;
    EXPECT_EQ(again->status, 200);
    EXPECT_EQ(again->header("connection"), "keep-alive");
  }
}

TEST_P(HttpProtocolTest, ConnectionCloseFromTheClientIsHonoured) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const std::optional<RawReply> reply = connection.read();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->header("connection"), "close");
  EXPECT_TRUE(connection.closedWithin(5000));
}

TEST_P(HttpProtocolTest, HeadIsServedByTheGetRouteWithoutABody) {
  startServer();
  RawConnection connection(port_);
  // Probes and load balancers send HEAD: the GET handler answers, and only the head goes out.
  ASSERT_TRUE(connection.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n"));
  const std::optional<RawReply> head = connection.read(5000, /*head_only=*/true);
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->header("content-length"), "5");  // the GET answer's length
  // A HEAD to a path without GET is 405 and names HEAD only where GET is allowed.
  ASSERT_TRUE(connection.send("HEAD /echo HTTP/1.1\r\nHost: x\r\n\r\n"));
  const std::optional<RawReply> not_allowed = connection.read(5000, /*head_only=*/true);
  ASSERT_TRUE(not_allowed.has_value());
  EXPECT_EQ(not_allowed->status, 405);
  EXPECT_EQ(not_allowed->header("allow"), "POST");
  ASSERT_TRUE(connection.send(getHello()));
  const std::optional<RawReply> hello = connection.read();
  ASSERT_TRUE(hello.has_value());
  EXPECT_EQ(hello->body, "hello");
}

TEST_P(HttpProtocolTest, ChunkedBodiesWithExtensionsAndTrailers) {
  startServer();
  RawConnection connection(port_);
  ASSERT_TRUE(
      connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                      "3;name=value\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n"));
  const std::optional<RawReply> reply = connection.read();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 201);
  EXPECT_EQ(reply->body, "abc0123456789");
  ASSERT_TRUE(connection.send(getHello()));
  EXPECT_TRUE(connection.read().has_value());
}

TEST_P(HttpProtocolTest, BodyStillArrivingAtTheDeadlineGets503) {
  HttpServerOptions options;
  options.request_timeout = std::chrono::milliseconds(200);
  startServer(options);
  RawConnection connection(port_);
  ASSERT_TRUE(connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"));
  const std::optional<RawReply> reply = connection.read();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 503);
  EXPECT_EQ(reply->body, "request timed out after 200 ms\n");
  EXPECT_EQ(reply->header("connection"), "close");
  EXPECT_EQ(echo_calls_.load(), 0);
}

// Large bodies arrive whole however the client cuts them, with a small request between them on
// the same connection.
TEST_P(HttpProtocolTest, LargeBodiesInSmallPiecesArriveWhole) {
  startServer();
  RawConnection connection(port_);
  for (const std::size_t size : {std::size_t{200} * 1024, std::size_t{300} * 1024}) {
    std::string body(size, 'a');
    for (std::size_t i = 0; i < body.size(); i += 4099) {
      body[i] = static_cast<char>('b' + (i / 4099) % 20);
    }
    const std::string request = post("/echo", body);
    for (std::size_t at = 0; at < request.size(); at += 4096) {
      ASSERT_TRUE(connection.send(request.substr(at, 4096)));
      if (at % (64 * 1024) == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    const std::optional<RawReply> echoed = connection.read(5000);
    ASSERT_TRUE(echoed.has_value()) << size;
    EXPECT_EQ(echoed->status, 201);
    EXPECT_TRUE(echoed->body == body) << size;
    ASSERT_TRUE(connection.send(getHello()));
    const std::optional<RawReply> hello = connection.read(2000);
    ASSERT_TRUE(hello.has_value()) << size;
    EXPECT_EQ(hello->body, "hello");
  }
}

TEST_P(HttpProtocolTest, StopClosesIdleKeepAliveConnectionsPromptly) {
  startServer();
  RawConnection idle(port_);
  ASSERT_TRUE(idle.send(getHello()));
  ASSERT_TRUE(idle.read().has_value());
  const auto before = std::chrono::steady_clock::now();
  server_->stop(std::chrono::seconds(20));
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(2));
  EXPECT_TRUE(idle.closedWithin(2000));
  EXPECT_FALSE(testing::canConnect(port_));
}

INSTANTIATE_TEST_SUITE_P(Backends, HttpProtocolTest, testing::allBackends(), testing::backendName);

}  // namespace
}  // namespace koord::http
