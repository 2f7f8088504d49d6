#include "koord/api/sigs/elastic_quota.hpp"

namespace koord::api::sigs {

Status fromJson(const Json& j, ElasticQuotaSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("min", out.min).field("max", out.max);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ElasticQuotaSpec& v) {
  return ObjectEncoder().field("min", v.min).field("max", v.max).finish(v.extra);
}

Status fromJson(const Json& j, ElasticQuotaStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("used", out.used);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ElasticQuotaStatus& v) {
  return ObjectEncoder().field("used", v.used).finish(v.extra);
}

Status fromJson(const Json& j, ElasticQuota& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ElasticQuota& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::sigs
