#include "koord/api/scheduling/device.hpp"

namespace koord::api::scheduling {

Status fromJson(const Json& j, DeviceTopology& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("socketID", out.socketID)
      .field("nodeID", out.nodeID)
      .field("pcieID", out.pcieID)
      .field("busID", out.busID);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceTopology& v) {
  return ObjectEncoder()
      .always("socketID", v.socketID)
      .always("nodeID", v.nodeID)
      .always("pcieID", v.pcieID)
      .field("busID", v.busID)
      .finish(v.extra);
}

Status fromJson(const Json& j, VirtualFunction& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("minor", out.minor).field("busID", out.busID);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const VirtualFunction& v) {
  return ObjectEncoder().always("minor", v.minor).field("busID", v.busID).finish(v.extra);
}

Status fromJson(const Json& j, VirtualFunctionGroup& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("labels", out.labels).field("vfs", out.vfs);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const VirtualFunctionGroup& v) {
  return ObjectEncoder().field("labels", v.labels).field("vfs", v.vfs).finish(v.extra);
}

Status fromJson(const Json& j, DeviceInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type)
      .field("labels", out.labels)
      .field("id", out.id)
      .field("minor", out.minor)
      .field("moduleID", out.moduleID)
      .field("health", out.health)
      .field("resources", out.resources)
      .field("topology", out.topology)
      .field("vfGroups", out.vfGroups)
      .field("conditions", out.conditions);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceInfo& v) {
  return ObjectEncoder()
      .field("type", v.type)
      .field("labels", v.labels)
      .field("id", v.id)
      .field("minor", v.minor)
      .field("moduleID", v.moduleID)
      .always("health", v.health)
      .field("resources", v.resources)
      .field("topology", v.topology)
      .field("vfGroups", v.vfGroups)
      .field("conditions", v.conditions)
      .finish(v.extra);
}

Status fromJson(const Json& j, DeviceSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("devices", out.devices);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceSpec& v) {
  return ObjectEncoder().field("devices", v.devices).finish(v.extra);
}

Status fromJson(const Json& j, DeviceAllocationItem& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("namespace", out.namespace_)
      .field("uuid", out.uuid)
      .field("minors", out.minors);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceAllocationItem& v) {
  return ObjectEncoder()
      .field("name", v.name)
      .field("namespace", v.namespace_)
      .field("uuid", v.uuid)
      .field("minors", v.minors)
      .finish(v.extra);
}

Status fromJson(const Json& j, DeviceAllocation& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type).field("entries", out.entries);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceAllocation& v) {
  return ObjectEncoder().field("type", v.type).field("entries", v.entries).finish(v.extra);
}

Status fromJson(const Json& j, DeviceStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("allocations", out.allocations);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceStatus& v) {
  return ObjectEncoder().field("allocations", v.allocations).finish(v.extra);
}

Status fromJson(const Json& j, Device& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const Device& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::scheduling
