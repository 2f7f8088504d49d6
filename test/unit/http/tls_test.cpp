// What HTTPS adds to the HttpServer, seen by real TLS clients (libcurl and OpenSSL): a verified
// handshake before requests, a client that speaks no TLS or too slowly closed without harm, a
// client that leaves while a large answer is written, and certificate files that do not load.
// Everything else runs over both plain HTTP and HTTPS in the other suites (backends.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "backends.hpp"
#include "koord/http/server.hpp"
#include "test/support/tls/tls_files.hpp"
#include "test_client.hpp"

namespace koord::http {
namespace {

using testing::Backend;
using testing::RawConnection;
using testing::RawReply;

const Backend kTls{"Tls", true};

class HttpTlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }

  void startServer(const HttpServerOptions& options = {}) {
    auto created = kTls.create(options);
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
    ASSERT_TRUE(server_
                    ->route("GET", "/hello",
                            [this](const HttpRequest&) {
                              ++hello_calls_;
                              return HttpResponse::text(200, "hello");
                            })
                    .isOk());
    ASSERT_TRUE(server_
                    ->route("GET", "/big",
                            [](const HttpRequest&) {
                              return HttpResponse::text(200,
                                                        std::string(std::size_t{8} << 20, 'b'));
                            })
                    .isOk());
    ASSERT_TRUE(server_->start().isOk());
    endpoint_ = kTls.endpoint(server_->port());
  }

  std::atomic<int> hello_calls_{0};
  std::unique_ptr<HttpServer> server_;
  testing::Endpoint endpoint_;
};

TEST_F(HttpTlsTest, ServesRequestsAfterAVerifiedHandshake) {
  startServer();
  // libcurl verifies the chain against the test certificate and the name 127.0.0.1.
  const testing::ClientReply reply = testing::get(endpoint_, "/hello");
  ASSERT_EQ(reply.status, 200) << reply.error;
  EXPECT_EQ(reply.body, "hello");
  // So does the OpenSSL client, which then sends two requests on the connection.
  RawConnection connection(endpoint_);
  ASSERT_TRUE(connection.connected());
  EXPECT_TRUE(connection.tlsVersion() == "TLSv1.3" || connection.tlsVersion() == "TLSv1.2")
      << connection.tlsVersion();
  ASSERT_TRUE(
      connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                      "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  for (int i = 0; i < 2; ++i) {
    const std::optional<RawReply> hello = connection.read();
    ASSERT_TRUE(hello.has_value()) << i;
    EXPECT_EQ(hello->status, 200);
    EXPECT_EQ(hello->body, "hello");
  }
  EXPECT_TRUE(connection.closedWithin(5000));
  EXPECT_EQ(hello_calls_.load(), 3);
}

TEST_F(HttpTlsTest, PlainHttpAndGarbageToTheTlsPortAreClosedWithoutAnAnswer) {
  startServer();
  const testing::Endpoint plain{endpoint_.port, ""};
  const std::string inputs[] = {
      "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n",
      // A TLS record header promising a handshake message, then nonsense.
      std::string("\x16\x03\x01\x00\x05hello", 10),
      std::string(4096, '\0'),
  };
  for (const std::string& input : inputs) {
    const auto before = std::chrono::steady_clock::now();
    const std::string reply = testing::sendRaw(plain, input, 5000);
    EXPECT_EQ(reply.find("HTTP/"), std::string::npos) << reply;
    // Closed at once, not at the handshake timeout.
    EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(4));
  }
  EXPECT_EQ(hello_calls_.load(), 0);
  EXPECT_EQ(testing::get(endpoint_, "/hello").status, 200);
}

TEST_F(HttpTlsTest, AHandshakeNotDoneInTimeIsClosed) {
  HttpServerOptions options;
  options.tls_handshake_timeout = std::chrono::milliseconds(300);
  startServer(options);
  // One client says nothing; the other sends the first bytes of a ClientHello and stalls.
  RawConnection silent(endpoint_, /*handshake=*/false);
  RawConnection stalled(endpoint_, /*handshake=*/false);
  ASSERT_TRUE(silent.connected());
  ASSERT_TRUE(stalled.connected());
  ASSERT_TRUE(stalled.send(std::string("\x16\x03\x01\x02\x00\x01", 6)));
  const auto before = std::chrono::steady_clock::now();
  EXPECT_TRUE(silent.closedWithin(5000));
  EXPECT_TRUE(stalled.closedWithin(5000));
  const auto waited = std::chrono::steady_clock::now() - before;
  EXPECT_GE(waited, std::chrono::milliseconds(200));
  EXPECT_LT(waited, std::chrono::seconds(4));
  // A client that shakes hands in time is served as usual.
  EXPECT_EQ(testing::get(endpoint_, "/hello").status, 200);
}

TEST_F(HttpTlsTest, AClientThatLeavesWhileALargeAnswerIsWrittenLeavesTheServerServing) {
  startServer();
  for (int i = 0; i < 3; ++i) {
    RawConnection connection(endpoint_);
    ASSERT_TRUE(connection.connected());
    ASSERT_TRUE(connection.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n"));
    // The destructor closes with the answer mostly unread: the server's writes fail (a reset, no
    // SIGPIPE: that would end this test process).
  }
  const testing::ClientReply big = testing::get(endpoint_, "/big");
  EXPECT_EQ(big.status, 200) << big.error;
  EXPECT_EQ(big.body.size(), std::size_t{8} << 20);
}

TEST(HttpTlsFilesTest, FilesThatDoNotLoadFailStartNamingTheFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("koord-http-tls-files-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const koord::testing::TlsFiles a = koord::testing::writeSelfSignedCertificate(dir.string(), "a");
  const koord::testing::TlsFiles b = koord::testing::writeSelfSignedCertificate(dir.string(), "b");
  ASSERT_FALSE(a.cert_file.empty());
  ASSERT_FALSE(b.cert_file.empty());
  const std::string missing = (dir / "missing.crt").string();
  const std::string garbage = (dir / "garbage.pem").string();
  {
    std::FILE* f = std::fopen(garbage.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not a certificate\n", f);
    std::fclose(f);
  }
  struct Case {
    std::string cert, key, message;
  };
  const Case cases[] = {
      {missing, a.key_file,
       "failed to read TLS certificate '" + missing + "': cannot open the file"},
      {a.cert_file, missing, "failed to read TLS key '" + missing + "': cannot open the file"},
      {garbage, a.key_file, "failed to load TLS certificate '" + garbage + "': "},
      {a.cert_file, garbage, "failed to load TLS key '" + garbage + "': "},
      // The key is read as a certificate, and the other way round.
      {a.key_file, a.cert_file, "failed to load TLS certificate '" + a.key_file + "': "},
      {a.cert_file, b.key_file,
       "failed to load TLS key '" + b.key_file + "': it does not match the certificate '" +
           a.cert_file + "'"},
  };
  for (const Case& c : cases) {
    HttpServerOptions options;
    options.tls_cert_file = c.cert;
    options.tls_key_file = c.key;
    auto server = HttpServer::create(options);
    ASSERT_TRUE(server.ok()) << server.status();
    const Status started = (*server)->start();
    EXPECT_EQ(started.code(), StatusCode::kInvalidArgument) << c.message;
    EXPECT_EQ(started.message().rfind(c.message, 0), 0u) << started.message();
    EXPECT_EQ((*server)->port(), 0);
  }
  std::filesystem::remove_all(dir);
}

TEST(HttpTlsOptionsTest, CreateChecksTheTlsOptions) {
  struct Case {
    std::function<void(HttpServerOptions&)> edit;
    std::string message;
  };
  const Case cases[] = {
      {[](HttpServerOptions& o) { o.tls_cert_file = "/tls/tls.crt"; },
       "failed to create HTTP server: tls_key_file: must be set together with tls_cert_file"},
      {[](HttpServerOptions& o) { o.tls_key_file = "/tls/tls.key"; },
       "failed to create HTTP server: tls_cert_file: must be set together with tls_key_file"},
      {[](HttpServerOptions& o) { o.tls_handshake_timeout = std::chrono::milliseconds(0); },
       "failed to create HTTP server: tls_handshake_timeout: must be positive"},
  };
  for (const Case& c : cases) {
    HttpServerOptions options;
    c.edit(options);
    const auto server = HttpServer::create(options);
    ASSERT_FALSE(server.ok()) << c.message;
    EXPECT_EQ(server.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(server.status().message(), c.message);
  }
}

}  // namespace
}  // namespace koord::http
