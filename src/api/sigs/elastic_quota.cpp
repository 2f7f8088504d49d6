#include "koord/api/sigs/elastic_quota.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::sigs {

constexpr auto kElasticQuotaSpecFields = std::tuple{
    field("min", &ElasticQuotaSpec::min),
    field("max", &ElasticQuotaSpec::max),
};

Status fromJson(const Json& j, ElasticQuotaSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kElasticQuotaSpecFields);
}

Json toJson(const ElasticQuotaSpec& v) {
  return encodeFields(v, kElasticQuotaSpecFields);
}

constexpr auto kElasticQuotaStatusFields = std::tuple{
    field("used", &ElasticQuotaStatus::used),
};

Status fromJson(const Json& j, ElasticQuotaStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kElasticQuotaStatusFields);
}

Json toJson(const ElasticQuotaStatus& v) {
  return encodeFields(v, kElasticQuotaStatusFields);
}

constexpr auto kElasticQuotaFields = std::tuple{
    field("apiVersion", &ElasticQuota::apiVersion),
    field("kind", &ElasticQuota::kind),
    field("metadata", &ElasticQuota::metadata).always(),
    field("spec", &ElasticQuota::spec).always(),
    field("status", &ElasticQuota::status).always(),
};

Status fromJson(const Json& j, ElasticQuota& out, const std::string& path) {
  return decodeFields(j, out, path, kElasticQuotaFields);
}

Json toJson(const ElasticQuota& v) {
  return encodeFields(v, kElasticQuotaFields);
}

}  // namespace koord::api::sigs
