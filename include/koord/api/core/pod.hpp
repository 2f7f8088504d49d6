// core/v1 Pod and the parts of its spec and status the schedulers, the agent and the webhooks
// read. Everything else (volumes, probes, securityContext, ...) is kept in the `extra` members
// and survives a decode/encode round trip. Conventions: meta.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::core {

using resource::ResourceList;

struct ResourceRequirements {
  ResourceList limits;
  ResourceList requests;
  Json claims;  // raw []ResourceClaim; null when absent
  Json extra;

  bool operator==(const ResourceRequirements&) const = default;
};

struct Container {
  std::string name;
  std::string image;
  ResourceRequirements resources;
  // Only init containers set it: "Always" makes a restartable init container (a sidecar).
  std::optional<std::string> restartPolicy;
  Json extra;

  bool operator==(const Container&) const = default;
};

struct Toleration {
  std::string key;
  std::string operator_;  // JSON "operator": "" (Equal), Equal, Exists
  std::string value;
  std::string effect;  // "" (all), NoSchedule, PreferNoSchedule, NoExecute
  std::optional<int64_t> tolerationSeconds;
  Json extra;

  bool operator==(const Toleration&) const = default;
};

struct NodeSelectorRequirement {
  std::string key;
  std::string operator_;  // JSON "operator": In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;
  Json extra;

  bool operator==(const NodeSelectorRequirement&) const = default;
};

// A term with neither matchExpressions nor matchFields matches no node.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> matchExpressions;
  std::vector<NodeSelectorRequirement> matchFields;
  Json extra;

  bool operator==(const NodeSelectorTerm&) const = default;
};

// The terms are ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> nodeSelectorTerms;
  Json extra;

  bool operator==(const NodeSelector&) const = default;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
  Json extra;

  bool operator==(const PreferredSchedulingTerm&) const = default;
};

struct NodeAffinity {
  // JSON "requiredDuringSchedulingIgnoredDuringExecution".
  std::optional<NodeSelector> required;
  // JSON "preferredDuringSchedulingIgnoredDuringExecution".
  std::vector<PreferredSchedulingTerm> preferred;
  Json extra;

  bool operator==(const NodeAffinity&) const = default;
};

struct Affinity {
  std::optional<NodeAffinity> nodeAffinity;
  Json podAffinity;      // raw; null when absent
  Json podAntiAffinity;  // raw; null when absent
  Json extra;

  bool operator==(const Affinity&) const = default;
};

struct PodSpec {
  std::string nodeName;
  std::string schedulerName;
  std::optional<int32_t> priority;
  std::string priorityClassName;
  std::string preemptionPolicy;  // "" (unset), PreemptLowerPriority, Never
  StringMap nodeSelector;
  Box<Affinity> affinity;  // boxed: rarely set, and caches hold many pods
  std::vector<Toleration> tolerations;
  std::vector<Container> containers;
  std::vector<Container> initContainers;
  ResourceList overhead;
  // Pod-level resources (PodLevelResources feature); empty when absent (boxed, as affinity).
  Box<ResourceRequirements> resources;
  std::string runtimeClassName;
  bool hostNetwork = false;
  Json extra;

  bool operator==(const PodSpec&) const = default;
};

struct PodCondition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
  std::string lastProbeTime;
  std::string lastTransitionTime;
  Json extra;

  bool operator==(const PodCondition&) const = default;
};

struct PodStatus {
  std::string phase;  // Pending, Running, Succeeded, Failed, Unknown
  std::vector<PodCondition> conditions;
  std::string message;
  std::string reason;
  std::string nominatedNodeName;
  std::string hostIP;
  std::string podIP;
  std::string startTime;
  std::string qosClass;    // Guaranteed, Burstable, BestEffort
  Json containerStatuses;  // raw; null when absent
  Json extra;

  bool operator==(const PodStatus&) const = default;
};

struct Pod {
  std::string apiVersion;
  std::string kind;
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;
  Json extra;

  bool operator==(const Pod&) const = default;
};

struct PodTemplateSpec {
  ObjectMeta metadata;
  PodSpec spec;
  Json extra;

  bool operator==(const PodTemplateSpec&) const = default;
};

using PodList = List<Pod>;

Status fromJson(const Json& j, ResourceRequirements& out, const std::string& path);
Status fromJson(const Json& j, Container& out, const std::string& path);
Status fromJson(const Json& j, Toleration& out, const std::string& path);
Status fromJson(const Json& j, NodeSelectorRequirement& out, const std::string& path);
Status fromJson(const Json& j, NodeSelectorTerm& out, const std::string& path);
Status fromJson(const Json& j, NodeSelector& out, const std::string& path);
Status fromJson(const Json& j, PreferredSchedulingTerm& out, const std::string& path);
Status fromJson(const Json& j, NodeAffinity& out, const std::string& path);
Status fromJson(const Json& j, Affinity& out, const std::string& path);
Status fromJson(const Json& j, PodSpec& out, const std::string& path);
Status fromJson(const Json& j, PodCondition& out, const std::string& path);
Status fromJson(const Json& j, PodStatus& out, const std::string& path);
Status fromJson(const Json& j, Pod& out, const std::string& path);
Status fromJson(const Json& j, PodTemplateSpec& out, const std::string& path);

Json toJson(const ResourceRequirements& v);
Json toJson(const Container& v);
Json toJson(const Toleration& v);
Json toJson(const NodeSelectorRequirement& v);
Json toJson(const NodeSelectorTerm& v);
Json toJson(const NodeSelector& v);
Json toJson(const PreferredSchedulingTerm& v);
Json toJson(const NodeAffinity& v);
Json toJson(const Affinity& v);
Json toJson(const PodSpec& v);
Json toJson(const PodCondition& v);
Json toJson(const PodStatus& v);
Json toJson(const Pod& v);
Json toJson(const PodTemplateSpec& v);

}  // namespace koord::api::core
