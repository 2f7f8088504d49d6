#include "koord/api/admission/review.hpp"

#include <array>

#include "koord/api/fields.hpp"

namespace koord::api::admission {

namespace {

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// 0..63 for alphabet characters, -1 otherwise.
int base64Value(char c) {
  if (c >= 'A' && c <= 'Z') {
    return c - 'A';
  }
  if (c >= 'a' && c <= 'z') {
    return c - 'a' + 26;
  }
  if (c >= '0' && c <= '9') {
    return c - '0' + 52;
  }
  if (c == '+') {
    return 62;
  }
  if (c == '/') {
    return 63;
  }
  return -1;
}

// `patch` on the wire: base64 text of the patch bytes.
Status patchFromJson(const Json& j, std::string& out, const std::string& path) {
  std::string text;
  KOORD_RETURN_IF_ERROR(api::fromJson(j, text, path));
  auto bytes = base64Decode(text);
  if (!bytes.ok()) {
    return bytes.status().withPrefix(path);
  }
  out = std::move(*bytes);
  return Status::ok();
}

Json patchToJson(const std::string& patch) {
  return base64Encode(patch);
}

// Go's authenticationv1.UserInfo is a struct: written as {} when the request had none.
Json userInfoToJson(const Json& user_info) {
  return user_info.is_null() ? Json::object() : user_info;
}

}  // namespace

std::string base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16) |
                 (static_cast<uint8_t>(bytes[i + 1]) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += kBase64Alphabet[(n >> 6) & 63];
    out += kBase64Alphabet[n & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest == 1) {
    uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += "==";
  } else if (rest == 2) {
    uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += kBase64Alphabet[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

Result<std::string> base64Decode(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c != '\r' && c != '\n') {
      clean += c;
    }
  }
  if (clean.size() % 4 != 0) {
    return Status::invalidArgument("illegal base64 data: length is not a multiple of 4");
  }
  std::string out;
  out.reserve(clean.size() / 4 * 3);
  for (size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    std::array<int, 4> v{};
    int padding = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = clean[i + k];
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        ++padding;
        continue;
      }
      if (padding > 0 || (v[k] = base64Value(c)) < 0) {
        return Status::invalidArgument("illegal base64 data at input byte " +
                                       std::to_string(i + k));
      }
    }
    const uint32_t n = (static_cast<uint32_t>(v[0]) << 18) | (static_cast<uint32_t>(v[1]) << 12) |
                       (static_cast<uint32_t>(v[2]) << 6) | static_cast<uint32_t>(v[3]);
    out += static_cast<char>((n >> 16) & 0xff);
    if (padding < 2) {
      out += static_cast<char>((n >> 8) & 0xff);
    }
    if (padding < 1) {
      out += static_cast<char>(n & 0xff);
    }
  }
  return out;
}

constexpr auto kGroupVersionKindFields = std::tuple{
    field("group", &GroupVersionKind::group).always(),
    field("version", &GroupVersionKind::version).always(),
    field("kind", &GroupVersionKind::kind).always(),
};

Status fromJson(const Json& j, GroupVersionKind& out, const std::string& path) {
  return decodeFields(j, out, path, kGroupVersionKindFields);
}

Json toJson(const GroupVersionKind& v) {
  return encodeFields(v, kGroupVersionKindFields);
}

constexpr auto kGroupVersionResourceFields = std::tuple{
    field("group", &GroupVersionResource::group).always(),
    field("version", &GroupVersionResource::version).always(),
    field("resource", &GroupVersionResource::resource).always(),
};

Status fromJson(const Json& j, GroupVersionResource& out, const std::string& path) {
  return decodeFields(j, out, path, kGroupVersionResourceFields);
}

Json toJson(const GroupVersionResource& v) {
  return encodeFields(v, kGroupVersionResourceFields);
}

constexpr auto kAdmissionRequestFields = std::tuple{
    field("uid", &AdmissionRequest::uid).always(),
    field("kind", &AdmissionRequest::kind).always(),
    field("resource", &AdmissionRequest::resource).always(),
    field("subResource", &AdmissionRequest::subResource),
    field("requestKind", &AdmissionRequest::requestKind),
    field("requestResource", &AdmissionRequest::requestResource),
    field("requestSubResource", &AdmissionRequest::requestSubResource),
    field("name", &AdmissionRequest::name),
    field("namespace", &AdmissionRequest::namespace_),
    field("operation", &AdmissionRequest::operation).always(),
    field("userInfo", &AdmissionRequest::userInfo).always().encodeWith(&userInfoToJson),
    // RawExtensions: Go writes an empty one as null rather than omitting it.
    field("object", &AdmissionRequest::object).always(),
    field("oldObject", &AdmissionRequest::oldObject).always(),
    field("dryRun", &AdmissionRequest::dryRun),
    field("options", &AdmissionRequest::options).always(),
};

Status fromJson(const Json& j, AdmissionRequest& out, const std::string& path) {
  return decodeFields(j, out, path, kAdmissionRequestFields);
}

Json toJson(const AdmissionRequest& v) {
  return encodeFields(v, kAdmissionRequestFields);
}

constexpr auto kAdmissionResponseFields = std::tuple{
    field("uid", &AdmissionResponse::uid).always(),
    field("allowed", &AdmissionResponse::allowed).always(),
    field("status", &AdmissionResponse::result).ifSet(),
    field("patchType", &AdmissionResponse::patchType).ifSet(),
    field("warnings", &AdmissionResponse::warnings),
    field("auditAnnotations", &AdmissionResponse::auditAnnotations),
    // Last, so that a bad base64 patch is reported only when every other field decoded. Base64 on
    // the wire; an empty patch encodes as "" and is omitted.
    field("patch", &AdmissionResponse::patch).decodeWith(&patchFromJson).encodeWith(&patchToJson),
};

Status fromJson(const Json& j, AdmissionResponse& out, const std::string& path) {
  return decodeFields(j, out, path, kAdmissionResponseFields);
}

Json toJson(const AdmissionResponse& v) {
  return encodeFields(v, kAdmissionResponseFields);
}

constexpr auto kAdmissionReviewFields = std::tuple{
    field("apiVersion", &AdmissionReview::apiVersion),
    field("kind", &AdmissionReview::kind),
    field("request", &AdmissionReview::request).ifSet(),
    field("response", &AdmissionReview::response).ifSet(),
};

Status fromJson(const Json& j, AdmissionReview& out, const std::string& path) {
  return decodeFields(j, out, path, kAdmissionReviewFields);
}

Json toJson(const AdmissionReview& v) {
  return encodeFields(v, kAdmissionReviewFields);
}

AdmissionResponse allowResponse(const AdmissionRequest& request) {
  AdmissionResponse r;
  r.uid = request.uid;
  r.allowed = true;
  return r;
}

AdmissionResponse denyResponse(const AdmissionRequest& request, int32_t code, std::string message,
                               std::string reason) {
  AdmissionResponse r;
  r.uid = request.uid;
  r.allowed = false;
  core::ApiStatus status;
  status.status = "Failure";
  status.code = code;
  status.message = std::move(message);
  status.reason = std::move(reason);
  r.result = std::move(status);
  return r;
}

Result<AdmissionResponse> patchResponse(const AdmissionRequest& request, const Json& json_patch) {
  if (!json_patch.is_array()) {
    return typeError("patch", "array", json_patch);
  }
  AdmissionResponse r = allowResponse(request);
  if (json_patch.empty()) {
    return r;
  }
  // The replace handler keeps dump() from throwing on invalid UTF-8 in a string value.
  r.patch = json_patch.dump(-1, ' ', false, Json::error_handler_t::replace);
  r.patchType = kPatchTypeJsonPatch;
  return r;
}

AdmissionReview reviewWithResponse(const AdmissionReview& request_review,
                                   AdmissionResponse response) {
  AdmissionReview out;
  out.apiVersion =
      request_review.apiVersion.empty() ? kAdmissionApiVersion : request_review.apiVersion;
  out.kind = kAdmissionReviewKind;
  out.response = std::move(response);
  return out;
}

}  // namespace koord::api::admission
