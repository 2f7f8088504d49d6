// HttpServer::reloadTls(): a renewed certificate written over the server's files is presented to
// the connections accepted after the reload, while a connection already open keeps being served;
// files that do not load leave the current certificate in place; a plain-HTTP server has nothing
// to reload. The clients trust one certificate as their only CA, so a handshake tells which
// certificate the server presented.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "koord/http/server.hpp"
#include "test/support/tls/tls_files.hpp"
#include "test_client.hpp"

namespace koord::http {
namespace {

namespace fs = std::filesystem;
using testing::Endpoint;
using testing::RawConnection;
using testing::RawReply;

class HttpTlsReloadTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }

  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("koord-http-tls-reload-" + std::to_string(::getpid()) + "-" + info->name());
    fs::create_directories(dir_);
    a_ = koord::testing::writeSelfSignedCertificate(dir_.string(), "a");
    b_ = koord::testing::writeSelfSignedCertificate(dir_.string(), "b");
    ASSERT_FALSE(a_.cert_file.empty());
    ASSERT_FALSE(b_.cert_file.empty());
    cert_ = (dir_ / "tls.crt").string();
    key_ = (dir_ / "tls.key").string();
    install(a_.cert_file, a_.key_file);
  }

  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }

  // Writes the certificate and key over the files the server reads.
  void install(const std::string& cert, const std::string& key) {
    fs::copy_file(cert, cert_, fs::copy_options::overwrite_existing);
    fs::copy_file(key, key_, fs::copy_options::overwrite_existing);
  }

  void createServer() {
    HttpServerOptions options;
    options.tls_cert_file = cert_;
    options.tls_key_file = key_;
    auto created = HttpServer::create(options);
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
    ASSERT_TRUE(server_
                    ->route("GET", "/hello",
                            [](const HttpRequest&) { return HttpResponse::text(200, "hello"); })
                    .isOk());
  }

  // An endpoint whose clients trust only `files`' certificate.
  Endpoint trusting(const koord::testing::TlsFiles& files) const {
    return Endpoint{server_->port(), files.cert_file};
  }

  static bool servesHello(RawConnection& connection) {
    if (!connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")) {
      return false;
    }
    const std::optional<RawReply> reply = connection.read();
    return reply.has_value() && reply->status == 200 && reply->body == "hello";
  }

  fs::path dir_;
  koord::testing::TlsFiles a_;
  koord::testing::TlsFiles b_;
  std::string cert_;
  std::string key_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpTlsReloadTest, NewConnectionsGetTheRenewedCertificateAndOpenOnesKeepBeingServed) {
  createServer();
  ASSERT_TRUE(server_->start().isOk());
  RawConnection before(trusting(a_));
  ASSERT_TRUE(before.connected());
  EXPECT_TRUE(servesHello(before));

  install(b_.cert_file, b_.key_file);
  // Until the reload the server still presents the first certificate.
  EXPECT_FALSE(RawConnection(trusting(b_)).connected());
  ASSERT_TRUE(server_->reloadTls().isOk());

  RawConnection after(trusting(b_));
  ASSERT_TRUE(after.connected());
  EXPECT_TRUE(servesHello(after));
  EXPECT_EQ(testing::get(trusting(b_), "/hello").status, 200);
  // A client that trusts only the old certificate no longer completes a handshake.
  EXPECT_FALSE(RawConnection(trusting(a_)).connected());
  EXPECT_NE(testing::get(trusting(a_), "/hello").status, 200);
  // The connection made before the reload is still served, over its old session.
  EXPECT_TRUE(servesHello(before));
}

TEST_F(HttpTlsReloadTest, FilesThatDoNotLoadFailTheReloadAndKeepTheCurrentCertificate) {
  createServer();
  ASSERT_TRUE(server_->start().isOk());
  // The new certificate has arrived but its key is still the old one.
  fs::copy_file(b_.cert_file, cert_, fs::copy_options::overwrite_existing);
  const Status reloaded = server_->reloadTls();
  EXPECT_EQ(reloaded.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(reloaded.message(), "failed to load TLS key '" + key_ +
                                    "': it does not match the certificate '" + cert_ + "'");
  EXPECT_TRUE(RawConnection(trusting(a_)).connected());
  EXPECT_EQ(testing::get(trusting(a_), "/hello").status, 200);

  fs::remove(key_);
  EXPECT_EQ(server_->reloadTls().message(),
            "failed to read TLS key '" + key_ + "': cannot open the file");
  EXPECT_EQ(testing::get(trusting(a_), "/hello").status, 200);
}

TEST(HttpTlsReloadPlainTest, APlainHttpServerHasNoCertificateToReload) {
  auto server = HttpServer::create(HttpServerOptions{});
  ASSERT_TRUE(server.ok()) << server.status();
  const Status reloaded = (*server)->reloadTls();
  EXPECT_EQ(reloaded.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(reloaded.message(), "failed to reload TLS: the server serves plain HTTP");
}

}  // namespace
}  // namespace koord::http
