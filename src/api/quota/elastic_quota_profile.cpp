#include "koord/api/quota/elastic_quota_profile.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::quota {

constexpr auto kElasticQuotaProfileSpecFields = std::tuple{
    field("quotaName", &ElasticQuotaProfileSpec::quotaName).always().required(),
    field("quotaLabels", &ElasticQuotaProfileSpec::quotaLabels),
    field("resourceRatio", &ElasticQuotaProfileSpec::resourceRatio),
    field("nodeSelector", &ElasticQuotaProfileSpec::nodeSelector).always().required(),
};

Status fromJson(const Json& j, ElasticQuotaProfileSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kElasticQuotaProfileSpecFields);
}

Json toJson(const ElasticQuotaProfileSpec& v) {
  return encodeFields(v, kElasticQuotaProfileSpecFields);
}

// No typed fields: everything is kept in `extra`.
constexpr auto kElasticQuotaProfileStatusFields = std::tuple{};

Status fromJson(const Json& j, ElasticQuotaProfileStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kElasticQuotaProfileStatusFields);
}

Json toJson(const ElasticQuotaProfileStatus& v) {
  return encodeFields(v, kElasticQuotaProfileStatusFields);
}

constexpr auto kElasticQuotaProfileFields = std::tuple{
    field("apiVersion", &ElasticQuotaProfile::apiVersion),
    field("kind", &ElasticQuotaProfile::kind),
    field("metadata", &ElasticQuotaProfile::metadata).always(),
    field("spec", &ElasticQuotaProfile::spec).always(),
    field("status", &ElasticQuotaProfile::status).always(),
};

Status fromJson(const Json& j, ElasticQuotaProfile& out, const std::string& path) {
  return decodeFields(j, out, path, kElasticQuotaProfileFields);
}

Json toJson(const ElasticQuotaProfile& v) {
  return encodeFields(v, kElasticQuotaProfileFields);
}

}  // namespace koord::api::quota
