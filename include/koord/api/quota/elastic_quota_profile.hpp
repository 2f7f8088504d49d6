// ElasticQuotaProfile (quota.koordinator.sh/v1alpha1, namespaced, shortName eqp): makes the
// quota controller keep an ElasticQuota whose min is the allocatable of the selected nodes.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"

namespace koord::api::quota {

inline constexpr std::string_view kGroup = "quota.koordinator.sh";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kGroupVersion = "quota.koordinator.sh/v1alpha1";
inline constexpr std::string_view kElasticQuotaProfileKind = "ElasticQuotaProfile";
inline constexpr std::string_view kElasticQuotaProfileListKind = "ElasticQuotaProfileList";
inline constexpr std::string_view kElasticQuotaProfilePlural = "elasticquotaprofiles";
inline constexpr std::string_view kElasticQuotaProfileShortName = "eqp";

struct ElasticQuotaProfileSpec {
  std::string quotaName;  // required: decoding fails without it
  std::map<std::string, std::string> quotaLabels;
  std::optional<std::string> resourceRatio;         // a decimal ratio, e.g. "0.9"
  std::optional<core::LabelSelector> nodeSelector;  // required: decoding fails without it
  Json extra;

  bool operator==(const ElasticQuotaProfileSpec&) const = default;
};

struct ElasticQuotaProfileStatus {
  Json extra;

  bool operator==(const ElasticQuotaProfileStatus&) const = default;
};

struct ElasticQuotaProfile {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  ElasticQuotaProfileSpec spec;
  ElasticQuotaProfileStatus status;
  Json extra;

  bool operator==(const ElasticQuotaProfile&) const = default;
};

using ElasticQuotaProfileList = core::List<ElasticQuotaProfile>;

Status fromJson(const Json& j, ElasticQuotaProfileSpec& out, const std::string& path);
Status fromJson(const Json& j, ElasticQuotaProfileStatus& out, const std::string& path);
Status fromJson(const Json& j, ElasticQuotaProfile& out, const std::string& path);
Json toJson(const ElasticQuotaProfileSpec& v);
Json toJson(const ElasticQuotaProfileStatus& v);
Json toJson(const ElasticQuotaProfile& v);

}  // namespace koord::api::quota
