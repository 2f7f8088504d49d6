// ElasticQuota (scheduling.sigs.k8s.io/v1alpha1, namespaced). Koordinator carries the quota tree
// and its runtime state in labels and annotations (koord/api/well_known.hpp §2.5,
// koord/api/extension/elastic_quota.hpp).
#pragma once

#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/sigs/register.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::sigs {

inline constexpr std::string_view kElasticQuotaKind = "ElasticQuota";
inline constexpr std::string_view kElasticQuotaListKind = "ElasticQuotaList";
inline constexpr std::string_view kElasticQuotaPlural = "elasticquotas";

struct ElasticQuotaSpec {
  resource::ResourceList min;
  resource::ResourceList max;
  Json extra;

  bool operator==(const ElasticQuotaSpec&) const = default;
};

struct ElasticQuotaStatus {
  resource::ResourceList used;
  Json extra;

  bool operator==(const ElasticQuotaStatus&) const = default;
};

struct ElasticQuota {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  ElasticQuotaSpec spec;
  ElasticQuotaStatus status;
  Json extra;

  bool operator==(const ElasticQuota&) const = default;
};

using ElasticQuotaList = core::List<ElasticQuota>;

Status fromJson(const Json& j, ElasticQuotaSpec& out, const std::string& path);
Status fromJson(const Json& j, ElasticQuotaStatus& out, const std::string& path);
Status fromJson(const Json& j, ElasticQuota& out, const std::string& path);
Json toJson(const ElasticQuotaSpec& v);
Json toJson(const ElasticQuotaStatus& v);
Json toJson(const ElasticQuota& v);

}  // namespace koord::api::sigs
