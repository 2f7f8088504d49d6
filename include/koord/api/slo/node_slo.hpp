// NodeSLO (slo.koordinator.sh/v1alpha1, cluster-scoped, name = node name): the QoS strategies
// koord-manager renders from slo-controller-config for one node and koordlet applies.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/extension/enum_codec.hpp"
#include "koord/api/slo/register.hpp"
#include "koord/api/slo/resource_qos.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::api::slo {

inline constexpr std::string_view kNodeSLOKind = "NodeSLO";
inline constexpr std::string_view kNodeSLOListKind = "NodeSLOList";
inline constexpr std::string_view kNodeSLOPlural = "nodeslos";

enum class CPUSuppressPolicy { kCPUSet, kCFSQuota };
constexpr std::array<EnumName<CPUSuppressPolicy>, 2> enumNames(CPUSuppressPolicy) {
  return {{{CPUSuppressPolicy::kCPUSet, "cpuset"}, {CPUSuppressPolicy::kCFSQuota, "cfsQuota"}}};
}
KOORD_API_ENUM_CODEC(CPUSuppressPolicy)

enum class CPUEvictPolicy { kEvictByRealLimit, kEvictByAllocatable };
constexpr std::array<EnumName<CPUEvictPolicy>, 2> enumNames(CPUEvictPolicy) {
  return {{{CPUEvictPolicy::kEvictByRealLimit, "evictByRealLimit"},
           {CPUEvictPolicy::kEvictByAllocatable, "evictByAllocatable"}}};
}
KOORD_API_ENUM_CODEC(CPUEvictPolicy)

enum class CPUBurstPolicy { kNone, kCPUBurstOnly, kCFSQuotaBurstOnly, kAuto };
constexpr std::array<EnumName<CPUBurstPolicy>, 4> enumNames(CPUBurstPolicy) {
  return {{{CPUBurstPolicy::kNone, "none"},
           {CPUBurstPolicy::kCPUBurstOnly, "cpuBurstOnly"},
           {CPUBurstPolicy::kCFSQuotaBurstOnly, "cfsQuotaBurstOnly"},
           {CPUBurstPolicy::kAuto, "auto"}}};
}
KOORD_API_ENUM_CODEC(CPUBurstPolicy)

enum class CgroupBaseType { kCgroupRoot, kKubepods, kKubepodsBurstable, kKubepodsBesteffort };
constexpr std::array<EnumName<CgroupBaseType>, 4> enumNames(CgroupBaseType) {
  return {{{CgroupBaseType::kCgroupRoot, "CgroupRoot"},
           {CgroupBaseType::kKubepods, "Kubepods"},
           {CgroupBaseType::kKubepodsBurstable, "KubepodsBurstable"},
           {CgroupBaseType::kKubepodsBesteffort, "KubepodsBesteffort"}}};
}
KOORD_API_ENUM_CODEC(CgroupBaseType)

// BE suppression and eviction thresholds; percentages are 0..100.
struct ResourceThresholdStrategy {
  std::optional<bool> enable;
  std::optional<int64_t> cpuSuppressThresholdPercent;
  std::optional<int64_t> cpuSuppressMinPercent;
  std::optional<CPUSuppressPolicy> cpuSuppressPolicy;
  std::optional<int64_t> memoryEvictThresholdPercent;
  std::optional<int64_t> memoryEvictLowerPercent;
  std::optional<int64_t> memoryAllocatableEvictThresholdPercent;
  std::optional<int64_t> memoryAllocatableEvictLowerPercent;
  std::optional<int64_t> cpuEvictBESatisfactionUpperPercent;
  std::optional<int64_t> cpuEvictBESatisfactionLowerPercent;
  std::optional<int64_t> cpuEvictBEUsageThresholdPercent;
  std::optional<int64_t> cpuEvictTimeWindowSeconds;
  std::optional<int64_t> cpuEvictThresholdPercent;
  std::optional<int64_t> cpuEvictLowerPercent;
  std::optional<int64_t> cpuAllocatableEvictThresholdPercent;
  std::optional<int64_t> cpuAllocatableEvictLowerPercent;
  std::optional<CPUEvictPolicy> cpuEvictPolicy;
  std::optional<int32_t> evictEnabledPriorityThreshold;
  std::optional<int32_t> allocatableEvictPriorityThreshold;
  Json extra;

  bool operator==(const ResourceThresholdStrategy&) const = default;
};

struct CPUBurstStrategy {
  std::optional<CPUBurstPolicy> policy;
  std::optional<int64_t> cpuBurstPercent;
  std::optional<int64_t> cfsQuotaBurstPercent;
  std::optional<int64_t> cfsQuotaBurstPeriodSeconds;
  std::optional<int64_t> sharePoolThresholdPercent;
  Json extra;

  bool operator==(const CPUBurstStrategy&) const = default;
};

// pageCacheLimitEnabled and other newer knobs stay in `extra`.
struct SystemStrategy {
  std::optional<int64_t> minFreeKbytesFactor;
  std::optional<int64_t> watermarkScaleFactor;
  std::optional<int64_t> memcgReapBackGround;
  std::optional<int64_t> schedGroupIdentityEnabled;
  std::optional<int64_t> schedIdleSaverWmark;
  std::map<std::string, bool> schedFeatures;
  std::optional<resource::Quantity> totalNetworkBandwidth;
  Json extra;

  bool operator==(const SystemStrategy&) const = default;
};

struct CgroupPath {
  std::optional<CgroupBaseType> base;
  std::string parentDir;
  std::string relativePath;
  Json extra;

  bool operator==(const CgroupPath&) const = default;
};

// An out-of-band application on the node, managed like a pod of the given classes.
struct HostApplicationSpec {
  std::string name;
  std::string priority;  // koord-prod, ... (tolerated as any string)
  std::string qos;       // LSE, ... (tolerated as any string)
  std::optional<CgroupPath> cgroupPath;
  std::optional<Json> strategy;  // an empty object today
  Json extra;

  bool operator==(const HostApplicationSpec&) const = default;
};

struct NodeSLOSpec {
  std::optional<ResourceThresholdStrategy> resourceUsedThresholdWithBE;
  std::optional<ResourceQOSStrategy> resourceQOSStrategy;
  std::optional<CPUBurstStrategy> cpuBurstStrategy;
  std::optional<SystemStrategy> systemStrategy;
  Json extensions;  // third-party extensions, raw; null when absent
  std::vector<HostApplicationSpec> hostApplications;
  Json extra;  // psiStrategy, ...

  bool operator==(const NodeSLOSpec&) const = default;
};

struct NodeSLOStatus {
  Json extra;

  bool operator==(const NodeSLOStatus&) const = default;
};

struct NodeSLO {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  NodeSLOSpec spec;
  NodeSLOStatus status;
  Json extra;

  bool operator==(const NodeSLO&) const = default;
};

using NodeSLOList = core::List<NodeSLO>;

Status fromJson(const Json& j, ResourceThresholdStrategy& out, const std::string& path);
Status fromJson(const Json& j, CPUBurstStrategy& out, const std::string& path);
Status fromJson(const Json& j, SystemStrategy& out, const std::string& path);
Status fromJson(const Json& j, CgroupPath& out, const std::string& path);
Status fromJson(const Json& j, HostApplicationSpec& out, const std::string& path);
Status fromJson(const Json& j, NodeSLOSpec& out, const std::string& path);
Status fromJson(const Json& j, NodeSLOStatus& out, const std::string& path);
Status fromJson(const Json& j, NodeSLO& out, const std::string& path);
Json toJson(const ResourceThresholdStrategy& v);
Json toJson(const CPUBurstStrategy& v);
Json toJson(const SystemStrategy& v);
Json toJson(const CgroupPath& v);
Json toJson(const HostApplicationSpec& v);
Json toJson(const NodeSLOSpec& v);
Json toJson(const NodeSLOStatus& v);
Json toJson(const NodeSLO& v);

}  // namespace koord::api::slo
