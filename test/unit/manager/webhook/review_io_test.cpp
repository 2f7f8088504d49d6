// The admission review wire: decode limits and errors, the reply for malformed reviews, and the
// response review that serveAdmission writes.
#include "manager/webhook/review_io.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

using api::admission::AdmissionRequest;
using api::admission::AdmissionResponse;
using testing::json;

constexpr const char* kValid = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
  "request":{"uid":"u-1","kind":{"group":"","version":"v1","kind":"Pod"},
  "resource":{"group":"","version":"v1","resource":"pods"},"namespace":"default",
  "operation":"CREATE","object":{"metadata":{"name":"p"}}}})";

class EchoHandler final : public AdmissionHandler {
 public:
  std::string_view name() const override { return "echo"; }
  std::string_view path() const override { return "/echo"; }
  AdmissionResponse admit(const AdmissionRequest& request) const override {
    if (request.name == "throw") {
      throw std::runtime_error("boom");
    }
    auto r = api::admission::patchResponse(
        request, json(R"([{"op":"add","path":"/metadata/labels","value":{"a":"b"}}])"));
    return *r;
  }
};

TEST(ReviewIoTest, DecodesAValidReview) {
  auto review = decodeAdmissionReview(kValid);
  ASSERT_TRUE(review.ok()) << review.status();
  EXPECT_EQ(review->request->uid, "u-1");
  EXPECT_EQ(review->request->operation, "CREATE");
  EXPECT_EQ(review->request->object["metadata"]["name"], "p");
}

TEST(ReviewIoTest, MalformedReviewsAreClearErrors) {
  struct Case {
    std::string name;
    std::string body;
    std::string message;  // the whole message after "failed to decode AdmissionReview: "
  };
  const std::vector<Case> cases = {
      {"not JSON", "this is not json", ""},
      {"empty body", "", ""},
      {"array", "[1,2]", "expected object, got array"},
      {"v1beta1", R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",
          "request":{"uid":"u"}})",
       "apiVersion: expected admission.k8s.io/v1, got \"admission.k8s.io/v1beta1\""},
      {"no apiVersion", R"({"kind":"AdmissionReview","request":{"uid":"u"}})",
       "apiVersion: expected admission.k8s.io/v1, got none"},
      {"wrong kind", R"({"apiVersion":"admission.k8s.io/v1","kind":"Pod","request":{"uid":"u"}})",
       "kind: expected AdmissionReview, got \"Pod\""},
      {"no request", R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})",
       "request: required"},
      {"null request",
       R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":null})",
       "request: required"},
      {"request without uid",
       R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}})",
       "request.uid: required"},
      {"request of the wrong type",
       R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":"x"})",
       "request: expected object, got string"},
  };
  for (const auto& tc : cases) {
    auto review = decodeAdmissionReview(tc.body);
    ASSERT_FALSE(review.ok()) << tc.name;
    EXPECT_EQ(review.status().code(), StatusCode::kInvalidArgument) << tc.name;
    const std::string& m = review.status().message();
    EXPECT_EQ(m.rfind("failed to decode AdmissionReview: ", 0), 0U) << tc.name << ": " << m;
    if (!tc.message.empty()) {
      EXPECT_EQ(m, "failed to decode AdmissionReview: " + tc.message) << tc.name;
    }
  }
}

TEST(ReviewIoTest, BodyOverTheLimitIsRefusedBeforeParsing) {
  const std::string big(kDefaultMaxReviewBytes + 1, ' ');
  auto review = decodeAdmissionReview(big);
  ASSERT_FALSE(review.ok());
  EXPECT_EQ(review.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(review.status().message(),
            "failed to decode AdmissionReview: body of 3145729 bytes is over the limit of 3145728");
  // A configurable limit: the valid review is refused under a limit smaller than itself.
  EXPECT_FALSE(decodeAdmissionReview(kValid, ReviewLimits{64}).ok());
  EXPECT_TRUE(decodeAdmissionReview(kValid, ReviewLimits{4096}).ok());
}

TEST(ReviewIoTest, DeepNestingIsRefused) {
  std::string deep = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",)"
                     R"("request":{"uid":"u","object":)";
  deep += std::string(10000, '[') + std::string(10000, ']') + "}}";
  auto review = decodeAdmissionReview(deep);
  ASSERT_FALSE(review.ok());
  EXPECT_NE(review.status().message().find("nesting deeper than"), std::string::npos)
      << review.status();
}

TEST(ReviewIoTest, ServeAnswersTheHandlersResponseWithTheRequestUid) {
  EchoHandler handler;
  WebhookReply reply = serveAdmission(handler, kValid);
  EXPECT_EQ(reply.http_status, 200);
  auto review = json(reply.body);
  EXPECT_EQ(review["apiVersion"], "admission.k8s.io/v1");
  EXPECT_EQ(review["kind"], "AdmissionReview");
  EXPECT_FALSE(review.contains("request"));
  EXPECT_EQ(review["response"]["uid"], "u-1");
  EXPECT_EQ(review["response"]["allowed"], true);
  EXPECT_EQ(review["response"]["patchType"], "JSONPatch");
  // The patch travels base64-encoded, as kube-apiserver reads it.
  auto patch = api::admission::base64Decode(review["response"]["patch"].get<std::string>());
  ASSERT_TRUE(patch.ok());
  EXPECT_EQ(json(*patch), json(R"([{"op":"add","path":"/metadata/labels","value":{"a":"b"}}])"));
}

TEST(ReviewIoTest, MalformedReviewGetsA400ReviewThatSaysWhy) {
  EchoHandler handler;
  struct Case {
    std::string body;
    int status;
    std::string uid;
  };
  const std::vector<Case> cases = {
      {"{not json", 400, ""},
      {R"({"apiVersion":"admission.k8s.io/v1","kind":"Nope","request":{"uid":"u-9"}})", 400, "u-9"},
      {std::string(kDefaultMaxReviewBytes + 10, 'x'), 413, ""},
  };
  for (const auto& tc : cases) {
    WebhookReply reply = serveAdmission(handler, tc.body);
    EXPECT_EQ(reply.http_status, tc.status);
    auto review = json(reply.body);
    EXPECT_EQ(review["response"]["allowed"], false);
    EXPECT_EQ(review["response"]["uid"], tc.uid);
    EXPECT_EQ(review["response"]["status"]["code"], tc.status);
    EXPECT_EQ(review["response"]["status"]["message"].get<std::string>().rfind(
                  "failed to decode AdmissionReview: ", 0),
              0U);
  }
}

TEST(ReviewIoTest, AHandlerThatThrowsIsADenialNotACrash) {
  EchoHandler handler;
  auto body = json(kValid);
  body["request"]["name"] = "throw";
  WebhookReply reply = serveAdmission(handler, body.dump());
  EXPECT_EQ(reply.http_status, 200);
  auto review = json(reply.body);
  EXPECT_EQ(review["response"]["allowed"], false);
  EXPECT_EQ(review["response"]["uid"], "u-1");
  EXPECT_EQ(review["response"]["status"]["code"], 500);
  EXPECT_EQ(review["response"]["status"]["message"], "webhook echo failed: boom");
}

}  // namespace
}  // namespace koord::manager::webhook
