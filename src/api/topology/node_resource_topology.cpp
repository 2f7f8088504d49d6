#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::api::topology {

Status fromJson(const Json& j, ResourceInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("capacity", out.capacity)
      .field("allocatable", out.allocatable)
      .field("available", out.available);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceInfo& v) {
  return ObjectEncoder()
      .always("name", v.name)
      .always("capacity", v.capacity)
      .always("allocatable", v.allocatable)
      .always("available", v.available)
      .finish(v.extra);
}

Status fromJson(const Json& j, CostInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name).field("value", out.value);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CostInfo& v) {
  return ObjectEncoder().always("name", v.name).always("value", v.value).finish(v.extra);
}

Status fromJson(const Json& j, AttributeInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name).field("value", out.value);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const AttributeInfo& v) {
  return ObjectEncoder().always("name", v.name).always("value", v.value).finish(v.extra);
}

Status fromJson(const Json& j, Zone& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("type", out.type)
      .field("parent", out.parent)
      .field("costs", out.costs)
      .field("attributes", out.attributes)
      .field("resources", out.resources);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const Zone& v) {
  return ObjectEncoder()
      .always("name", v.name)
      .always("type", v.type)
      .field("parent", v.parent)
      .field("costs", v.costs)
      .field("attributes", v.attributes)
      .field("resources", v.resources)
      .finish(v.extra);
}

Status fromJson(const Json& j, NodeResourceTopology& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("topologyPolicies", out.topologyPolicies)
      .field("zones", out.zones);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeResourceTopology& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("topologyPolicies", v.topologyPolicies)
      .always("zones", v.zones)
      .finish(v.extra);
}

}  // namespace koord::api::topology
