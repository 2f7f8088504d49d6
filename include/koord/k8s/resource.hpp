// Which resource a request is about (group, version, plural, scope), the constants for every
// resource this project reads or writes, and the URL paths built from them.
#pragma once

#include <string>
#include <string_view>

namespace koord::k8s {

struct GroupVersionResource {
  std::string group;     // "" for the core group
  std::string version;   // "v1", "v1alpha1", ...
  std::string resource;  // the plural, "pods"
  bool namespaced = true;

  // "v1" for the core group, "<group>/<version>" otherwise (an object's apiVersion).
  [[nodiscard]] std::string apiVersion() const;
  bool operator==(const GroupVersionResource&) const = default;
};

// The resource constants are built before main; std::string's constructor could only throw
// bad_alloc there, and ending the program then is the only sensible outcome (cert-err58).
// NOLINTBEGIN(cert-err58-cpp)
inline const GroupVersionResource kPods{"", "v1", "pods", true};
inline const GroupVersionResource kNodes{"", "v1", "nodes", false};
inline const GroupVersionResource kEvents{"", "v1", "events", true};
inline const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
inline const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};
inline const GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases", true};
inline const GroupVersionResource kPodDisruptionBudgets{"policy", "v1", "poddisruptionbudgets",
                                                        true};
inline const GroupVersionResource kCustomResourceDefinitions{"apiextensions.k8s.io", "v1",
                                                             "customresourcedefinitions", false};
// NOLINTEND(cert-err58-cpp)
// Koordinator CRDs (scopes as in deploy/crds/).
extern const GroupVersionResource kReservations;
extern const GroupVersionResource kPodMigrationJobs;
extern const GroupVersionResource kDevices;
extern const GroupVersionResource kNodeSLOs;
extern const GroupVersionResource kNodeMetrics;
extern const GroupVersionResource kClusterColocationProfiles;
extern const GroupVersionResource kElasticQuotaProfiles;
extern const GroupVersionResource kElasticQuotas;
extern const GroupVersionResource kPodGroups;
extern const GroupVersionResource kNodeResourceTopologies;

// Percent-escapes everything but RFC 3986 unreserved characters (for a path segment or a query
// value).
[[nodiscard]] std::string escapeUrlComponent(std::string_view text);

// "/api/v1" for the core group, "/apis/<group>/<version>" otherwise, then
// "/namespaces/<ns>" (namespaced resources with a namespace; "" lists across all namespaces),
// "/<resource>", "/<name>" and "/<subresource>" when given; every segment escaped.
[[nodiscard]] std::string resourcePath(const GroupVersionResource& gvr, std::string_view ns,
                                       std::string_view name = {},
                                       std::string_view subresource = {});

}  // namespace koord::k8s
