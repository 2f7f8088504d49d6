// NodeMetric (slo.koordinator.sh/v1alpha1, cluster-scoped, name = node name): the collect policy
// the manager sets and the usages koordlet reports. Priority and QoS classes in the metrics stay
// strings, as Koordinator tolerates any value there.
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
#include "koord/api/scheduling/device.hpp"
#include "koord/api/slo/register.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::slo {

using extension::EnumName;

inline constexpr std::string_view kNodeMetricKind = "NodeMetric";
inline constexpr std::string_view kNodeMetricListKind = "NodeMetricList";
inline constexpr std::string_view kNodeMetricPlural = "nodemetrics";

// koordlet's defaults and floors for the collect policy.
inline constexpr int64_t kDefaultReportIntervalSeconds = 60;
inline constexpr int64_t kMinReportIntervalSeconds = 30;
inline constexpr int64_t kDefaultAggregateDurationSeconds = 300;
inline constexpr int64_t kMinAggregateDurationSeconds = 60;

enum class NodeMemoryCollectPolicy {
  kUsageWithoutPageCache,
  kUsageWithHotPageCache,
  kUsageWithPageCache
};
constexpr std::array<EnumName<NodeMemoryCollectPolicy>, 3> enumNames(NodeMemoryCollectPolicy) {
  return {{{NodeMemoryCollectPolicy::kUsageWithoutPageCache, "usageWithoutPageCache"},
           {NodeMemoryCollectPolicy::kUsageWithHotPageCache, "usageWithHotPageCache"},
           {NodeMemoryCollectPolicy::kUsageWithPageCache, "usageWithPageCache"}}};
}
KOORD_API_ENUM_CODEC(NodeMemoryCollectPolicy)

// A ResourceList written inline under "resources", plus per-device usage.
struct ResourceMap {
  resource::ResourceList resources;
  std::vector<scheduling::DeviceInfo> devices;
  Json extra;

  bool operator==(const ResourceMap&) const = default;
};

// Usage per aggregation type ("avg", "p50", "p90", "p95", "p99") over `duration`.
struct AggregatedUsage {
  std::map<std::string, ResourceMap> usage;
  std::string duration;  // Go duration text
  Json extra;

  bool operator==(const AggregatedUsage&) const = default;
};

struct NUMAMetricInfo {
  std::optional<int32_t> numaNodeID;
  ResourceMap nodeUsage;
  ResourceMap systemUsage;
  Json extra;

  bool operator==(const NUMAMetricInfo&) const = default;
};

struct NodeMetricInfo {
  ResourceMap nodeUsage;
  std::vector<AggregatedUsage> aggregatedNodeUsages;
  ResourceMap systemUsage;
  std::vector<AggregatedUsage> aggregatedSystemUsages;
  std::vector<NUMAMetricInfo> numaUsages;
  Json extra;

  bool operator==(const NodeMetricInfo&) const = default;
};

struct PodMetricInfo {
  std::string name;
  std::string namespace_;  // JSON "namespace"
  ResourceMap podUsage;
  std::string priority;  // koord-prod, ...
  std::string qos;       // LSE, ...
  Json extensions;       // raw; null when absent
  Json extra;

  bool operator==(const PodMetricInfo&) const = default;
};

struct HostApplicationMetricInfo {
  std::string name;
  ResourceMap usage;
  std::string priority;
  std::string qos;
  Json extra;

  bool operator==(const HostApplicationMetricInfo&) const = default;
};

struct ReclaimableMetric {
  ResourceMap resource;
  Json extra;

  bool operator==(const ReclaimableMetric&) const = default;
};

struct AggregatePolicy {
  std::vector<std::string> durations;  // Go duration texts
  Json extra;

  bool operator==(const AggregatePolicy&) const = default;
};

struct NodeMetricCollectPolicy {
  std::optional<int64_t> aggregateDurationSeconds;
  std::optional<int64_t> reportIntervalSeconds;
  std::optional<AggregatePolicy> nodeAggregatePolicy;
  std::optional<NodeMemoryCollectPolicy> nodeMemoryCollectPolicy;
  Json extra;

  bool operator==(const NodeMetricCollectPolicy&) const = default;
};

struct NodeMetricSpec {
  std::optional<NodeMetricCollectPolicy> metricCollectPolicy;
  Json extra;

  bool operator==(const NodeMetricSpec&) const = default;
};

struct NodeMetricStatus {
  std::optional<std::string> updateTime;  // RFC 3339
  std::optional<NodeMetricInfo> nodeMetric;
  std::vector<PodMetricInfo> podsMetric;
  std::vector<HostApplicationMetricInfo> hostApplicationMetric;
  std::optional<ReclaimableMetric> prodReclaimableMetric;
  std::optional<ReclaimableMetric> prodPeakMetric;
  Json extra;

  bool operator==(const NodeMetricStatus&) const = default;
};

struct NodeMetric {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  NodeMetricSpec spec;
  NodeMetricStatus status;
  Json extra;

  bool operator==(const NodeMetric&) const = default;
};

using NodeMetricList = core::List<NodeMetric>;

Status fromJson(const Json& j, ResourceMap& out, const std::string& path);
Status fromJson(const Json& j, AggregatedUsage& out, const std::string& path);
Status fromJson(const Json& j, NUMAMetricInfo& out, const std::string& path);
Status fromJson(const Json& j, NodeMetricInfo& out, const std::string& path);
Status fromJson(const Json& j, PodMetricInfo& out, const std::string& path);
Status fromJson(const Json& j, HostApplicationMetricInfo& out, const std::string& path);
Status fromJson(const Json& j, ReclaimableMetric& out, const std::string& path);
Status fromJson(const Json& j, AggregatePolicy& out, const std::string& path);
Status fromJson(const Json& j, NodeMetricCollectPolicy& out, const std::string& path);
Status fromJson(const Json& j, NodeMetricSpec& out, const std::string& path);
Status fromJson(const Json& j, NodeMetricStatus& out, const std::string& path);
Status fromJson(const Json& j, NodeMetric& out, const std::string& path);
Json toJson(const ResourceMap& v);
Json toJson(const AggregatedUsage& v);
Json toJson(const NUMAMetricInfo& v);
Json toJson(const NodeMetricInfo& v);
Json toJson(const PodMetricInfo& v);
Json toJson(const HostApplicationMetricInfo& v);
Json toJson(const ReclaimableMetric& v);
Json toJson(const AggregatePolicy& v);
Json toJson(const NodeMetricCollectPolicy& v);
Json toJson(const NodeMetricSpec& v);
Json toJson(const NodeMetricStatus& v);
Json toJson(const NodeMetric& v);

}  // namespace koord::api::slo
