// Node-level CPU payloads koordlet writes on the NodeResourceTopology
// (apis/extension/numa_aware.go):
//   node.koordinator.sh/cpu-topology          CPUTopology
//   node.koordinator.sh/cpu-shared-pools      std::vector<CPUSharedPool>
//   node.koordinator.sh/be-cpu-shared-pools   std::vector<CPUSharedPool>
//   node.koordinator.sh/pod-cpu-allocs        std::vector<PodCPUAlloc>
//   kubelet.koordinator.sh/cpu-manager-policy KubeletCPUManagerPolicy
// and the node label node.koordinator.sh/cpu-bind-policy.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/extension/enum_codec.hpp"

namespace koord::api::extension {

struct CPUInfo {
  int32_t id = 0;  // every field always written
  int32_t core = 0;
  int32_t socket = 0;
  int32_t node = 0;
  Json extra;

  bool operator==(const CPUInfo&) const = default;
};

struct CPUTopology {
  std::vector<CPUInfo> detail;
  Json extra;

  bool operator==(const CPUTopology&) const = default;
};

struct CPUSharedPool {
  int32_t socket = 0;  // always written
  int32_t node = 0;    // always written
  std::string cpuset;
  Json extra;

  bool operator==(const CPUSharedPool&) const = default;
};

struct PodCPUAlloc {
  std::string namespace_;  // JSON "namespace"
  std::string name;
  std::string uid;
  std::string cpuset;
  bool managedByKubelet = false;  // omitted when false
  Json extra;

  bool operator==(const PodCPUAlloc&) const = default;
};

struct KubeletCPUManagerPolicy {
  std::string policy;  // "static", "none"
  std::map<std::string, std::string> options;
  std::string reservedCPUs;
  Json extra;

  bool operator==(const KubeletCPUManagerPolicy&) const = default;
};

// Values of node.koordinator.sh/cpu-bind-policy.
enum class NodeCPUBindPolicy { kNone, kFullPCPUsOnly, kSpreadByPCPUs };
constexpr std::array<EnumName<NodeCPUBindPolicy>, 3> enumNames(NodeCPUBindPolicy) {
  return {{{NodeCPUBindPolicy::kNone, "None"},
           {NodeCPUBindPolicy::kFullPCPUsOnly, "FullPCPUsOnly"},
           {NodeCPUBindPolicy::kSpreadByPCPUs, "SpreadByPCPUs"}}};
}
KOORD_API_ENUM_CODEC(NodeCPUBindPolicy)

// Koordinator's GetNodeCPUBindPolicy: FullPCPUsOnly when the label says so or the kubelet runs the
// static policy with full-pcpus-only=true; SpreadByPCPUs when the label says so; otherwise kNone
// (an absent or unknown label included).
[[nodiscard]] NodeCPUBindPolicy nodeCPUBindPolicyOf(
    const std::map<std::string, std::string>& node_labels,
    const std::optional<KubeletCPUManagerPolicy>& kubelet_policy);

Status fromJson(const Json& j, CPUInfo& out, const std::string& path);
Status fromJson(const Json& j, CPUTopology& out, const std::string& path);
Status fromJson(const Json& j, CPUSharedPool& out, const std::string& path);
Status fromJson(const Json& j, PodCPUAlloc& out, const std::string& path);
Status fromJson(const Json& j, KubeletCPUManagerPolicy& out, const std::string& path);
Json toJson(const CPUInfo& v);
Json toJson(const CPUTopology& v);
Json toJson(const CPUSharedPool& v);
Json toJson(const PodCPUAlloc& v);
Json toJson(const KubeletCPUManagerPolicy& v);

[[nodiscard]] Result<CPUTopology> parseCPUTopology(std::string_view value);
[[nodiscard]] std::string formatCPUTopology(const CPUTopology& topology);
// cpu-shared-pools and be-cpu-shared-pools share a shape; each parser names its annotation.
[[nodiscard]] Result<std::vector<CPUSharedPool>> parseCPUSharedPools(std::string_view value);
[[nodiscard]] Result<std::vector<CPUSharedPool>> parseBECPUSharedPools(std::string_view value);
[[nodiscard]] std::string formatCPUSharedPools(const std::vector<CPUSharedPool>& pools);
[[nodiscard]] Result<std::vector<PodCPUAlloc>> parsePodCPUAllocs(std::string_view value);
[[nodiscard]] std::string formatPodCPUAllocs(const std::vector<PodCPUAlloc>& allocs);
[[nodiscard]] Result<KubeletCPUManagerPolicy> parseKubeletCPUManagerPolicy(std::string_view value);
[[nodiscard]] std::string formatKubeletCPUManagerPolicy(const KubeletCPUManagerPolicy& policy);

}  // namespace koord::api::extension
