#include "koord/api/slo/node_metric.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::slo {

constexpr auto kResourceMapFields = std::tuple{
    field("resources", &ResourceMap::resources),
    field("devices", &ResourceMap::devices),
};

Status fromJson(const Json& j, ResourceMap& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceMapFields);
}

Json toJson(const ResourceMap& v) {
  return encodeFields(v, kResourceMapFields);
}

constexpr auto kAggregatedUsageFields = std::tuple{
    field("usage", &AggregatedUsage::usage),
    field("duration", &AggregatedUsage::duration),
};

Status fromJson(const Json& j, AggregatedUsage& out, const std::string& path) {
  return decodeFields(j, out, path, kAggregatedUsageFields);
}

Json toJson(const AggregatedUsage& v) {
  return encodeFields(v, kAggregatedUsageFields);
}

constexpr auto kNUMAMetricInfoFields = std::tuple{
    field("numaNodeID", &NUMAMetricInfo::numaNodeID),
    field("nodeUsage", &NUMAMetricInfo::nodeUsage).always(),
    field("systemUsage", &NUMAMetricInfo::systemUsage).always(),
};

Status fromJson(const Json& j, NUMAMetricInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kNUMAMetricInfoFields);
}

Json toJson(const NUMAMetricInfo& v) {
  return encodeFields(v, kNUMAMetricInfoFields);
}

constexpr auto kNodeMetricInfoFields = std::tuple{
    field("nodeUsage", &NodeMetricInfo::nodeUsage).always(),
    field("aggregatedNodeUsages", &NodeMetricInfo::aggregatedNodeUsages),
    field("systemUsage", &NodeMetricInfo::systemUsage).always(),
    field("aggregatedSystemUsages", &NodeMetricInfo::aggregatedSystemUsages),
    field("numaUsages", &NodeMetricInfo::numaUsages),
};

Status fromJson(const Json& j, NodeMetricInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeMetricInfoFields);
}

Json toJson(const NodeMetricInfo& v) {
  return encodeFields(v, kNodeMetricInfoFields);
}

constexpr auto kPodMetricInfoFields = std::tuple{
    field("name", &PodMetricInfo::name),
    field("namespace", &PodMetricInfo::namespace_),
    field("podUsage", &PodMetricInfo::podUsage).always(),
    field("priority", &PodMetricInfo::priority),
    field("qos", &PodMetricInfo::qos),
    // Written by hand below: no write modifier means "a raw Json written unless null".
    field("extensions", &PodMetricInfo::extensions).decodeOnly(),
};

Status fromJson(const Json& j, PodMetricInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kPodMetricInfoFields);
}

Json toJson(const PodMetricInfo& v) {
  ObjectEncoder e;
  writeFields(e, v, kPodMetricInfoFields);
  // Hand-written: the raw extensions are written whenever present, even as {} ("" or []), which
  // omitempty would drop; only null (absent) is omitted.
  if (!v.extensions.is_null()) {
    e.always("extensions", v.extensions);
  }
  return e.finish(v.extra);
}

constexpr auto kHostApplicationMetricInfoFields = std::tuple{
    field("name", &HostApplicationMetricInfo::name),
    field("usage", &HostApplicationMetricInfo::usage).always(),
    field("priority", &HostApplicationMetricInfo::priority),
    field("qos", &HostApplicationMetricInfo::qos),
};

Status fromJson(const Json& j, HostApplicationMetricInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kHostApplicationMetricInfoFields);
}

Json toJson(const HostApplicationMetricInfo& v) {
  return encodeFields(v, kHostApplicationMetricInfoFields);
}

constexpr auto kReclaimableMetricFields = std::tuple{
    field("resource", &ReclaimableMetric::resource).always(),
};

Status fromJson(const Json& j, ReclaimableMetric& out, const std::string& path) {
  return decodeFields(j, out, path, kReclaimableMetricFields);
}

Json toJson(const ReclaimableMetric& v) {
  return encodeFields(v, kReclaimableMetricFields);
}

constexpr auto kAggregatePolicyFields = std::tuple{
    field("durations", &AggregatePolicy::durations),
};

Status fromJson(const Json& j, AggregatePolicy& out, const std::string& path) {
  return decodeFields(j, out, path, kAggregatePolicyFields);
}

Json toJson(const AggregatePolicy& v) {
  return encodeFields(v, kAggregatePolicyFields);
}

constexpr auto kNodeMetricCollectPolicyFields = std::tuple{
    field("aggregateDurationSeconds", &NodeMetricCollectPolicy::aggregateDurationSeconds),
    field("reportIntervalSeconds", &NodeMetricCollectPolicy::reportIntervalSeconds),
    field("nodeAggregatePolicy", &NodeMetricCollectPolicy::nodeAggregatePolicy).ifSet(),
    field("nodeMemoryCollectPolicy", &NodeMetricCollectPolicy::nodeMemoryCollectPolicy),
};

Status fromJson(const Json& j, NodeMetricCollectPolicy& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeMetricCollectPolicyFields);
}

Json toJson(const NodeMetricCollectPolicy& v) {
  return encodeFields(v, kNodeMetricCollectPolicyFields);
}

constexpr auto kNodeMetricSpecFields = std::tuple{
    field("metricCollectPolicy", &NodeMetricSpec::metricCollectPolicy).ifSet(),
};

Status fromJson(const Json& j, NodeMetricSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeMetricSpecFields);
}

Json toJson(const NodeMetricSpec& v) {
  return encodeFields(v, kNodeMetricSpecFields);
}

constexpr auto kNodeMetricStatusFields = std::tuple{
    field("updateTime", &NodeMetricStatus::updateTime),
    field("nodeMetric", &NodeMetricStatus::nodeMetric).ifSet(),
    field("podsMetric", &NodeMetricStatus::podsMetric),
    field("hostApplicationMetric", &NodeMetricStatus::hostApplicationMetric),
    field("prodReclaimableMetric", &NodeMetricStatus::prodReclaimableMetric).ifSet(),
    field("prodPeakMetric", &NodeMetricStatus::prodPeakMetric).ifSet(),
};

Status fromJson(const Json& j, NodeMetricStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeMetricStatusFields);
}

Json toJson(const NodeMetricStatus& v) {
  return encodeFields(v, kNodeMetricStatusFields);
}

constexpr auto kNodeMetricFields = std::tuple{
    field("apiVersion", &NodeMetric::apiVersion),      field("kind", &NodeMetric::kind),
    field("metadata", &NodeMetric::metadata).always(), field("spec", &NodeMetric::spec).always(),
    field("status", &NodeMetric::status).always(),
};

Status fromJson(const Json& j, NodeMetric& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeMetricFields);
}

Json toJson(const NodeMetric& v) {
  return encodeFields(v, kNodeMetricFields);
}

}  // namespace koord::api::slo
