#include "koord/api/extension/cpu_topology.hpp"

#include "koord/api/extension/annotation.hpp"
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

Status fromJson(const Json& j, CPUInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("id", out.id).field("core", out.core).field("socket", out.socket).field("node", out.node);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CPUInfo& v) {
  return ObjectEncoder()
      .always("id", v.id)
      .always("core", v.core)
      .always("socket", v.socket)
      .always("node", v.node)
      .finish(v.extra);
}

Status fromJson(const Json& j, CPUTopology& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("detail", out.detail);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CPUTopology& v) {
  return ObjectEncoder().field("detail", v.detail).finish(v.extra);
}

Status fromJson(const Json& j, CPUSharedPool& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("socket", out.socket).field("node", out.node).field("cpuset", out.cpuset);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CPUSharedPool& v) {
  return ObjectEncoder()
      .always("socket", v.socket)
      .always("node", v.node)
      .field("cpuset", v.cpuset)
      .finish(v.extra);
}

Status fromJson(const Json& j, PodCPUAlloc& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("namespace", out.namespace_)
      .field("name", out.name)
      .field("uid", out.uid)
      .field("cpuset", out.cpuset)
      .field("managedByKubelet", out.managedByKubelet);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodCPUAlloc& v) {
  ObjectEncoder e;
  e.field("namespace", v.namespace_)
      .field("name", v.name)
      .field("uid", v.uid)
      .field("cpuset", v.cpuset);
  if (v.managedByKubelet) {
    e.always("managedByKubelet", true);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, KubeletCPUManagerPolicy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("policy", out.policy)
      .field("options", out.options)
      .field("reservedCPUs", out.reservedCPUs);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const KubeletCPUManagerPolicy& v) {
  return ObjectEncoder()
      .field("policy", v.policy)
      .field("options", v.options)
      .field("reservedCPUs", v.reservedCPUs)
      .finish(v.extra);
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
