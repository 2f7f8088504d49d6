#include "koord/api/admission/review.hpp"

#include <gtest/gtest.h>

#include <string>

#include "koord/api/codec.hpp"

namespace koord::api::admission {
namespace {

Json mustParse(const char* text) {
  auto j = parseJson(text);
  EXPECT_TRUE(j.ok()) << j.status();
  return j.ok() ? *j : Json();
}

// As kube-apiserver sends it to a mutating webhook for a pod CREATE.
constexpr const char* kCreateReview = R"({
  "kind": "AdmissionReview",
  "apiVersion": "admission.k8s.io/v1",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "kind": {"group": "", "version": "v1", "kind": "Pod"},
    "resource": {"group": "", "version": "v1", "resource": "pods"},
    "requestKind": {"group": "", "version": "v1", "kind": "Pod"},
    "requestResource": {"group": "", "version": "v1", "resource": "pods"},
    "name": "web-0",
    "namespace": "default",
    "operation": "CREATE",
    "userInfo": {"username": "system:serviceaccount:kube-system:replicaset-controller",
                 "uid": "u-1", "groups": ["system:serviceaccounts", "system:authenticated"]},
    "object": {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "web-0", "namespace": "default", "labels": {"koordinator.sh/qosClass": "BE"}},
               "spec": {"containers": [{"name": "c", "image": "nginx"}]}},
    "oldObject": null,
    "dryRun": false,
    "options": {"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1", "fieldManager": "kubectl"}
  }
})";

TEST(AdmissionReviewTest, DecodesARequest) {
  auto review = decode<AdmissionReview>(kCreateReview);
  ASSERT_TRUE(review.ok()) << review.status();
  ASSERT_TRUE(review->request.has_value());
  const AdmissionRequest& req = *review->request;
  EXPECT_EQ(req.uid, "705ab4f5-6393-11e8-b7cc-42010a800002");
  EXPECT_EQ(req.kind.kind, "Pod");
  EXPECT_EQ(req.resource.resource, "pods");
  ASSERT_TRUE(req.requestKind.has_value());
  EXPECT_EQ(req.requestKind->version, "v1");
  EXPECT_EQ(req.namespace_, "default");
  EXPECT_EQ(req.operation, "CREATE");
  EXPECT_EQ(req.userInfo.at("username"), "system:serviceaccount:kube-system:replicaset-controller");
  EXPECT_EQ(req.object.at("metadata").at("labels").at("koordinator.sh/qosClass"), "BE");
  EXPECT_TRUE(req.oldObject.is_null());
  EXPECT_EQ(req.dryRun, false);
  EXPECT_EQ(req.options.at("fieldManager"), "kubectl");
  EXPECT_FALSE(review->response.has_value());
}

TEST(AdmissionReviewTest, RequestRoundTrips) {
  Json in = mustParse(kCreateReview);
  AdmissionReview review;
  ASSERT_TRUE(fromJson(in, review, "").isOk());
  Json out = toJson(review);
  EXPECT_EQ(out, in) << Json::diff(in, out).dump();
}

TEST(AdmissionReviewTest, AllowResponse) {
  auto review = decode<AdmissionReview>(kCreateReview);
  ASSERT_TRUE(review.ok()) << review.status();
  Json out = toJson(reviewWithResponse(*review, allowResponse(*review->request)));
  EXPECT_EQ(out, mustParse(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
      "response":{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002","allowed":true}})"));
}

TEST(AdmissionReviewTest, DenyResponse) {
  AdmissionRequest req;
  req.uid = "u1";
  AdmissionResponse resp = denyResponse(req, 403, "quota exceeded", "Forbidden");
  resp.warnings = {"deprecated field"};
  Json out = toJson(resp);
  EXPECT_EQ(out, mustParse(R"({"uid":"u1","allowed":false,
      "status":{"metadata":{},"status":"Failure","message":"quota exceeded","reason":"Forbidden","code":403},
      "warnings":["deprecated field"]})"));
  auto back = decode<AdmissionResponse>(out.dump());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, resp);
}

TEST(AdmissionReviewTest, PatchResponseIsBase64JsonPatch) {
  AdmissionRequest req;
  req.uid = "u2";
  Json ops = mustParse(
      R"([{"op":"add","path":"/metadata/labels/koordinator.sh~1qosClass","value":"BE"},
          {"op":"replace","path":"/spec/schedulerName","value":"koord-scheduler"}])");
  auto resp = patchResponse(req, ops);
  ASSERT_TRUE(resp.ok()) << resp.status();
  EXPECT_TRUE(resp->allowed);
  EXPECT_EQ(resp->patchType, kPatchTypeJsonPatch);
  Json wire = toJson(*resp);
  EXPECT_EQ(wire["uid"], "u2");
  EXPECT_EQ(wire["patchType"], "JSONPatch");
  ASSERT_TRUE(wire["patch"].is_string());
  auto patch_bytes = base64Decode(wire["patch"].get<std::string>());
  ASSERT_TRUE(patch_bytes.ok()) << patch_bytes.status();
  EXPECT_EQ(mustParse(patch_bytes->c_str()), ops);

  auto back = decode<AdmissionResponse>(wire.dump());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->patch, resp->patch);
}

TEST(AdmissionReviewTest, PatchResponseEdgeCases) {
  AdmissionRequest req;
  req.uid = "u3";
  auto empty = patchResponse(req, Json::array());
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(toJson(*empty), mustParse(R"({"uid":"u3","allowed":true})"));

  auto not_array = patchResponse(req, Json::object());
  ASSERT_FALSE(not_array.ok());
  EXPECT_EQ(not_array.status().message(), "patch: expected array, got object");

  // Invalid UTF-8 in a value must not throw out of the encoder.
  Json bad_utf8 = Json::array({{{"op", "add"}, {"path", "/a"}, {"value", std::string("\xff")}}});
  auto replaced = patchResponse(req, bad_utf8);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_FALSE(replaced->patch.empty());
}

struct ErrorCase {
  const char* name;
  const char* text;
  const char* message;
};

TEST(AdmissionReviewTest, ErrorsNameThePath) {
  const ErrorCase cases[] = {
      {"request not an object", R"({"request":[]})", "request: expected object, got array"},
      {"kind not an object", R"({"request":{"kind":"Pod"}})",
       "request.kind: expected object, got string"},
      {"dryRun not a boolean", R"({"request":{"dryRun":"false"}})",
       "request.dryRun: expected boolean, got string"},
      {"allowed not a boolean", R"({"response":{"allowed":1}})",
       "response.allowed: expected boolean, got number"},
      {"patch not base64", R"({"response":{"patch":"not base64!"}})",
       "response.patch: illegal base64 data"},
      {"patch not a string", R"({"response":{"patch":[1]}})",
       "response.patch: expected string, got array"},
      {"status code", R"({"response":{"status":{"code":"403"}}})",
       "response.status.code: expected integer, got string"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto review = decode<AdmissionReview>(c.text);
    ASSERT_FALSE(review.ok());
    EXPECT_EQ(review.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(review.status().message().rfind(c.message, 0), 0U) << review.status().message();
  }
}

TEST(Base64Test, Rfc4648Vectors) {
  const std::pair<const char*, const char*> cases[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : cases) {
    EXPECT_EQ(base64Encode(plain), encoded);
    auto decoded = base64Decode(encoded);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, plain);
  }
  const std::string binary("\x00\xff\x10\x80", 4);
  EXPECT_EQ(base64Encode(binary), "AP8QgA==");
  EXPECT_EQ(base64Decode("AP8QgA==").valueOr(""), binary);
}

TEST(Base64Test, DecodeRejectsBadInput) {
  const char* bad[] = {"Zg", "Zg=", "Z===", "Zm9v=g==", "Zm9v!A==", "Zg==Zg==", "Zm=v"};
  for (const char* text : bad) {
    auto decoded = base64Decode(text);
    EXPECT_FALSE(decoded.ok()) << text;
    EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument) << text;
  }
  // Line breaks are skipped, as Go's StdEncoding does.
  EXPECT_EQ(base64Decode("Zm9v\r\nYmFy").valueOr("?"), "foobar");
}

}  // namespace
}  // namespace koord::api::admission
