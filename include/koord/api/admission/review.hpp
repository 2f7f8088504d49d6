// admission.k8s.io/v1 AdmissionReview, as the API server sends it to a webhook and expects it
// back, plus helpers that build the allow / deny / patch responses. Conventions: core/meta.hpp
// (unknown keys kept in `extra`; fromJson never throws and names the field path).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/common/result.hpp"

namespace koord::api::admission {

inline constexpr const char* kAdmissionApiVersion = "admission.k8s.io/v1";
inline constexpr const char* kAdmissionReviewKind = "AdmissionReview";
inline constexpr const char* kPatchTypeJsonPatch = "JSONPatch";

struct GroupVersionKind {
  std::string group;
  std::string version;
  std::string kind;
  Json extra;

  bool operator==(const GroupVersionKind&) const = default;
};

struct GroupVersionResource {
  std::string group;
  std::string version;
  std::string resource;
  Json extra;

  bool operator==(const GroupVersionResource&) const = default;
};

struct AdmissionRequest {
  std::string uid;
  GroupVersionKind kind;
  GroupVersionResource resource;
  std::string subResource;
  std::optional<GroupVersionKind> requestKind;
  std::optional<GroupVersionResource> requestResource;
  std::string requestSubResource;
  std::string name;
  std::string namespace_;  // JSON "namespace"
  std::string operation;   // CREATE, UPDATE, DELETE, CONNECT
  Json userInfo;           // raw authentication/v1 UserInfo
  Json object;             // raw; null for DELETE
  Json oldObject;          // raw; null for CREATE and CONNECT
  std::optional<bool> dryRun;
  Json options;  // raw CreateOptions / UpdateOptions / DeleteOptions
  Json extra;

  bool operator==(const AdmissionRequest&) const = default;
};

struct AdmissionResponse {
  std::string uid;
  bool allowed = false;
  // The reason for a denial (code, message, reason); the API server shows the message to the user.
  std::optional<core::ApiStatus> result;
  // The RFC 6902 patch document as raw JSON text (not base64): the codec base64-encodes it on the
  // wire and decodes it on read. Empty when there is no patch.
  std::string patch;
  std::optional<std::string> patchType;  // "JSONPatch" when patch is set
  std::vector<std::string> warnings;
  std::map<std::string, std::string> auditAnnotations;
  Json extra;

  bool operator==(const AdmissionResponse&) const = default;
};

struct AdmissionReview {
  std::string apiVersion;  // admission.k8s.io/v1
  std::string kind;        // AdmissionReview
  std::optional<AdmissionRequest> request;
  std::optional<AdmissionResponse> response;
  Json extra;

  bool operator==(const AdmissionReview&) const = default;
};

Status fromJson(const Json& j, GroupVersionKind& out, const std::string& path);
Status fromJson(const Json& j, GroupVersionResource& out, const std::string& path);
Status fromJson(const Json& j, AdmissionRequest& out, const std::string& path);
Status fromJson(const Json& j, AdmissionResponse& out, const std::string& path);
Status fromJson(const Json& j, AdmissionReview& out, const std::string& path);

Json toJson(const GroupVersionKind& v);
Json toJson(const GroupVersionResource& v);
Json toJson(const AdmissionRequest& v);
Json toJson(const AdmissionResponse& v);
Json toJson(const AdmissionReview& v);

// Standard base64 (RFC 4648, with padding), as Go's encoding/json writes []byte.
[[nodiscard]] std::string base64Encode(std::string_view bytes);
// The inverse; '\r' and '\n' are skipped as Go's StdEncoding does; anything else that is not
// base64 (or bad padding) is kInvalidArgument.
[[nodiscard]] Result<std::string> base64Decode(std::string_view text);

// An allowing response for `request` (same uid).
[[nodiscard]] AdmissionResponse allowResponse(const AdmissionRequest& request);

// A denying response: allowed false, result {status: Failure, code, reason, message}.
// `code` is an HTTP status (403 for a policy denial, 400 for a bad object).
[[nodiscard]] AdmissionResponse denyResponse(const AdmissionRequest& request, int32_t code,
                                             std::string message, std::string reason = "");

// An allowing response that carries `json_patch` (an RFC 6902 array of operations) with patchType
// JSONPatch. An empty array yields a plain allow with no patch. kInvalidArgument when `json_patch`
// is not an array.
[[nodiscard]] Result<AdmissionResponse> patchResponse(const AdmissionRequest& request,
                                                      const Json& json_patch);

// The review to send back for `request_review`: same apiVersion (admission.k8s.io/v1 when empty),
// kind AdmissionReview, no request, the given response.
[[nodiscard]] AdmissionReview reviewWithResponse(const AdmissionReview& request_review,
                                                 AdmissionResponse response);

}  // namespace koord::api::admission
