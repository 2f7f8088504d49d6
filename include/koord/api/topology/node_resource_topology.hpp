// NodeResourceTopology (topology.node.k8s.io/v1alpha1, cluster-scoped, shortName node-res-topo,
// name = node name): the NUMA zones of a node as koordlet reports them. The CRD also serves
// v1alpha2, which this model does not cover. The CPU annotations koordlet writes on it are in
// koord/api/extension/cpu_topology.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::api::topology {

inline constexpr std::string_view kGroup = "topology.node.k8s.io";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kGroupVersion = "topology.node.k8s.io/v1alpha1";
inline constexpr std::string_view kNodeResourceTopologyKind = "NodeResourceTopology";
inline constexpr std::string_view kNodeResourceTopologyListKind = "NodeResourceTopologyList";
inline constexpr std::string_view kNodeResourceTopologyPlural = "noderesourcetopologies";
inline constexpr std::string_view kNodeResourceTopologyShortName = "node-res-topo";

// Zone type of a NUMA node ("node-<i>").
inline constexpr std::string_view kZoneTypeNode = "Node";

// topologyPolicies values (the kubelet topology manager policy and scope).
inline constexpr std::string_view kPolicyNone = "None";
inline constexpr std::string_view kPolicySingleNUMANodePodLevel = "SingleNUMANodePodLevel";
inline constexpr std::string_view kPolicySingleNUMANodeContainerLevel =
    "SingleNUMANodeContainerLevel";
inline constexpr std::string_view kPolicyRestrictedPodLevel = "RestrictedPodLevel";
inline constexpr std::string_view kPolicyRestrictedContainerLevel = "RestrictedContainerLevel";
inline constexpr std::string_view kPolicyBestEffortPodLevel = "BestEffortPodLevel";
inline constexpr std::string_view kPolicyBestEffortContainerLevel = "BestEffortContainerLevel";

// Every field is written.
struct ResourceInfo {
  std::string name;
  resource::Quantity capacity;
  resource::Quantity allocatable;
  resource::Quantity available;
  Json extra;

  bool operator==(const ResourceInfo&) const = default;
};

struct CostInfo {
  std::string name;
  int64_t value = 0;
  Json extra;

  bool operator==(const CostInfo&) const = default;
};

struct AttributeInfo {
  std::string name;
  std::string value;
  Json extra;

  bool operator==(const AttributeInfo&) const = default;
};

struct Zone {
  std::string name;  // always written
  std::string type;  // always written
  std::string parent;
  std::vector<CostInfo> costs;
  std::vector<AttributeInfo> attributes;
  std::vector<ResourceInfo> resources;
  Json extra;

  bool operator==(const Zone&) const = default;
};

struct NodeResourceTopology {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  std::vector<std::string> topologyPolicies;  // always written
  std::vector<Zone> zones;                    // always written
  Json extra;

  bool operator==(const NodeResourceTopology&) const = default;
};

using NodeResourceTopologyList = core::List<NodeResourceTopology>;

Status fromJson(const Json& j, ResourceInfo& out, const std::string& path);
Status fromJson(const Json& j, CostInfo& out, const std::string& path);
Status fromJson(const Json& j, AttributeInfo& out, const std::string& path);
Status fromJson(const Json& j, Zone& out, const std::string& path);
Status fromJson(const Json& j, NodeResourceTopology& out, const std::string& path);
Json toJson(const ResourceInfo& v);
Json toJson(const CostInfo& v);
Json toJson(const AttributeInfo& v);
Json toJson(const Zone& v);
Json toJson(const NodeResourceTopology& v);

}  // namespace koord::api::topology
