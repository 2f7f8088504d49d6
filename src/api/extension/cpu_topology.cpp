#include "koord/api/extension/cpu_topology.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

NodeCPUBindPolicy nodeCPUBindPolicyOf(
    const std::map<std::string, std::string>& node_labels,
    const std::optional<KubeletCPUManagerPolicy>& kubelet_policy) {
  std::string_view label;
  if (auto it = node_labels.find(std::string(kLabelNodeCPUBindPolicy)); it != node_labels.end()) {
    label = it->second;
  }
  auto from_label = enumFromString<NodeCPUBindPolicy>(label);
  bool kubelet_full_pcpus = false;
  if (kubelet_policy && kubelet_policy->policy == kKubeletCPUManagerPolicyStatic) {
    auto it =
        kubelet_policy->options.find(std::string(kKubeletCPUManagerPolicyFullPCPUsOnlyOption));
    kubelet_full_pcpus = it != kubelet_policy->options.end() && it->second == "true";
  }
  if (from_label == NodeCPUBindPolicy::kFullPCPUsOnly || kubelet_full_pcpus) {
    return NodeCPUBindPolicy::kFullPCPUsOnly;
  }
  if (from_label == NodeCPUBindPolicy::kSpreadByPCPUs) {
    return NodeCPUBindPolicy::kSpreadByPCPUs;
  }
  return NodeCPUBindPolicy::kNone;
}

constexpr auto kCPUInfoFields = std::tuple{
    field("id", &CPUInfo::id).always(),
    field("core", &CPUInfo::core).always(),
    field("socket", &CPUInfo::socket).always(),
    field("node", &CPUInfo::node).always(),
};

Status fromJson(const Json& j, CPUInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kCPUInfoFields);
}

Json toJson(const CPUInfo& v) {
  return encodeFields(v, kCPUInfoFields);
}

constexpr auto kCPUTopologyFields = std::tuple{
    field("detail", &CPUTopology::detail),
};

Status fromJson(const Json& j, CPUTopology& out, const std::string& path) {
  return decodeFields(j, out, path, kCPUTopologyFields);
}

Json toJson(const CPUTopology& v) {
  return encodeFields(v, kCPUTopologyFields);
}

constexpr auto kCPUSharedPoolFields = std::tuple{
    field("socket", &CPUSharedPool::socket).always(),
    field("node", &CPUSharedPool::node).always(),
    field("cpuset", &CPUSharedPool::cpuset),
};

Status fromJson(const Json& j, CPUSharedPool& out, const std::string& path) {
  return decodeFields(j, out, path, kCPUSharedPoolFields);
}

Json toJson(const CPUSharedPool& v) {
  return encodeFields(v, kCPUSharedPoolFields);
}

constexpr auto kPodCPUAllocFields = std::tuple{
    field("namespace", &PodCPUAlloc::namespace_),
    field("name", &PodCPUAlloc::name),
    field("uid", &PodCPUAlloc::uid),
    field("cpuset", &PodCPUAlloc::cpuset),
    field("managedByKubelet", &PodCPUAlloc::managedByKubelet).omitZero(),
};

Status fromJson(const Json& j, PodCPUAlloc& out, const std::string& path) {
  return decodeFields(j, out, path, kPodCPUAllocFields);
}

Json toJson(const PodCPUAlloc& v) {
  return encodeFields(v, kPodCPUAllocFields);
}

constexpr auto kKubeletCPUManagerPolicyFields = std::tuple{
    field("policy", &KubeletCPUManagerPolicy::policy),
    field("options", &KubeletCPUManagerPolicy::options),
    field("reservedCPUs", &KubeletCPUManagerPolicy::reservedCPUs),
};

Status fromJson(const Json& j, KubeletCPUManagerPolicy& out, const std::string& path) {
  return decodeFields(j, out, path, kKubeletCPUManagerPolicyFields);
}

Json toJson(const KubeletCPUManagerPolicy& v) {
  return encodeFields(v, kKubeletCPUManagerPolicyFields);
}

Result<CPUTopology> parseCPUTopology(std::string_view value) {
  return parseAnnotationJson<CPUTopology>(kAnnotationNodeCPUTopology, value);
}
std::string formatCPUTopology(const CPUTopology& topology) {
  return formatAnnotationJson(topology);
}

Result<std::vector<CPUSharedPool>> parseCPUSharedPools(std::string_view value) {
  return parseAnnotationJson<std::vector<CPUSharedPool>>(kAnnotationNodeCPUSharedPools, value);
}
Result<std::vector<CPUSharedPool>> parseBECPUSharedPools(std::string_view value) {
  return parseAnnotationJson<std::vector<CPUSharedPool>>(kAnnotationNodeBECPUSharedPools, value);
}
std::string formatCPUSharedPools(const std::vector<CPUSharedPool>& pools) {
  return formatAnnotationJson(pools);
}

Result<std::vector<PodCPUAlloc>> parsePodCPUAllocs(std::string_view value) {
  return parseAnnotationJson<std::vector<PodCPUAlloc>>(kAnnotationNodeCPUAllocs, value);
}
std::string formatPodCPUAllocs(const std::vector<PodCPUAlloc>& allocs) {
  return formatAnnotationJson(allocs);
}

Result<KubeletCPUManagerPolicy> parseKubeletCPUManagerPolicy(std::string_view value) {
  return parseAnnotationJson<KubeletCPUManagerPolicy>(kAnnotationKubeletCPUManagerPolicy, value);
}
std::string formatKubeletCPUManagerPolicy(const KubeletCPUManagerPolicy& policy) {
  return formatAnnotationJson(policy);
}

}  // namespace koord::api::extension
