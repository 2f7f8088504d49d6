// core/v1 Node: the spec and status fields the schedulers and the agent read; everything else
// (daemonEndpoints, images, volumesAttached, ...) stays in `extra`. Conventions: meta.hpp.
#pragma once

#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::core {

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
  std::string timeAdded;
  Json extra;

  bool operator==(const Taint&) const = default;
};

struct NodeSpec {
  std::string podCIDR;
  std::string providerID;
  bool unschedulable = false;
  std::vector<Taint> taints;
  Json extra;

  bool operator==(const NodeSpec&) const = default;
};

struct NodeCondition {
  std::string type;
  std::string status;
  std::string lastHeartbeatTime;
  std::string lastTransitionTime;
  std::string reason;
  std::string message;
  Json extra;

  bool operator==(const NodeCondition&) const = default;
};

struct NodeAddress {
  std::string type;  // Hostname, InternalIP, ExternalIP, ...
  std::string address;
  Json extra;

  bool operator==(const NodeAddress&) const = default;
};

struct NodeStatus {
  resource::ResourceList capacity;
  resource::ResourceList allocatable;
  std::vector<NodeCondition> conditions;
  std::vector<NodeAddress> addresses;
  Json nodeInfo;  // raw NodeSystemInfo; null when absent
  Json extra;

  bool operator==(const NodeStatus&) const = default;
};

struct Node {
  std::string apiVersion;
  std::string kind;
  ObjectMeta metadata;
  NodeSpec spec;
  NodeStatus status;
  Json extra;

  bool operator==(const Node&) const = default;
};

using NodeList = List<Node>;

Status fromJson(const Json& j, Taint& out, const std::string& path);
Status fromJson(const Json& j, NodeSpec& out, const std::string& path);
Status fromJson(const Json& j, NodeCondition& out, const std::string& path);
Status fromJson(const Json& j, NodeAddress& out, const std::string& path);
Status fromJson(const Json& j, NodeStatus& out, const std::string& path);
Status fromJson(const Json& j, Node& out, const std::string& path);

Json toJson(const Taint& v);
Json toJson(const NodeSpec& v);
Json toJson(const NodeCondition& v);
Json toJson(const NodeAddress& v);
Json toJson(const NodeStatus& v);
Json toJson(const Node& v);

}  // namespace koord::api::core
