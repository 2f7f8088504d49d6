// Scheduler-extender wire types (k8s.io/kube-scheduler/extender/v1), as kube-scheduler's
// HTTPExtender sends and reads them.
//
// Wire format (see docs kubernetes-integration.md 1.1): the Go structs have no json tags, so keys
// are the PascalCase field names ("Pod", "NodeNames", "FailedNodes"); nested Pod and Node objects
// use their usual camelCase keys. Encoding writes every field: an unset optional, and an empty map
// of the failure maps, as `null`, never omitted, as Go's encoding/json does for nil pointers, maps
// and slices. Decoding matches keys case-insensitively (an exact match wins), as encoding/json
// does, and ignores unknown keys; models here keep no `extra`. fromJson never throws; errors name
// the path ("Pod.spec.containers[0].resources.requests.cpu").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::api::extender {

// Score bounds for HostPriority.score.
inline constexpr int64_t kMinExtenderPriority = 0;
inline constexpr int64_t kMaxExtenderPriority = 10;

using FailedNodesMap = std::map<std::string, std::string>;

// The filter and prioritize request. With nodeCacheCapable the scheduler sends nodeNames and a null
// Nodes; without it, nodes and a null NodeNames.
struct ExtenderArgs {
  core::Pod pod;                                      // "Pod"
  std::optional<core::NodeList> nodes;                // "Nodes"
  std::optional<std::vector<std::string>> nodeNames;  // "NodeNames"

  bool operator==(const ExtenderArgs&) const = default;
};

// The filter reply. A non-empty `error` fails the scheduling attempt. The scheduler reads nodeNames
// when set, else nodes; when neither is set every node counts as filtered out.
struct ExtenderFilterResult {
  std::optional<core::NodeList> nodes;                // "Nodes"
  std::optional<std::vector<std::string>> nodeNames;  // "NodeNames"
  FailedNodesMap failedNodes;                         // "FailedNodes"; empty is written as null
  FailedNodesMap failedAndUnresolvableNodes;          // "FailedAndUnresolvableNodes"; ditto
  std::string error;                                  // "Error"

  bool operator==(const ExtenderFilterResult&) const = default;
};

// One entry of the prioritize reply: {"Host": ..., "Score": 0..10}.
struct HostPriority {
  std::string host;   // "Host"
  int64_t score = 0;  // "Score"

  bool operator==(const HostPriority&) const = default;
};

// The prioritize reply: a JSON array of HostPriority.
using HostPriorityList = std::vector<HostPriority>;

// The bind request.
struct ExtenderBindingArgs {
  std::string podName;       // "PodName"
  std::string podNamespace;  // "PodNamespace"
  std::string podUID;        // "PodUID"
  std::string node;          // "Node"

  bool operator==(const ExtenderBindingArgs&) const = default;
};

// The bind reply; a non-empty `error` fails the binding.
struct ExtenderBindingResult {
  std::string error;  // "Error"

  bool operator==(const ExtenderBindingResult&) const = default;
};

struct MetaPod {
  std::string uid;  // "UID"

  bool operator==(const MetaPod&) const = default;
};

struct Victims {
  std::vector<core::Pod> pods;   // "Pods"
  int64_t numPDBViolations = 0;  // "NumPDBViolations"

  bool operator==(const Victims&) const = default;
};

struct MetaVictims {
  std::vector<MetaPod> pods;     // "Pods"
  int64_t numPDBViolations = 0;  // "NumPDBViolations"

  bool operator==(const MetaVictims&) const = default;
};

// The preempt request: full victims without nodeCacheCapable, UIDs only with it.
struct ExtenderPreemptionArgs {
  core::Pod pod;                                                    // "Pod"
  std::optional<std::map<std::string, Victims>> nodeNameToVictims;  // "NodeNameToVictims"
  std::optional<std::map<std::string, MetaVictims>>
      nodeNameToMetaVictims;  // "NodeNameToMetaVictims"

  bool operator==(const ExtenderPreemptionArgs&) const = default;
};

// The preempt reply: the nodes still worth preempting on, with the victims to use.
struct ExtenderPreemptionResult {
  std::optional<std::map<std::string, MetaVictims>>
      nodeNameToMetaVictims;  // "NodeNameToMetaVictims"

  bool operator==(const ExtenderPreemptionResult&) const = default;
};

Status fromJson(const Json& j, ExtenderArgs& out, const std::string& path);
Status fromJson(const Json& j, ExtenderFilterResult& out, const std::string& path);
Status fromJson(const Json& j, HostPriority& out, const std::string& path);
Status fromJson(const Json& j, ExtenderBindingArgs& out, const std::string& path);
Status fromJson(const Json& j, ExtenderBindingResult& out, const std::string& path);
Status fromJson(const Json& j, MetaPod& out, const std::string& path);
Status fromJson(const Json& j, Victims& out, const std::string& path);
Status fromJson(const Json& j, MetaVictims& out, const std::string& path);
Status fromJson(const Json& j, ExtenderPreemptionArgs& out, const std::string& path);
Status fromJson(const Json& j, ExtenderPreemptionResult& out, const std::string& path);

Json toJson(const ExtenderArgs& v);
Json toJson(const ExtenderFilterResult& v);
Json toJson(const HostPriority& v);
Json toJson(const ExtenderBindingArgs& v);
Json toJson(const ExtenderBindingResult& v);
Json toJson(const MetaPod& v);
Json toJson(const Victims& v);
Json toJson(const MetaVictims& v);
Json toJson(const ExtenderPreemptionArgs& v);
Json toJson(const ExtenderPreemptionResult& v);

// The prioritize reply as a whole (a JSON array; null decodes as empty). Declared here so that
// unqualified calls from any namespace find them.
Status fromJson(const Json& j, HostPriorityList& out, const std::string& path);
Json toJson(const HostPriorityList& v);

}  // namespace koord::api::extender
