#include "koord/k8s/resource.hpp"

#include "koord/api/config/cluster_colocation_profile.hpp"
#include "koord/api/quota/elastic_quota_profile.hpp"
#include "koord/api/scheduling/device.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/register.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/api/sigs/elastic_quota.hpp"
#include "koord/api/sigs/pod_group.hpp"
#include "koord/api/sigs/register.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/api/slo/register.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::k8s {
namespace {

GroupVersionResource gvr(std::string_view group, std::string_view version,
                         std::string_view resource, bool namespaced) {
  return GroupVersionResource{std::string(group), std::string(version), std::string(resource),
                              namespaced};
}

}  // namespace

// Built before main: only bad_alloc could escape, and ending the program then is right.
// NOLINTBEGIN(cert-err58-cpp)
const GroupVersionResource kReservations = gvr(api::scheduling::kGroup, api::scheduling::kVersion,
                                               api::scheduling::kReservationPlural, false);
const GroupVersionResource kPodMigrationJobs =
    gvr(api::scheduling::kGroup, api::scheduling::kVersion, api::scheduling::kPodMigrationJobPlural,
        false);
const GroupVersionResource kDevices =
    gvr(api::scheduling::kGroup, api::scheduling::kVersion, api::scheduling::kDevicePlural, false);
const GroupVersionResource kNodeSLOs =
    gvr(api::slo::kGroup, api::slo::kVersion, api::slo::kNodeSLOPlural, false);
const GroupVersionResource kNodeMetrics =
    gvr(api::slo::kGroup, api::slo::kVersion, api::slo::kNodeMetricPlural, false);
const GroupVersionResource kClusterColocationProfiles =
    gvr(api::config::kGroup, api::config::kVersion, api::config::kClusterColocationProfilePlural,
        false);
const GroupVersionResource kElasticQuotaProfiles =
    gvr(api::quota::kGroup, api::quota::kVersion, api::quota::kElasticQuotaProfilePlural, true);
const GroupVersionResource kElasticQuotas =
    gvr(api::sigs::kGroup, api::sigs::kVersion, api::sigs::kElasticQuotaPlural, true);
const GroupVersionResource kPodGroups =
    gvr(api::sigs::kGroup, api::sigs::kVersion, api::sigs::kPodGroupPlural, true);
const GroupVersionResource kNodeResourceTopologies =
    gvr(api::topology::kGroup, api::topology::kVersion, api::topology::kNodeResourceTopologyPlural,
        false);
// NOLINTEND(cert-err58-cpp)

std::string GroupVersionResource::apiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string escapeUrlComponent(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

std::string resourcePath(const GroupVersionResource& gvr, std::string_view ns,
                         std::string_view name, std::string_view subresource) {
  std::string path = gvr.group.empty() ? "/api/" + escapeUrlComponent(gvr.version)
                                       : "/apis/" + escapeUrlComponent(gvr.group) + "/" +
                                             escapeUrlComponent(gvr.version);
  if (gvr.namespaced && !ns.empty()) {
    path += "/namespaces/" + escapeUrlComponent(ns);
  }
  path += "/" + escapeUrlComponent(gvr.resource);
  if (!name.empty()) {
    path += "/" + escapeUrlComponent(name);
    if (!subresource.empty()) {
      path += "/" + escapeUrlComponent(subresource);
    }
  }
  return path;
}

}  // namespace koord::k8s
