#include "manager/webhook/review_io.hpp"

#include <exception>
#include <string>
#include <utility>

#include "koord/api/codec.hpp"

namespace koord::manager::webhook {
namespace {

using api::Json;
using api::admission::AdmissionRequest;
using api::admission::AdmissionResponse;
using api::admission::AdmissionReview;

constexpr std::string_view kDecodePrefix = "failed to decode AdmissionReview";

Status invalid(const std::string& cause) {
  return Status::invalidArgument(std::string(kDecodePrefix) + ": " + cause);
}

std::string quoted(const Json& j) {
  return j.is_string() ? "\"" + j.get<std::string>() + "\"" : std::string(api::jsonTypeName(j));
}

Status checkTypeMeta(const Json& j) {
  const auto version = j.find("apiVersion");
  if (version == j.end() || !version->is_string() ||
      version->get<std::string>() != api::admission::kAdmissionApiVersion) {
    return invalid(std::string("apiVersion: expected ") + api::admission::kAdmissionApiVersion +
                   ", got " + (version == j.end() ? "none" : quoted(*version)));
  }
  const auto kind = j.find("kind");
  if (kind == j.end() || !kind->is_string() ||
      kind->get<std::string>() != api::admission::kAdmissionReviewKind) {
    return invalid(std::string("kind: expected ") + api::admission::kAdmissionReviewKind +
                   ", got " + (kind == j.end() ? "none" : quoted(*kind)));
  }
  const auto request = j.find("request");
  if (request == j.end() || request->is_null()) {
    return invalid("request: required");
  }
  return Status::ok();
}

// The request's uid when the body is an object holding request.uid as a string; "" otherwise.
std::string uidOf(const Json& j) {
  if (!j.is_object()) {
    return "";
  }
  const auto request = j.find("request");
  if (request == j.end() || !request->is_object()) {
    return "";
  }
  return api::stringOr(*request, "uid");
}

WebhookReply malformed(const Status& status, const std::string& uid) {
  const int code = status.code() == StatusCode::kResourceExhausted ? 413
                   : status.code() == StatusCode::kInternal        ? 500
                                                                   : 400;
  AdmissionRequest request;
  request.uid = uid;
  AdmissionReview review;
  review.apiVersion = api::admission::kAdmissionApiVersion;
  review.kind = api::admission::kAdmissionReviewKind;
  review.response = api::admission::denyResponse(request, code, status.message(),
                                                 code == 413   ? "RequestEntityTooLarge"
                                                 : code == 500 ? "InternalError"
                                                               : "BadRequest");
  return WebhookReply{code, encodeAdmissionReview(review)};
}

}  // namespace

Result<AdmissionReview> decodeAdmissionReview(std::string_view body, const ReviewLimits& limits) {
  if (body.size() > limits.max_body_bytes) {
    return Status::resourceExhausted(std::string(kDecodePrefix) + ": body of " +
                                     std::to_string(body.size()) + " bytes is over the limit of " +
                                     std::to_string(limits.max_body_bytes));
  }
  auto parsed = api::parseJson(body);
  if (!parsed.ok()) {
    return invalid(parsed.status().message());
  }
  Json j = std::move(parsed).value();
  if (!j.is_object()) {
    return invalid(std::string("expected object, got ") + std::string(api::jsonTypeName(j)));
  }
  if (Status s = checkTypeMeta(j); !s.isOk()) {
    return s;
  }
  // The objects are raw JSON in the model: moved in after decoding rather than copied by it.
  Json object;
  Json old_object;
  Json& request = j["request"];
  if (request.is_object()) {
    if (auto it = request.find("object"); it != request.end()) {
      object = std::move(*it);
      *it = nullptr;
    }
    if (auto it = request.find("oldObject"); it != request.end()) {
      old_object = std::move(*it);
      *it = nullptr;
    }
  }
  AdmissionReview review;
  if (Status s = fromJson(j, review, ""); !s.isOk()) {
    return invalid(s.message());
  }
  review.request->object = std::move(object);
  review.request->oldObject = std::move(old_object);
  if (!review.request || review.request->uid.empty()) {
    return invalid("request.uid: required");
  }
  return review;
}

std::string encodeAdmissionReview(const AdmissionReview& review) {
  // Invalid UTF-8 in a message (an object's own text echoed back) is replaced, never thrown on.
  return toJson(review).dump(-1, ' ', false, Json::error_handler_t::replace);
}

WebhookReply serveAdmission(const AdmissionHandler& handler, std::string_view body,
                            const ReviewLimits& limits) {
  try {
    auto review = decodeAdmissionReview(body, limits);
    if (!review.ok()) {
      std::string uid;
      if (review.status().code() != StatusCode::kResourceExhausted) {
        auto parsed = api::parseJson(body);
        if (parsed.ok()) {
          uid = uidOf(*parsed);
        }
      }
      return malformed(review.status(), uid);
    }
    const AdmissionRequest& request = *review->request;
    AdmissionResponse response;
    try {
      response = handler.admit(request);
    } catch (const std::exception& e) {
      response = api::admission::denyResponse(
          request, 500, "webhook " + std::string(handler.name()) + " failed: " + e.what(),
          "InternalError");
    }
    response.uid = request.uid;
    return WebhookReply{200, encodeAdmissionReview(
                                 api::admission::reviewWithResponse(*review, std::move(response)))};
  } catch (const std::exception& e) {
    return malformed(Status::internal(std::string("webhook failed: ") + e.what()), "");
  }
}

}  // namespace koord::manager::webhook
