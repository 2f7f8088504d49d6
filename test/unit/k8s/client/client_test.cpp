// RestApiClient: the requests each method sends (against a local HttpServer), listAll paging
// (against the gmock) and the typed layer.
#include "koord/k8s/client.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "../../../mocks/k8s/mock_client.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/http/server.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::k8s {
namespace {

using ::testing::_;
using ::testing::Return;

class RestApiClientTest : public ::testing::Test {
 protected:
  void SetUp() override { server_ = std::move(http::HttpServer::create({})).value(); }

  // Routes `method path` to a handler that records the request and answers `reply`.
  void expect(const std::string& method, const std::string& path, int status,
              const std::string& reply) {
    ASSERT_TRUE(server_
                    ->route(method, path,
                            [this, status, reply](const http::HttpRequest& req) {
                              std::lock_guard<std::mutex> lock(mu_);
                              seen_.push_back(req);
                              return http::HttpResponse::json(status, reply);
                            })
                    .isOk());
  }

  RestApiClient& client() {
    if (!client_) {
      EXPECT_TRUE(server_->start().isOk());
      ClientConfig cfg;
      cfg.server = "http://127.0.0.1:" + std::to_string(server_->port());
      client_ = std::make_unique<RestApiClient>(
          std::shared_ptr<RestClient>(std::move(RestClient::create(cfg)).value()));
    }
    return *client_;
  }

  http::HttpRequest last() {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_.empty() ? http::HttpRequest{} : seen_.back();
  }

  std::unique_ptr<http::HttpServer> server_;
  std::unique_ptr<RestApiClient> client_;
  std::mutex mu_;
  std::vector<http::HttpRequest> seen_;
};

TEST_F(RestApiClientTest, GetDecodesTypedWithoutManagedFields) {
  expect("GET", "/api/v1/namespaces/ns/pods/p", 200,
         R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns",
             "managedFields":[{"manager":"kubectl"}]},"spec":{"nodeName":"n1"}})");
  auto pod = getAs<api::core::Pod>(client(), kPods, "ns", "p");
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(pod->metadata.name, "p");
  EXPECT_EQ(pod->spec.nodeName, "n1");
  EXPECT_TRUE(pod->metadata.extra.is_null() || !pod->metadata.extra.contains("managedFields"));
}

TEST_F(RestApiClientTest, ABodyThatIsNotUtf8IsAnErrorAndNothingIsSent) {
  expect("POST", "/api/v1/nodes", 201, "{}");
  api::Json node = {{"metadata", {{"name", "n1"}, {"labels", {{"model", "H\xff"}}}}}};
  auto created = client().create(kNodes, "", node);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(created.status().message().find("failed to encode the body of POST '/api/v1/nodes'"),
            std::string::npos)
      << created.status();
  EXPECT_TRUE(last().method.empty());  // the server saw no request
}

TEST_F(RestApiClientTest, ListSendsQueryAndReturnsListMeta) {
  expect("GET", "/apis/scheduling.koordinator.sh/v1alpha1/reservations", 200,
         R"({"kind":"ReservationList","metadata":{"resourceVersion":"7","continue":"next"},
             "items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]})");
  ListOptions opts;
  opts.labelSelector = "a=b";
  opts.limit = 2;
  auto list = client().list(kReservations, "", opts);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->items.size(), 2u);
  EXPECT_EQ(list->metadata.resourceVersion, "7");
  EXPECT_EQ(list->metadata.continue_, "next");
  EXPECT_EQ(last().queryParam("labelSelector"), "a=b");
  EXPECT_EQ(last().queryParam("limit"), "2");
}

TEST_F(RestApiClientTest, WriteVerbs) {
  expect("POST", "/api/v1/namespaces/ns/configmaps", 201, R"({"metadata":{"name":"c"}})");
  expect("PUT", "/api/v1/namespaces/ns/configmaps/c", 200, R"({"metadata":{"name":"c"}})");
  expect("PUT", "/api/v1/nodes/n1/status", 200, R"({"metadata":{"name":"n1"}})");
  expect("DELETE", "/api/v1/namespaces/ns/pods/p", 200, R"({"kind":"Status"})");
  expect("PATCH", "/api/v1/namespaces/ns/pods/p", 200, R"({"metadata":{"name":"p"}})");
  expect("POST", "/api/v1/namespaces/ns/pods/p/binding", 201, R"({"kind":"Status"})");
  expect("POST", "/api/v1/namespaces/ns/events", 201, R"({"metadata":{"name":"e"}})");

  const Json cm = {{"metadata", {{"name", "c"}}}, {"data", {{"k", "v"}}}};
  ASSERT_TRUE(client().create(kConfigMaps, "ns", cm).ok());
  EXPECT_EQ(api::parseJson(last().body).value(), cm);
  ASSERT_TRUE(client().update(kConfigMaps, "ns", cm).ok());
  ASSERT_TRUE(client().updateStatus(kNodes, "", {{"metadata", {{"name", "n1"}}}}).ok());
  EXPECT_EQ(last().path, "/api/v1/nodes/n1/status");

  api::core::DeleteOptions del;
  del.gracePeriodSeconds = 0;
  del.preconditions = api::core::Preconditions{std::string("uid-1"), std::nullopt, {}};
  del.propagationPolicy = "Background";
  ASSERT_TRUE(client().remove(kPods, "ns", "p", del).isOk());
  const Json del_body = api::parseJson(last().body).value();
  EXPECT_EQ(del_body["kind"], "DeleteOptions");
  EXPECT_EQ(del_body["gracePeriodSeconds"], 0);
  EXPECT_EQ(del_body["preconditions"]["uid"], "uid-1");
  EXPECT_EQ(del_body["propagationPolicy"], "Background");

  struct PatchCase {
    PatchType type;
    std::string content_type;
  };
  for (const auto& c :
       {PatchCase{PatchType::kMerge, "application/merge-patch+json"},
        PatchCase{PatchType::kJsonPatch, "application/json-patch+json"},
        PatchCase{PatchType::kStrategicMerge, "application/strategic-merge-patch+json"}}) {
    ASSERT_TRUE(client().patch(kPods, "ns", "p", c.type, "{}", {}).ok());
    EXPECT_EQ(last().header("Content-Type"), c.content_type);
  }
  PatchOptions apply;
  apply.field_manager = "koord";
  apply.force = true;
  ASSERT_TRUE(client().patch(kPods, "ns", "p", PatchType::kApply, "{}", apply).ok());
  EXPECT_EQ(last().header("Content-Type"), "application/apply-patch+yaml");
  EXPECT_EQ(last().queryParam("fieldManager"), "koord");
  EXPECT_EQ(last().queryParam("force"), "true");
  EXPECT_EQ(client().patch(kPods, "ns", "p", PatchType::kApply, "{}", {}).status().code(),
            StatusCode::kInvalidArgument);

  ASSERT_TRUE(client().bind("ns", "p", "uid-1", "node-a").isOk());
  const Json binding = api::parseJson(last().body).value();
  EXPECT_EQ(binding["kind"], "Binding");
  EXPECT_EQ(binding["target"]["name"], "node-a");
  EXPECT_EQ(binding["metadata"]["uid"], "uid-1");

  api::core::Event ev;
  ev.metadata.generateName = "p.";
  ev.reason = "Scheduled";
  ASSERT_TRUE(client().createEvent("ns", ev).ok());
  const Json event = api::parseJson(last().body).value();
  EXPECT_EQ(event["kind"], "Event");
  EXPECT_EQ(event["metadata"]["namespace"], "ns");
}

TEST_F(RestApiClientTest, EvictionRefusedByBudget) {
  expect(
      "POST", "/api/v1/namespaces/ns/pods/p/eviction", 429,
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Cannot evict pod as it would violate the pod's disruption budget.","reason":"TooManyRequests","details":{"causes":[{"reason":"DisruptionBudget","message":"The disruption budget pdb needs 1 healthy pods and has 1 currently"}]},"code":429})");
  const Status s = client().evict("ns", "p", {});
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(isTooManyRequests(s));
  EXPECT_NE(s.message().find("The disruption budget pdb needs 1"), std::string::npos) << s;
  const Json body = api::parseJson(last().body).value();
  EXPECT_EQ(body["apiVersion"], "policy/v1");
  EXPECT_EQ(body["kind"], "Eviction");
  EXPECT_EQ(body["metadata"]["name"], "p");
}

TEST(ListAllTest, FollowsContinueTokens) {
  testing::MockClient mock;
  ObjectList p1;
  p1.items = {Json{{"n", 1}}, Json{{"n", 2}}};
  p1.metadata.continue_ = "tok";
  ObjectList p2;
  p2.items = {Json{{"n", 3}}};
  p2.metadata.resourceVersion = "9";
  EXPECT_CALL(mock, list(kPods, "ns", ::testing::Field(&ListOptions::continue_, "")))
      .WillOnce(Return(Result<ObjectList>(p1)));
  EXPECT_CALL(mock, list(kPods, "ns", ::testing::Field(&ListOptions::continue_, "tok")))
      .WillOnce(Return(Result<ObjectList>(p2)));
  ListOptions opts;
  opts.limit = 2;
  auto all = listAll(mock, kPods, "ns", opts);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->items.size(), 3u);
  EXPECT_EQ(all->items[2]["n"], 3);
  EXPECT_EQ(all->metadata.resourceVersion, "9");
}

TEST(ListAllTest, PropagatesExpiredToken) {
  testing::MockClient mock;
  EXPECT_CALL(mock, list(_, _, _))
      .WillOnce(Return(Result<ObjectList>(apiErrorStatus(410, "", "GET", "/api/v1/pods"))));
  auto all = listAll(mock, kPods, "", {});
  EXPECT_TRUE(isGone(all.status()));
}

}  // namespace
}  // namespace koord::k8s
