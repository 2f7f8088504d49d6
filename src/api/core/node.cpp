#include "koord/api/core/node.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::core {

constexpr auto kTaintFields = std::tuple{
    field("key", &Taint::key).always(),
    field("value", &Taint::value),
    field("effect", &Taint::effect).always(),
    field("timeAdded", &Taint::timeAdded),
};

Status fromJson(const Json& j, Taint& out, const std::string& path) {
  return decodeFields(j, out, path, kTaintFields);
}

Json toJson(const Taint& v) {
  return encodeFields(v, kTaintFields);
}

constexpr auto kNodeSpecFields = std::tuple{
    field("podCIDR", &NodeSpec::podCIDR),
    field("providerID", &NodeSpec::providerID),
    field("unschedulable", &NodeSpec::unschedulable).omitZero(),
    field("taints", &NodeSpec::taints),
};

Status fromJson(const Json& j, NodeSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSpecFields);
}

Json toJson(const NodeSpec& v) {
  return encodeFields(v, kNodeSpecFields);
}

constexpr auto kNodeConditionFields = std::tuple{
    field("type", &NodeCondition::type).always(),
    field("status", &NodeCondition::status).always(),
    field("lastHeartbeatTime", &NodeCondition::lastHeartbeatTime).nullIfEmpty(),
    field("lastTransitionTime", &NodeCondition::lastTransitionTime).nullIfEmpty(),
    field("reason", &NodeCondition::reason),
    field("message", &NodeCondition::message),
};

Status fromJson(const Json& j, NodeCondition& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeConditionFields);
}

Json toJson(const NodeCondition& v) {
  return encodeFields(v, kNodeConditionFields);
}

constexpr auto kNodeAddressFields = std::tuple{
    field("type", &NodeAddress::type).always(),
    field("address", &NodeAddress::address).always(),
};

Status fromJson(const Json& j, NodeAddress& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeAddressFields);
}

Json toJson(const NodeAddress& v) {
  return encodeFields(v, kNodeAddressFields);
}

constexpr auto kNodeStatusFields = std::tuple{
    field("capacity", &NodeStatus::capacity),     field("allocatable", &NodeStatus::allocatable),
    field("conditions", &NodeStatus::conditions), field("addresses", &NodeStatus::addresses),
    field("nodeInfo", &NodeStatus::nodeInfo),
};

Status fromJson(const Json& j, NodeStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeStatusFields);
}

Json toJson(const NodeStatus& v) {
  return encodeFields(v, kNodeStatusFields);
}

constexpr auto kNodeFields = std::tuple{
    field("apiVersion", &Node::apiVersion),      field("kind", &Node::kind),
    field("metadata", &Node::metadata).always(), field("spec", &Node::spec).always(),
    field("status", &Node::status).always(),
};

Status fromJson(const Json& j, Node& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeFields);
}

Json toJson(const Node& v) {
  return encodeFields(v, kNodeFields);
}

}  // namespace koord::api::core
