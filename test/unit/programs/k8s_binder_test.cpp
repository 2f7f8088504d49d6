// K8sBinder, koord-extender's binder, against a local HTTP server standing in for kube-apiserver:
// what it sends, and that nothing is sent once the bind's deadline has passed.
#include "extender/app/k8s_binder.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

#include "koord/http/server.hpp"
#include "koord/k8s/rest_client.hpp"
#include "test/unit/extender/framework/test_util.hpp"

namespace koord::extender::app {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

class K8sBinderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = http::HttpServer::create({});
    ASSERT_TRUE(created.ok()) << created.status();
    server_ = std::move(created).value();
    ASSERT_TRUE(server_
                    ->route("POST", "/api/v1/namespaces/default/pods/p/binding",
                            [this](const http::HttpRequest& r) { return record(r); })
                    .isOk());
    ASSERT_TRUE(server_
                    ->route("PATCH", "/api/v1/namespaces/default/pods/p",
                            [this](const http::HttpRequest& r) { return record(r); })
                    .isOk());
    ASSERT_TRUE(server_->start().isOk());
    k8s::ClientConfig cfg;
    cfg.server = "http://127.0.0.1:" + std::to_string(server_->port());
    auto rest = k8s::RestClient::create(cfg);
    ASSERT_TRUE(rest.ok()) << rest.status();
    binder_ = std::make_unique<K8sBinder>(std::shared_ptr<k8s::RestClient>(std::move(*rest)));
  }

  http::HttpResponse record(const http::HttpRequest& r) {
    std::lock_guard<std::mutex> lock(mu_);
    seen_.push_back(r.method + " " + r.body);
    return http::HttpResponse::json(r.method == "POST" ? 201 : 200, "{}");
  }

  std::vector<std::string> seen() {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_;
  }

  std::unique_ptr<http::HttpServer> server_;
  std::unique_ptr<K8sBinder> binder_;
  std::mutex mu_;
  std::vector<std::string> seen_;
};

TEST_F(K8sBinderTest, PatchesAndBindsWhileTimeIsLeft) {
  const auto pod = framework::testing::makePodInfo("p");
  framework::BindPatch patch;
  patch.annotations["scheduling.koordinator.sh/resource-status"] = "{}";
  const auto deadline = steady_clock::now() + milliseconds(4000);
  ASSERT_TRUE(binder_->patchPod(*pod, patch, deadline).isOk());
  ASSERT_TRUE(binder_->bindPod(*pod, "n1", deadline).isOk());
  const auto calls = seen();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_NE(calls[0].find("PATCH {\"metadata\":{\"annotations\":"), std::string::npos) << calls[0];
  EXPECT_NE(calls[1].find("POST "), std::string::npos) << calls[1];
  EXPECT_NE(calls[1].find("\"name\":\"n1\""), std::string::npos) << calls[1];
}

TEST_F(K8sBinderTest, SendsNothingOnceTheBindsDeadlineHasPassed) {
  const auto pod = framework::testing::makePodInfo("p");
  framework::BindPatch patch;
  patch.labels["a"] = "b";
  const auto passed = steady_clock::now() - milliseconds(1);
  const Status patched = binder_->patchPod(*pod, patch, passed);
  EXPECT_EQ(patched.code(), StatusCode::kDeadlineExceeded) << patched;
  EXPECT_EQ(patched.message(), "not sent: the bind's patch had no time left within bindTimeout");
  const Status bound = binder_->bindPod(*pod, "n1", passed);
  EXPECT_EQ(bound.code(), StatusCode::kDeadlineExceeded) << bound;
  EXPECT_EQ(bound.message(), "not sent: the bind's binding had no time left within bindTimeout");
  EXPECT_TRUE(seen().empty());
}

}  // namespace
}  // namespace koord::extender::app
