// Scraping /metrics over real loopback HTTP.
#include "koord/metrics/exposer.hpp"

#include <gtest/gtest.h>

#include "test_client.hpp"

namespace koord::metrics {
namespace {

class ExposerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { http::testing::initClient(); }
};

TEST_F(ExposerTest, ScrapeReturnsCurrentValues) {
  MetricsRegistry registry;
  const Counter binds = registry.counter("koord_binds_total", "Binds.").value();
  binds.inc(4);
  auto exposer = MetricsExposer::start(registry, {});
  ASSERT_TRUE(exposer.ok()) << exposer.status();
  const uint16_t port = (*exposer)->port();
  ASSERT_NE(port, 0);

  http::testing::ClientReply reply = http::testing::get(port, "/metrics");
  ASSERT_EQ(reply.status, 200) << reply.error;
  EXPECT_EQ(reply.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(reply.body.find("# TYPE koord_binds_total counter\nkoord_binds_total 4\n"),
            std::string::npos)
      << reply.body;

  binds.inc();
  reply = http::testing::get(port, "/metrics");
  EXPECT_NE(reply.body.find("\nkoord_binds_total 5\n"), std::string::npos) << reply.body;
  EXPECT_EQ(http::testing::get(port, "/other").status, 404);
  http::testing::ClientRequest post;
  post.method = "POST";
  post.target = "/metrics";
  EXPECT_EQ(http::testing::send(port, post).status, 405);

  (*exposer)->stop(std::chrono::seconds(1));
  EXPECT_FALSE(http::testing::canConnect(port));
}

TEST_F(ExposerTest, MetricsRouteSharesAServerWithOtherEndpoints) {
  MetricsRegistry registry;
  registry.gauge("koord_up", "Up.").value().set(1);
  auto server = http::HttpServer::create({});
  ASSERT_TRUE(server.ok());
  ASSERT_TRUE(
      (*server)
          ->route("GET", "/healthz",
                  [](const http::HttpRequest&) { return http::HttpResponse::text(200, "ok"); })
          .isOk());
  ASSERT_TRUE(registerMetricsRoute(**server, registry, "/custom-metrics").isOk());
  EXPECT_EQ(registerMetricsRoute(**server, registry, "/custom-metrics").code(),
            StatusCode::kAlreadyExists);
  ASSERT_TRUE((*server)->start().isOk());
  const uint16_t port = (*server)->port();
  EXPECT_EQ(http::testing::get(port, "/healthz").body, "ok");
  const auto reply = http::testing::get(port, "/custom-metrics");
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.body.find("\nkoord_up 1\n"), std::string::npos) << reply.body;
}

TEST_F(ExposerTest, StartFailsOnABadAddress) {
  MetricsRegistry registry;
  http::HttpServerOptions options;
  options.address = "";
  auto exposer = MetricsExposer::start(registry, options);
  ASSERT_FALSE(exposer.ok());
  EXPECT_EQ(exposer.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::metrics
