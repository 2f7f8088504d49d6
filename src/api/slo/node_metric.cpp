#include "koord/api/slo/node_metric.hpp"

#include "../extension/encode_util.hpp"

namespace koord::api::slo {
namespace {

using extension::internal::ifPresent;

}  // namespace

Status fromJson(const Json& j, ResourceMap& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resources", out.resources).field("devices", out.devices);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceMap& v) {
  return ObjectEncoder()
      .field("resources", v.resources)
      .field("devices", v.devices)
      .finish(v.extra);
}

Status fromJson(const Json& j, AggregatedUsage& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("usage", out.usage).field("duration", out.duration);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const AggregatedUsage& v) {
  return ObjectEncoder().field("usage", v.usage).field("duration", v.duration).finish(v.extra);
}

Status fromJson(const Json& j, NUMAMetricInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("numaNodeID", out.numaNodeID)
      .field("nodeUsage", out.nodeUsage)
      .field("systemUsage", out.systemUsage);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NUMAMetricInfo& v) {
  return ObjectEncoder()
      .field("numaNodeID", v.numaNodeID)
      .always("nodeUsage", v.nodeUsage)
      .always("systemUsage", v.systemUsage)
      .finish(v.extra);
}

Status fromJson(const Json& j, NodeMetricInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("nodeUsage", out.nodeUsage)
      .field("aggregatedNodeUsages", out.aggregatedNodeUsages)
      .field("systemUsage", out.systemUsage)
      .field("aggregatedSystemUsages", out.aggregatedSystemUsages)
      .field("numaUsages", out.numaUsages);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeMetricInfo& v) {
  return ObjectEncoder()
      .always("nodeUsage", v.nodeUsage)
      .field("aggregatedNodeUsages", v.aggregatedNodeUsages)
      .always("systemUsage", v.systemUsage)
      .field("aggregatedSystemUsages", v.aggregatedSystemUsages)
      .field("numaUsages", v.numaUsages)
      .finish(v.extra);
}

Status fromJson(const Json& j, PodMetricInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("namespace", out.namespace_)
      .field("podUsage", out.podUsage)
      .field("priority", out.priority)
      .field("qos", out.qos)
      .field("extensions", out.extensions);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const PodMetricInfo& v) {
  ObjectEncoder e;
  e.field("name", v.name)
      .field("namespace", v.namespace_)
      .always("podUsage", v.podUsage)
      .field("priority", v.priority)
      .field("qos", v.qos);
  if (!v.extensions.is_null()) {
    e.always("extensions", v.extensions);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, HostApplicationMetricInfo& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("usage", out.usage)
      .field("priority", out.priority)
      .field("qos", out.qos);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const HostApplicationMetricInfo& v) {
  return ObjectEncoder()
      .field("name", v.name)
      .always("usage", v.usage)
      .field("priority", v.priority)
      .field("qos", v.qos)
      .finish(v.extra);
}

Status fromJson(const Json& j, ReclaimableMetric& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resource", out.resource);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReclaimableMetric& v) {
  return ObjectEncoder().always("resource", v.resource).finish(v.extra);
}

Status fromJson(const Json& j, AggregatePolicy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("durations", out.durations);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const AggregatePolicy& v) {
  return ObjectEncoder().field("durations", v.durations).finish(v.extra);
}

Status fromJson(const Json& j, NodeMetricCollectPolicy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("aggregateDurationSeconds", out.aggregateDurationSeconds)
      .field("reportIntervalSeconds", out.reportIntervalSeconds)
      .field("nodeAggregatePolicy", out.nodeAggregatePolicy)
      .field("nodeMemoryCollectPolicy", out.nodeMemoryCollectPolicy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeMetricCollectPolicy& v) {
  ObjectEncoder e;
  e.field("aggregateDurationSeconds", v.aggregateDurationSeconds)
      .field("reportIntervalSeconds", v.reportIntervalSeconds);
  ifPresent(e, "nodeAggregatePolicy", v.nodeAggregatePolicy);
  e.field("nodeMemoryCollectPolicy", v.nodeMemoryCollectPolicy);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeMetricSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("metricCollectPolicy", out.metricCollectPolicy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeMetricSpec& v) {
  ObjectEncoder e;
  ifPresent(e, "metricCollectPolicy", v.metricCollectPolicy);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeMetricStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("updateTime", out.updateTime)
      .field("nodeMetric", out.nodeMetric)
      .field("podsMetric", out.podsMetric)
      .field("hostApplicationMetric", out.hostApplicationMetric)
      .field("prodReclaimableMetric", out.prodReclaimableMetric)
      .field("prodPeakMetric", out.prodPeakMetric);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeMetricStatus& v) {
  ObjectEncoder e;
  e.field("updateTime", v.updateTime);
  ifPresent(e, "nodeMetric", v.nodeMetric);
  e.field("podsMetric", v.podsMetric).field("hostApplicationMetric", v.hostApplicationMetric);
  ifPresent(e, "prodReclaimableMetric", v.prodReclaimableMetric);
  ifPresent(e, "prodPeakMetric", v.prodPeakMetric);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeMetric& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeMetric& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::slo
