// URL building, list queries and the decoding of API server errors.
#include <gtest/gtest.h>

#include "koord/k8s/client.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::k8s {
namespace {

TEST(ResourcePathTest, Table) {
  struct Case {
    GroupVersionResource gvr;
    std::string ns, name, sub, want;
  };
  const Case cases[] = {
      {kPods, "default", "web-0", "", "/api/v1/namespaces/default/pods/web-0"},
      {kPods, "", "", "", "/api/v1/pods"},
      {kPods, "ns", "p", "binding", "/api/v1/namespaces/ns/pods/p/binding"},
      {kNodes, "ignored", "n1", "status", "/api/v1/nodes/n1/status"},
      {kLeases, "kube-system", "x", "",
       "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/x"},
      {kReservations, "", "r1", "status",
       "/apis/scheduling.koordinator.sh/v1alpha1/reservations/r1/status"},
      {kElasticQuotas, "q", "", "",
       "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/q/elasticquotas"},
      {kPods, "ns", "a b/c", "", "/api/v1/namespaces/ns/pods/a%20b%2Fc"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(resourcePath(c.gvr, c.ns, c.name, c.sub), c.want);
  }
  EXPECT_EQ(kPods.apiVersion(), "v1");
  EXPECT_EQ(kDevices.apiVersion(), "scheduling.koordinator.sh/v1alpha1");
  EXPECT_FALSE(kPodMigrationJobs.namespaced);
  EXPECT_TRUE(kPodGroups.namespaced);
}

TEST(ListOptionsTest, QueryIsEscaped) {
  ListOptions o;
  EXPECT_EQ(o.toQuery(), "");
  o.labelSelector = "app=web,tier in (a,b)";
  o.limit = 2;
  o.continue_ = "abc==";
  EXPECT_EQ(o.toQuery(),
            "?labelSelector=app%3Dweb%2Ctier%20in%20%28a%2Cb%29&limit=2&continue=abc%3D%3D");
  ListOptions w;
  w.resourceVersion = "42";
  w.timeoutSeconds = 30;
  w.allowWatchBookmarks = true;
  EXPECT_EQ(w.toQuery(true),
            "?watch=true&resourceVersion=42&timeoutSeconds=30&allowWatchBookmarks=true");
}

// Bodies as kube-apiserver sends them.
TEST(ApiErrorTest, DecodesServerStatusBodies) {
  struct Case {
    int http;
    std::string body;
    StatusCode code;
    std::string reason;
    std::string message_part;
  };
  const Case cases[] = {
      {404,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404})",
       StatusCode::kNotFound, "NotFound", "pods \"x\" not found"},
      {409,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"pods"},"code":409})",
       StatusCode::kAlreadyExists, "AlreadyExists", "already exists"},
      {409,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \"x\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"x","kind":"pods"},"code":409})",
       StatusCode::kConflict, "Conflict", "the object has been modified"},
      {422,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \"x\" is invalid: spec.containers: Required value","reason":"Invalid","details":{"name":"x","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers"}]},"code":422})",
       StatusCode::kInvalidArgument, "Invalid", "spec.containers: Required value"},
      {403,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \"bob\" cannot list resource \"pods\"","reason":"Forbidden","details":{"kind":"pods"},"code":403})",
       StatusCode::kPermissionDenied, "Forbidden", "cannot list"},
      {410,
       R"j({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (200)","reason":"Expired","code":410})j",
       StatusCode::kFailedPrecondition, "Expired", "too old resource version"},
      {429,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Cannot evict pod as it would violate the pod's disruption budget.","reason":"TooManyRequests","details":{"causes":[{"reason":"DisruptionBudget","message":"The disruption budget pdb needs 2 healthy pods and has 2 currently"}]},"code":429})",
       StatusCode::kResourceExhausted, "TooManyRequests", "The disruption budget pdb needs 2"},
      {504,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: request did not complete within 60s","reason":"Timeout","code":504})",
       StatusCode::kDeadlineExceeded, "Timeout", "did not complete"},
      {503, "upstream connect error", StatusCode::kUnavailable, "ServiceUnavailable",
       "'upstream connect error'"},
      {500, "", StatusCode::kUnavailable, "InternalError", "HTTP 500"},
      {418, "teapot", StatusCode::kInternal, "Unknown", "teapot"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    const Status s = apiErrorStatus(c.http, c.body, "GET", "/api/v1/x");
    EXPECT_EQ(s.code(), c.code) << s;
    EXPECT_EQ(apiReasonOf(s), c.reason) << s;
    EXPECT_EQ(s.message().rfind(c.reason + ": failed to GET '/api/v1/x': ", 0), 0u) << s;
    EXPECT_NE(s.message().find(c.message_part), std::string::npos) << s;
    // The reason survives a prefix added by a caller.
    EXPECT_EQ(apiReasonOf(s.withPrefix("failed to sync")), c.reason);
  }
}

TEST(ApiErrorTest, Predicates) {
  const Status not_found = apiErrorStatus(404, "", "GET", "/p");
  const Status conflict = apiErrorStatus(409, "", "PUT", "/p");
  const Status gone = apiErrorStatus(410, "", "GET", "/p");
  const Status expired = apiErrorStatus(
      410, R"({"kind":"Status","reason":"Expired","message":"continue token expired"})", "GET",
      "/p");
  const Status throttled = apiErrorStatus(429, "", "POST", "/p");
  const Status too_large = apiErrorStatus(413, "", "POST", "/p");
  EXPECT_TRUE(isNotFound(not_found));
  EXPECT_FALSE(isNotFound(conflict));
  EXPECT_TRUE(isConflict(conflict));
  EXPECT_TRUE(isGone(gone));
  EXPECT_TRUE(isGone(expired));
  EXPECT_FALSE(isGone(Status::failedPrecondition("not leader")));
  EXPECT_TRUE(isTooManyRequests(throttled));
  EXPECT_FALSE(isTooManyRequests(too_large));
  EXPECT_EQ(too_large.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(isForbidden(apiErrorStatus(403, "", "GET", "/p")));
  EXPECT_TRUE(isInvalid(apiErrorStatus(422, "", "GET", "/p")));
  EXPECT_EQ(apiReasonOf(Status::ok()), "");
  EXPECT_EQ(apiReasonOf(Status::internal("boom: bad")), "");
}

TEST(ApiErrorTest, RetryAfterFromDetails) {
  const ApiError e = decodeApiError(
      429,
      R"({"kind":"Status","reason":"TooManyRequests","message":"slow down","details":{"retryAfterSeconds":7}})");
  EXPECT_EQ(e.retry_after_seconds, 7);
  EXPECT_EQ(e.http_code, 429);
  EXPECT_EQ(e.message, "slow down");
}

}  // namespace
}  // namespace koord::k8s
