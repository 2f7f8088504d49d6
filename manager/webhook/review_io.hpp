// The admission.k8s.io/v1 wire of koord-manager's webhooks: the POST body kube-apiserver sends,
// decoded into an AdmissionReview under limits; the response review encoded back; and
// serveAdmission(), body in and reply out for one AdmissionHandler. Pure: no sockets.
//
//   WebhookReply reply = serveAdmission(pod_mutating, body);  // never throws
//   // write reply.http_status, Content-Type: application/json, reply.body
//
// A malformed review (over the size limit, not JSON, not an object, apiVersion other than
// admission.k8s.io/v1, kind other than AdmissionReview, no request, a request without uid, a
// request field of the wrong type) is answered with http_status 400 (413 for a body over the
// limit) and a body that is still an AdmissionReview: response {uid: "" or the request's uid when
// it could be read, allowed: false, status {code: 400|413, message}}. Anything the handler
// decides is http_status 200 with the handler's response.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "koord/api/admission/review.hpp"
#include "koord/common/result.hpp"
#include "manager/webhook/handler.hpp"

namespace koord::manager::webhook {

// kube-apiserver refuses request bodies over 3 MiB; a review carries the object (and the old one
// on UPDATE), so a larger body is not one it sends.
inline constexpr std::size_t kDefaultMaxReviewBytes = 3 * 1024 * 1024;

struct ReviewLimits {
  std::size_t max_body_bytes = kDefaultMaxReviewBytes;
};

// The body as an AdmissionReview with a request. Errors:
//   kResourceExhausted "failed to decode AdmissionReview: body of N bytes is over the limit of M"
//   kInvalidArgument   "failed to decode AdmissionReview: <cause>" for everything else listed
//                      above (the JSON parser's error with its byte offset, the field path of a
//                      wrong type, "apiVersion: expected admission.k8s.io/v1, got ...").
[[nodiscard]] Result<api::admission::AdmissionReview> decodeAdmissionReview(
    std::string_view body, const ReviewLimits& limits = {});

// The JSON text of `review` (the patch base64-encoded, as the API server expects).
[[nodiscard]] std::string encodeAdmissionReview(const api::admission::AdmissionReview& review);

struct WebhookReply {
  int http_status = 200;
  std::string body;  // application/json: an AdmissionReview
};

// decodeAdmissionReview, handler.admit() (an exception escaping it becomes a denial with code
// 500), and the response review with the request review's apiVersion. Never throws.
[[nodiscard]] WebhookReply serveAdmission(const AdmissionHandler& handler, std::string_view body,
                                          const ReviewLimits& limits = {});

}  // namespace koord::manager::webhook
