#include "koord/k8s/errors.hpp"

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "koord/api/codec.hpp"
#include "koord/k8s/protobuf_object.hpp"

namespace koord::k8s {
namespace {

// meta/v1 StatusReason values (k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
constexpr std::array<std::string_view, 20> kReasons = {"Unauthorized",
                                                       "Forbidden",
                                                       "NotFound",
                                                       "AlreadyExists",
                                                       "Conflict",
                                                       "Gone",
                                                       "Invalid",
                                                       "ServerTimeout",
                                                       "StoreReadError",
                                                       "Timeout",
                                                       "TooManyRequests",
                                                       "BadRequest",
                                                       "MethodNotAllowed",
                                                       "NotAcceptable",
                                                       "RequestEntityTooLarge",
                                                       "UnsupportedMediaType",
                                                       "InternalError",
                                                       "Expired",
                                                       "ServiceUnavailable",
                                                       "Unknown"};

bool isKnownReason(std::string_view word) {
  for (std::string_view r : kReasons) {
    if (r == word) {
      return true;
    }
  }
  return false;
}

StatusCode codeFor(int http_code, std::string_view reason) {
  if (reason == "Expired" || reason == "Gone") {
    return StatusCode::kFailedPrecondition;
  }
  if (reason == "AlreadyExists") {
    return StatusCode::kAlreadyExists;
  }
  if (reason == "Timeout" || reason == "ServerTimeout") {
    return StatusCode::kDeadlineExceeded;
  }
  switch (http_code) {
    case 400:
    case 406:
    case 415:
    case 422:
      return StatusCode::kInvalidArgument;
    case 401:
    case 403:
      return StatusCode::kPermissionDenied;
    case 404:
      return StatusCode::kNotFound;
    case 405:
      return StatusCode::kUnimplemented;
    case 409:
      return StatusCode::kConflict;
    case 410:
      return StatusCode::kFailedPrecondition;
    case 413:
    case 429:
      return StatusCode::kResourceExhausted;
    case 504:
      return StatusCode::kDeadlineExceeded;
    default:
      break;
  }
  if (http_code >= 500 && http_code < 600) {
    return StatusCode::kUnavailable;
  }
  return StatusCode::kInternal;
}

std::string quoteBody(std::string_view body) {
  constexpr size_t kMax = 512;
  std::string out = "HTTP body '";
  out.append(body.substr(0, kMax));
  if (body.size() > kMax) {
    out += "...";
  }
  out += "'";
  return out;
}

}  // namespace

std::string_view reasonForHttpCode(int http_code) {
  switch (http_code) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 406:
      return "NotAcceptable";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 413:
      return "RequestEntityTooLarge";
    case 415:
      return "UnsupportedMediaType";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "Timeout";
    default:
      return "";
  }
}

ApiError decodeApiError(int http_code, std::string_view body) {
  ApiError out;
  out.http_code = http_code;
  // A request that accepts protobuf (a Pod watch) gets its error Status in protobuf too.
  constexpr std::string_view kProtobufMagic("k8s\0", 4);
  nlohmann::json j;
  if (body.starts_with(kProtobufMagic)) {
    Result<api::Json> decoded = decodeProtobufObject(body);
    if (decoded.ok()) {
      j = std::move(decoded).value();
    }
  } else {
    Result<api::Json> parsed = api::parseJson(body);  // depth-limited; anything else: no Status
    if (parsed.ok()) {
      j = std::move(parsed).value();
    }
  }
  const bool is_status = j.is_object() && api::stringOr(j, "kind") == "Status";
  if (is_status) {
    if (j.contains("reason") && j["reason"].is_string()) {
      out.reason = j["reason"].get<std::string>();
    }
    if (j.contains("message") && j["message"].is_string()) {
      out.message = j["message"].get<std::string>();
    }
    if (j.contains("details") && j["details"].is_object()) {
      const auto& details = j["details"];
      if (details.contains("retryAfterSeconds") &&
          details["retryAfterSeconds"].is_number_integer()) {
        out.retry_after_seconds = details["retryAfterSeconds"].get<int>();
      }
      if (details.contains("causes") && details["causes"].is_array()) {
        for (const auto& cause : details["causes"]) {
          if (!cause.is_object()) {
            continue;
          }
          std::string text = api::stringOr(cause, "message");
          if (text.empty() || out.message.find(text) != std::string::npos) {
            continue;
          }
          const std::string field = api::stringOr(cause, "field");
          out.message += out.message.empty() ? "" : "; ";
          out.message += field.empty() ? text : field + ": " + text;
        }
      }
    }
  } else if (!body.empty()) {
    out.message = quoteBody(body);
  }
  if (out.reason.empty() || !isKnownReason(out.reason)) {
    std::string_view def = reasonForHttpCode(http_code);
    if (out.reason.empty()) {
      out.reason = def.empty() ? "Unknown" : std::string(def);
    }
  }
  if (out.message.empty()) {
    out.message = "HTTP " + std::to_string(http_code);
  }
  return out;
}

Status apiErrorStatus(const ApiError& error, std::string_view method, std::string_view path) {
  std::string msg = error.reason;
  msg += ": failed to ";
  msg += method;
  msg += " '";
  msg += path;
  msg += "': ";
  msg += error.message;
  msg += " (HTTP " + std::to_string(error.http_code) + ")";
  return Status(codeFor(error.http_code, error.reason), std::move(msg));
}

Status apiErrorStatus(int http_code, std::string_view body, std::string_view method,
                      std::string_view path) {
  return apiErrorStatus(decodeApiError(http_code, body), method, path);
}

std::string apiReasonOf(const Status& status) {
  if (status.isOk()) {
    return "";
  }
  std::string_view msg = status.message();
  // The reason is the first ": "-separated segment that is a known reason word.
  size_t start = 0;
  while (start < msg.size()) {
    size_t end = msg.find(": ", start);
    std::string_view segment =
        msg.substr(start, end == std::string_view::npos ? msg.npos : end - start);
    if (isKnownReason(segment)) {
      return std::string(segment);
    }
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 2;
  }
  return "";
}

bool isNotFound(const Status& status) {
  return status.code() == StatusCode::kNotFound;
}
bool isAlreadyExists(const Status& status) {
  return status.code() == StatusCode::kAlreadyExists;
}
bool isConflict(const Status& status) {
  return status.code() == StatusCode::kConflict;
}
bool isInvalid(const Status& status) {
  return status.code() == StatusCode::kInvalidArgument && apiReasonOf(status) == "Invalid";
}
bool isForbidden(const Status& status) {
  return status.code() == StatusCode::kPermissionDenied && apiReasonOf(status) == "Forbidden";
}
bool isGone(const Status& status) {
  if (status.code() != StatusCode::kFailedPrecondition) {
    return false;
  }
  const std::string reason = apiReasonOf(status);
  return reason == "Gone" || reason == "Expired";
}
bool isTooManyRequests(const Status& status) {
  return status.code() == StatusCode::kResourceExhausted &&
         apiReasonOf(status) == "TooManyRequests";
}

}  // namespace koord::k8s
