#include "koord/api/quota/elastic_quota_profile.hpp"

namespace koord::api::quota {

Status fromJson(const Json& j, ElasticQuotaProfileSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.required("quotaName", out.quotaName)
      .field("quotaLabels", out.quotaLabels)
      .field("resourceRatio", out.resourceRatio)
      .required("nodeSelector", out.nodeSelector);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ElasticQuotaProfileSpec& v) {
  return ObjectEncoder()
      .always("quotaName", v.quotaName)
      .field("quotaLabels", v.quotaLabels)
      .field("resourceRatio", v.resourceRatio)
      .always("nodeSelector", v.nodeSelector)
      .finish(v.extra);
}

Status fromJson(const Json& j, ElasticQuotaProfileStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ElasticQuotaProfileStatus& v) {
  return ObjectEncoder().finish(v.extra);
}

Status fromJson(const Json& j, ElasticQuotaProfile& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ElasticQuotaProfile& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::quota
