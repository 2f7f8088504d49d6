// Elastic quota labels and annotations (apis/extension/elastic_quota.go). The ResourceList
// annotations (shared-weight, runtime, request, ...) go through parseResourceListAnnotation() in
// annotation.hpp; the string-list ones through the parsers below.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

using StringMap = std::map<std::string, std::string>;

// The parent quota: the `parent` label, or koordinator-root-quota for every quota but the root.
[[nodiscard]] std::string parentQuotaName(std::string_view quota_name, const StringMap& labels);
// is-parent == "true".
[[nodiscard]] bool isParentQuota(const StringMap& labels);
// Lending is on unless allow-lent-resource == "false".
[[nodiscard]] bool isAllowLentResource(const StringMap& labels);
// allow-force-update == "true".
[[nodiscard]] bool isAllowForceUpdate(const StringMap& labels);
// is-root == "true".
[[nodiscard]] bool isTreeRootQuota(const StringMap& labels);
// A pod with quota.scheduling.koordinator.sh/preemptible == "false".
[[nodiscard]] bool isPodNonPreemptible(const StringMap& pod_labels);

// The ResourceList annotations, each naming its key in errors. Format any of them with
// formatResourceList() (annotation.hpp).
[[nodiscard]] Result<resource::ResourceList> parseQuotaSharedWeight(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaRuntime(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaRequest(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaChildRequest(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaGuaranteed(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaAllocated(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaNonPreemptibleRequest(
    std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaNonPreemptibleUsed(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaTotalResource(std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaUnschedulableResource(
    std::string_view value);
[[nodiscard]] Result<resource::ResourceList> parseQuotaAdmission(std::string_view value);

// Koordinator's GetSharedWeight: the shared-weight annotation when it parses and is not all
// zero, otherwise the quota's max.
[[nodiscard]] resource::ResourceList sharedWeightOf(const StringMap& annotations,
                                                    const resource::ResourceList& max);

// quota.scheduling.koordinator.sh/namespaces, resource-keys, max-strict-check-resource-keys.
[[nodiscard]] Result<std::vector<std::string>> parseQuotaNamespaces(std::string_view value);
[[nodiscard]] Result<std::vector<std::string>> parseQuotaResourceKeys(std::string_view value);
[[nodiscard]] Result<std::vector<std::string>> parseQuotaMaxStrictCheckResourceKeys(
    std::string_view value);

}  // namespace koord::api::extension
