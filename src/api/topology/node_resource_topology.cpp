#include "koord/api/topology/node_resource_topology.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::topology {

constexpr auto kResourceInfoFields = std::tuple{
    field("name", &ResourceInfo::name).always(),
    field("capacity", &ResourceInfo::capacity).always(),
    field("allocatable", &ResourceInfo::allocatable).always(),
    field("available", &ResourceInfo::available).always(),
};

Status fromJson(const Json& j, ResourceInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceInfoFields);
}

Json toJson(const ResourceInfo& v) {
  return encodeFields(v, kResourceInfoFields);
}

constexpr auto kCostInfoFields = std::tuple{
    field("name", &CostInfo::name).always(),
    field("value", &CostInfo::value).always(),
};

Status fromJson(const Json& j, CostInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kCostInfoFields);
}

Json toJson(const CostInfo& v) {
  return encodeFields(v, kCostInfoFields);
}

constexpr auto kAttributeInfoFields = std::tuple{
    field("name", &AttributeInfo::name).always(),
    field("value", &AttributeInfo::value).always(),
};

Status fromJson(const Json& j, AttributeInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kAttributeInfoFields);
}

Json toJson(const AttributeInfo& v) {
  return encodeFields(v, kAttributeInfoFields);
}

constexpr auto kZoneFields = std::tuple{
    field("name", &Zone::name).always(),    field("type", &Zone::type).always(),
    field("parent", &Zone::parent),         field("costs", &Zone::costs),
    field("attributes", &Zone::attributes), field("resources", &Zone::resources),
};

Status fromJson(const Json& j, Zone& out, const std::string& path) {
  return decodeFields(j, out, path, kZoneFields);
}

Json toJson(const Zone& v) {
  return encodeFields(v, kZoneFields);
}

constexpr auto kNodeResourceTopologyFields = std::tuple{
    field("apiVersion", &NodeResourceTopology::apiVersion),
    field("kind", &NodeResourceTopology::kind),
    field("metadata", &NodeResourceTopology::metadata).always(),
    field("topologyPolicies", &NodeResourceTopology::topologyPolicies).always(),
    field("zones", &NodeResourceTopology::zones).always(),
};

Status fromJson(const Json& j, NodeResourceTopology& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeResourceTopologyFields);
}

Json toJson(const NodeResourceTopology& v) {
  return encodeFields(v, kNodeResourceTopologyFields);
}

}  // namespace koord::api::topology
