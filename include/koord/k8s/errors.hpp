// API errors: how an API server's failure reply (an HTTP code and a meta/v1 Status body) becomes a
// koord::Status, and how callers ask what kind of failure it was.
//
// The Status message starts with the Kubernetes reason followed by ": " ("NotFound: ...",
// "Conflict: ...", "TooManyRequests: ..."), so the reason survives any copy of the Status; the
// code follows this table:
//   400 BadRequest, 406, 415, 422 Invalid        kInvalidArgument
//   401 Unauthorized, 403 Forbidden              kPermissionDenied
//   404 NotFound                                 kNotFound
//   405 MethodNotAllowed                         kUnimplemented
//   409 AlreadyExists                            kAlreadyExists
//   409 Conflict (and other 409s)                kConflict
//   410 Expired / Gone                           kFailedPrecondition (re-list: isGone())
//   413 RequestEntityTooLarge, 429               kResourceExhausted
//   504 Timeout (and reason Timeout)             kDeadlineExceeded
//   500, 502, 503 and other 5xx                  kUnavailable
//   any other non-2xx                            kInternal
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "koord/common/status.hpp"

namespace koord::k8s {

// What the API server said, recovered from a Status made by apiErrorStatus().
struct ApiError {
  int http_code = 0;    // 0 when not known (a Status not made from a reply)
  std::string reason;   // "NotFound", "Conflict", ...
  std::string message;  // the server's message (with its causes appended)
  int retry_after_seconds = 0;
};

// The Status for a failed reply: `http_code`, the raw `body` (a meta/v1 Status when the server
// sent one; anything else is quoted, cut to 512 bytes) and the request it answered, e.g.
// "NotFound: failed to GET '/api/v1/namespaces/a/pods/b': pods \"b\" not found".
[[nodiscard]] Status apiErrorStatus(int http_code, std::string_view body, std::string_view method,
                                    std::string_view path);
// As above, but from the fields already decoded.
[[nodiscard]] Status apiErrorStatus(const ApiError& error, std::string_view method,
                                    std::string_view path);

// Decodes the parts apiErrorStatus() needs from a reply body; reason defaults from the HTTP code.
[[nodiscard]] ApiError decodeApiError(int http_code, std::string_view body);

// The Kubernetes reason carried by `status` (found even after withPrefix()), or "" when none.
[[nodiscard]] std::string apiReasonOf(const Status& status);

// The standard reason for an HTTP code ("NotFound" for 404, ...), "" when there is none.
[[nodiscard]] std::string_view reasonForHttpCode(int http_code);

[[nodiscard]] bool isNotFound(const Status& status);
[[nodiscard]] bool isAlreadyExists(const Status& status);
[[nodiscard]] bool isConflict(const Status& status);
[[nodiscard]] bool isInvalid(const Status& status);
[[nodiscard]] bool isForbidden(const Status& status);
// 410 Gone or reason Expired: the resourceVersion is too old; re-list.
[[nodiscard]] bool isGone(const Status& status);
// 429: rate limited by the server, or an eviction refused by a PodDisruptionBudget.
[[nodiscard]] bool isTooManyRequests(const Status& status);

}  // namespace koord::k8s
