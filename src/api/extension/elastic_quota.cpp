#include "koord/api/extension/elastic_quota.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {
namespace {

std::string_view lookup(const StringMap& m, std::string_view key) {
  auto it = m.find(std::string(key));
  return it == m.end() ? std::string_view() : std::string_view(it->second);
}

}  // namespace

std::string parentQuotaName(std::string_view quota_name, const StringMap& labels) {
  std::string_view parent = lookup(labels, kLabelQuotaParent);
  if (parent.empty() && quota_name != kRootQuotaName) {
    return std::string(kRootQuotaName);
  }
  return std::string(parent);
}

bool isParentQuota(const StringMap& labels) {
  return lookup(labels, kLabelQuotaIsParent) == "true";
}

bool isAllowLentResource(const StringMap& labels) {
  return lookup(labels, kLabelAllowLentResource) != "false";
}

bool isAllowForceUpdate(const StringMap& labels) {
  return lookup(labels, kLabelAllowForceUpdate) == "true";
}

bool isTreeRootQuota(const StringMap& labels) {
  return lookup(labels, kLabelQuotaIsRoot) == "true";
}

bool isPodNonPreemptible(const StringMap& pod_labels) {
  return lookup(pod_labels, kLabelPreemptible) == "false";
}

Result<resource::ResourceList> parseQuotaSharedWeight(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaSharedWeight, value);
}
Result<resource::ResourceList> parseQuotaRuntime(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaRuntime, value);
}
Result<resource::ResourceList> parseQuotaRequest(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaRequest, value);
}
Result<resource::ResourceList> parseQuotaChildRequest(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaChildRequest, value);
}
Result<resource::ResourceList> parseQuotaGuaranteed(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaGuaranteed, value);
}
Result<resource::ResourceList> parseQuotaAllocated(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaAllocated, value);
}
Result<resource::ResourceList> parseQuotaNonPreemptibleRequest(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaNonPreemptibleRequest, value);
}
Result<resource::ResourceList> parseQuotaNonPreemptibleUsed(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaNonPreemptibleUsed, value);
}
Result<resource::ResourceList> parseQuotaTotalResource(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaTotalResource, value);
}
Result<resource::ResourceList> parseQuotaUnschedulableResource(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaUnschedulableResource, value);
}
Result<resource::ResourceList> parseQuotaAdmission(std::string_view value) {
  return parseResourceListAnnotation(kAnnotationQuotaAdmission, value);
}

resource::ResourceList sharedWeightOf(const StringMap& annotations,
                                      const resource::ResourceList& max) {
  auto it = annotations.find(std::string(kAnnotationQuotaSharedWeight));
  if (it != annotations.end()) {
    auto parsed = parseQuotaSharedWeight(it->second);
    if (parsed.ok() && !resource::isZero(*parsed)) {
      return *parsed;
    }
  }
  return max;
}

Result<std::vector<std::string>> parseQuotaNamespaces(std::string_view value) {
  return parseStringListAnnotation(kAnnotationQuotaNamespaces, value);
}

Result<std::vector<std::string>> parseQuotaResourceKeys(std::string_view value) {
  return parseStringListAnnotation(kAnnotationQuotaResourceKeys, value);
}

Result<std::vector<std::string>> parseQuotaMaxStrictCheckResourceKeys(std::string_view value) {
  return parseStringListAnnotation(kAnnotationQuotaMaxStrictCheckResourceKeys, value);
}

}  // namespace koord::api::extension
