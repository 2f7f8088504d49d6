#include "koord/api/admission/review.hpp"

#include <array>

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

Status fromJson(const Json& j, GroupVersionKind& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("group", out.group).field("version", out.version).field("kind", out.kind);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const GroupVersionKind& v) {
  ObjectEncoder e;
  e.always("group", v.group).always("version", v.version).always("kind", v.kind);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, GroupVersionResource& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("group", out.group).field("version", out.version).field("resource", out.resource);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const GroupVersionResource& v) {
  ObjectEncoder e;
  e.always("group", v.group).always("version", v.version).always("resource", v.resource);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, AdmissionRequest& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("uid", out.uid)
      .field("kind", out.kind)
      .field("resource", out.resource)
      .field("subResource", out.subResource)
      .field("requestKind", out.requestKind)
      .field("requestResource", out.requestResource)
      .field("requestSubResource", out.requestSubResource)
      .field("name", out.name)
      .field("namespace", out.namespace_)
      .field("operation", out.operation)
      .field("userInfo", out.userInfo)
      .field("object", out.object)
      .field("oldObject", out.oldObject)
      .field("dryRun", out.dryRun)
      .field("options", out.options);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const AdmissionRequest& v) {
  ObjectEncoder e;
  e.always("uid", v.uid)
      .always("kind", v.kind)
      .always("resource", v.resource)
      .field("subResource", v.subResource)
      .field("requestKind", v.requestKind)
      .field("requestResource", v.requestResource)
      .field("requestSubResource", v.requestSubResource)
      .field("name", v.name)
      .field("namespace", v.namespace_)
      .always("operation", v.operation)
      .always("userInfo", v.userInfo.is_null() ? Json::object() : v.userInfo)
      // RawExtensions: Go writes an empty one as null rather than omitting it.
      .always("object", v.object)
      .always("oldObject", v.oldObject)
      .field("dryRun", v.dryRun)
      .always("options", v.options);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, AdmissionResponse& out, const std::string& path) {
  ObjectDecoder d(j, path);
  Json patch;
  d.field("uid", out.uid)
      .field("allowed", out.allowed)
      .field("status", out.result)
      .field("patch", patch)
      .field("patchType", out.patchType)
      .field("warnings", out.warnings)
      .field("auditAnnotations", out.auditAnnotations);
  KOORD_RETURN_IF_ERROR(d.status());
  if (!patch.is_null()) {
    KOORD_RETURN_IF_ERROR(patchFromJson(patch, out.patch, childPath(path, "patch")));
  }
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const AdmissionResponse& v) {
  ObjectEncoder e;
  e.always("uid", v.uid).always("allowed", v.allowed);
  if (v.result) {
    e.always("status", *v.result);
  }
  if (!v.patch.empty()) {
    e.always("patch", base64Encode(v.patch));
  }
  if (v.patchType) {
    e.always("patchType", *v.patchType);
  }
  e.field("warnings", v.warnings).field("auditAnnotations", v.auditAnnotations);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, AdmissionReview& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("request", out.request)
      .field("response", out.response);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const AdmissionReview& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion).field("kind", v.kind);
  if (v.request) {
    e.always("request", *v.request);
  }
  if (v.response) {
    e.always("response", *v.response);
  }
  return e.finish(v.extra);
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
