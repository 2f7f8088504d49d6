// The webhook server end to end on 127.0.0.1: CertController makes the certificate (FakeApi, a
// fake clock), the server starts on it, and a TLS client that trusts only the CA from the Secret
// and checks the name 127.0.0.1 posts to a webhook route; after a renewal, a new connection gets
// the new certificate (a new serial, the same CA). Also the body limit, readiness and routes.
#include "manager/cert/webhook_server.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>

#include "fake_api.hpp"
#include "manager/cert/cert_controller.hpp"
#include "support.hpp"
#include "tls_client.hpp"

namespace koord::manager::cert {
namespace {

namespace fs = std::filesystem;
using std::chrono::hours;
using testing::FakeApi;
using testing::httpsExchange;
using testing::postRequest;

class WebhookServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("koord-webhook-server-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    CertControllerOptions options;
    options.cert_dir = dir_.string();
    options.extra_alt_names = {"127.0.0.1", "localhost"};
    options.mutating_configuration = "";
    options.validating_configuration = "";
    options.clock = &clock_;
    options.wall_clock = [this] { return wallNow(); };
    options.on_certificate_written = [this] { return server_->certificateWritten(); };
    auto controller = CertController::create(api_.client(), options);
    ASSERT_TRUE(controller.ok()) << controller.status();
    controller_ = std::move(controller).value();

    WebhookServerOptions server_options;
    server_options.address = "127.0.0.1";
    server_options.port = 0;
    server_options.cert_file = controller_->certDir().certFile();
    server_options.key_file = controller_->certDir().keyFile();
    auto server = WebhookServer::create(server_options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(server).value();
    ASSERT_TRUE(
        server_
            ->handle("/validate-pod",
                     [this](std::string_view body) {
                       ++calls_;
                       last_size_ = body.size();
                       return WebhookReply{200, "{\"seen\":" + std::to_string(body.size()) + "}"};
                     })
            .isOk());
  }

  void TearDown() override {
    controller_.reset();
    server_.reset();
    fs::remove_all(dir_);
  }

  WallTime wallNow() const {
    return testing::kTestStart +
           std::chrono::duration_cast<std::chrono::system_clock::duration>(clock_.now() - origin_);
  }

  testing::TlsReply post(const std::string& body, const std::string& host = "127.0.0.1") {
    return httpsExchange(server_->port(), controller_->caCertificate(), host, wallNow(),
                         postRequest("/validate-pod", body));
  }

  FakeClock clock_;
  const Clock::TimePoint origin_ = clock_.now();
  FakeApi api_;
  fs::path dir_;
  std::unique_ptr<CertController> controller_;
  std::unique_ptr<WebhookServer> server_;
  std::atomic<int> calls_{0};
  std::atomic<std::size_t> last_size_{0};
};

TEST_F(WebhookServerTest, ServesOverHttpsWithTheGeneratedCertificateAndTheRenewedOneAfter) {
  EXPECT_EQ(server_->readiness().code(), StatusCode::kUnavailable);
  EXPECT_EQ(server_->readiness().message(),
            "the webhook server is not serving yet: no certificate has been written yet");
  EXPECT_EQ(server_->port(), 0);
  ASSERT_TRUE(controller_->syncOnce().isOk());
  ASSERT_TRUE(server_->readiness().isOk());
  ASSERT_NE(server_->port(), 0);

  const std::string ca = controller_->caCertificate();
  const testing::TlsReply first = post("{\"request\":{}}");
  ASSERT_TRUE(first.handshake) << first.error;
  EXPECT_EQ(first.status, 200) << first.error;
  EXPECT_EQ(first.body, "{\"seen\":14}");
  EXPECT_EQ(first.peer_serial, controller_->servingCertificate()->serial);
  EXPECT_EQ(calls_.load(), 1);
  // The name is checked: the certificate names 127.0.0.1 and the Service, not this.
  const testing::TlsReply wrong_name = post("{}", "koord-manager.example.com");
  EXPECT_FALSE(wrong_name.handshake);

  clock_.advance(hours(24 * 335));
  ASSERT_TRUE(controller_->syncOnce().isOk());
  EXPECT_EQ(controller_->caCertificate(), ca);
  const testing::TlsReply renewed = post("{}");
  ASSERT_TRUE(renewed.handshake) << renewed.error;
  EXPECT_EQ(renewed.status, 200);
  EXPECT_EQ(renewed.peer_serial, controller_->servingCertificate()->serial);
  EXPECT_NE(renewed.peer_serial, first.peer_serial);
}

TEST_F(WebhookServerTest, BodiesUpToThreeMebibytesAreTakenAndLargerOnesRefused) {
  ASSERT_TRUE(controller_->syncOnce().isOk());
  const std::size_t limit = std::size_t{3} << 20;
  const testing::TlsReply at_limit = post(std::string(limit, 'x'));
  EXPECT_EQ(at_limit.status, 200) << at_limit.error;
  EXPECT_EQ(last_size_.load(), limit);
  // kube-apiserver never sends more; a client that asks first is refused before sending.
  const testing::TlsReply over = httpsExchange(
      server_->port(), controller_->caCertificate(), "127.0.0.1", wallNow(),
      "POST /validate-pod HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
          std::to_string(limit + 1) + "\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(over.status, 413) << over.error;
  EXPECT_EQ(calls_.load(), 1);
}

TEST_F(WebhookServerTest, HealthzAndRoutes) {
  ASSERT_TRUE(controller_->syncOnce().isOk());
  const testing::TlsReply health =
      httpsExchange(server_->port(), controller_->caCertificate(), "localhost", wallNow(),
                    "GET /healthz HTTP/1.1\r\nHost: webhook\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(health.status, 200) << health.error;
  EXPECT_EQ(health.body, "ok\n");
  // A route added while serving is served; one given twice is refused.
  ASSERT_TRUE(
      server_->handle("/mutate-pod",
                      [](std::string_view) {
                        return WebhookReply{200, "{\"m\":1}"};
                      })
          .isOk());
  const testing::TlsReply mutate =
      httpsExchange(server_->port(), controller_->caCertificate(), "127.0.0.1", wallNow(),
                    postRequest("/mutate-pod", "{}"));
  EXPECT_EQ(mutate.status, 200) << mutate.error;
  EXPECT_EQ(mutate.body, "{\"m\":1}");
  EXPECT_EQ(server_->handle("/mutate-pod", [](std::string_view) { return WebhookReply{}; }).code(),
            StatusCode::kAlreadyExists);
  const testing::TlsReply unknown =
      httpsExchange(server_->port(), controller_->caCertificate(), "127.0.0.1", wallNow(),
                    postRequest("/nothing", "{}"));
  EXPECT_EQ(unknown.status, 404);
}

TEST(WebhookServerOptionsTest, TheCertificateFilesAreRequired) {
  EXPECT_EQ(WebhookServer::create(WebhookServerOptions{}).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::manager::cert
