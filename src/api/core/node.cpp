#include "koord/api/core/node.hpp"

#include "encode_helpers.hpp"

namespace koord::api::core {

using internal::timeOrNull;
using internal::trueOnly;

Status fromJson(const Json& j, Taint& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("key", out.key)
      .field("value", out.value)
      .field("effect", out.effect)
      .field("timeAdded", out.timeAdded);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Taint& v) {
  ObjectEncoder e;
  e.always("key", v.key)
      .field("value", v.value)
      .always("effect", v.effect)
      .field("timeAdded", v.timeAdded);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("podCIDR", out.podCIDR)
      .field("providerID", out.providerID)
      .field("unschedulable", out.unschedulable)
      .field("taints", out.taints);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeSpec& v) {
  ObjectEncoder e;
  e.field("podCIDR", v.podCIDR).field("providerID", v.providerID);
  trueOnly(e, "unschedulable", v.unschedulable);
  e.field("taints", v.taints);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeCondition& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type)
      .field("status", out.status)
      .field("lastHeartbeatTime", out.lastHeartbeatTime)
      .field("lastTransitionTime", out.lastTransitionTime)
      .field("reason", out.reason)
      .field("message", out.message);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeCondition& v) {
  ObjectEncoder e;
  e.always("type", v.type).always("status", v.status);
  timeOrNull(e, "lastHeartbeatTime", v.lastHeartbeatTime);
  timeOrNull(e, "lastTransitionTime", v.lastTransitionTime);
  e.field("reason", v.reason).field("message", v.message);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeAddress& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type).field("address", out.address);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeAddress& v) {
  ObjectEncoder e;
  e.always("type", v.type).always("address", v.address);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("capacity", out.capacity)
      .field("allocatable", out.allocatable)
      .field("conditions", out.conditions)
      .field("addresses", out.addresses)
      .field("nodeInfo", out.nodeInfo);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeStatus& v) {
  ObjectEncoder e;
  e.field("capacity", v.capacity)
      .field("allocatable", v.allocatable)
      .field("conditions", v.conditions)
      .field("addresses", v.addresses)
      .field("nodeInfo", v.nodeInfo);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Node& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Node& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status);
  return e.finish(v.extra);
}

}  // namespace koord::api::core
