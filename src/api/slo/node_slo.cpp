#include "koord/api/slo/node_slo.hpp"

#include "../extension/encode_util.hpp"

namespace koord::api::slo {
namespace {

using extension::internal::ifPresent;

}  // namespace

Status fromJson(const Json& j, ResourceThresholdStrategy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("enable", out.enable)
      .field("cpuSuppressThresholdPercent", out.cpuSuppressThresholdPercent)
      .field("cpuSuppressMinPercent", out.cpuSuppressMinPercent)
      .field("cpuSuppressPolicy", out.cpuSuppressPolicy)
      .field("memoryEvictThresholdPercent", out.memoryEvictThresholdPercent)
      .field("memoryEvictLowerPercent", out.memoryEvictLowerPercent)
      .field("memoryAllocatableEvictThresholdPercent", out.memoryAllocatableEvictThresholdPercent)
      .field("memoryAllocatableEvictLowerPercent", out.memoryAllocatableEvictLowerPercent)
      .field("cpuEvictBESatisfactionUpperPercent", out.cpuEvictBESatisfactionUpperPercent)
      .field("cpuEvictBESatisfactionLowerPercent", out.cpuEvictBESatisfactionLowerPercent)
      .field("cpuEvictBEUsageThresholdPercent", out.cpuEvictBEUsageThresholdPercent)
      .field("cpuEvictTimeWindowSeconds", out.cpuEvictTimeWindowSeconds)
      .field("cpuEvictThresholdPercent", out.cpuEvictThresholdPercent)
      .field("cpuEvictLowerPercent", out.cpuEvictLowerPercent)
      .field("cpuAllocatableEvictThresholdPercent", out.cpuAllocatableEvictThresholdPercent)
      .field("cpuAllocatableEvictLowerPercent", out.cpuAllocatableEvictLowerPercent)
      .field("cpuEvictPolicy", out.cpuEvictPolicy)
      .field("evictEnabledPriorityThreshold", out.evictEnabledPriorityThreshold)
      .field("allocatableEvictPriorityThreshold", out.allocatableEvictPriorityThreshold);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceThresholdStrategy& v) {
  return ObjectEncoder()
      .field("enable", v.enable)
      .field("cpuSuppressThresholdPercent", v.cpuSuppressThresholdPercent)
      .field("cpuSuppressMinPercent", v.cpuSuppressMinPercent)
      .field("cpuSuppressPolicy", v.cpuSuppressPolicy)
      .field("memoryEvictThresholdPercent", v.memoryEvictThresholdPercent)
      .field("memoryEvictLowerPercent", v.memoryEvictLowerPercent)
      .field("memoryAllocatableEvictThresholdPercent", v.memoryAllocatableEvictThresholdPercent)
      .field("memoryAllocatableEvictLowerPercent", v.memoryAllocatableEvictLowerPercent)
      .field("cpuEvictBESatisfactionUpperPercent", v.cpuEvictBESatisfactionUpperPercent)
      .field("cpuEvictBESatisfactionLowerPercent", v.cpuEvictBESatisfactionLowerPercent)
      .field("cpuEvictBEUsageThresholdPercent", v.cpuEvictBEUsageThresholdPercent)
      .field("cpuEvictTimeWindowSeconds", v.cpuEvictTimeWindowSeconds)
      .field("cpuEvictThresholdPercent", v.cpuEvictThresholdPercent)
      .field("cpuEvictLowerPercent", v.cpuEvictLowerPercent)
      .field("cpuAllocatableEvictThresholdPercent", v.cpuAllocatableEvictThresholdPercent)
      .field("cpuAllocatableEvictLowerPercent", v.cpuAllocatableEvictLowerPercent)
      .field("cpuEvictPolicy", v.cpuEvictPolicy)
      .field("evictEnabledPriorityThreshold", v.evictEnabledPriorityThreshold)
      .field("allocatableEvictPriorityThreshold", v.allocatableEvictPriorityThreshold)
      .finish(v.extra);
}

Status fromJson(const Json& j, CPUBurstStrategy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("policy", out.policy)
      .field("cpuBurstPercent", out.cpuBurstPercent)
      .field("cfsQuotaBurstPercent", out.cfsQuotaBurstPercent)
      .field("cfsQuotaBurstPeriodSeconds", out.cfsQuotaBurstPeriodSeconds)
      .field("sharePoolThresholdPercent", out.sharePoolThresholdPercent);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CPUBurstStrategy& v) {
  return ObjectEncoder()
      .field("policy", v.policy)
      .field("cpuBurstPercent", v.cpuBurstPercent)
      .field("cfsQuotaBurstPercent", v.cfsQuotaBurstPercent)
      .field("cfsQuotaBurstPeriodSeconds", v.cfsQuotaBurstPeriodSeconds)
      .field("sharePoolThresholdPercent", v.sharePoolThresholdPercent)
      .finish(v.extra);
}

Status fromJson(const Json& j, SystemStrategy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("minFreeKbytesFactor", out.minFreeKbytesFactor)
      .field("watermarkScaleFactor", out.watermarkScaleFactor)
      .field("memcgReapBackGround", out.memcgReapBackGround)
      .field("schedGroupIdentityEnabled", out.schedGroupIdentityEnabled)
      .field("schedIdleSaverWmark", out.schedIdleSaverWmark)
      .field("schedFeatures", out.schedFeatures)
      .field("totalNetworkBandwidth", out.totalNetworkBandwidth);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const SystemStrategy& v) {
  return ObjectEncoder()
      .field("minFreeKbytesFactor", v.minFreeKbytesFactor)
      .field("watermarkScaleFactor", v.watermarkScaleFactor)
      .field("memcgReapBackGround", v.memcgReapBackGround)
      .field("schedGroupIdentityEnabled", v.schedGroupIdentityEnabled)
      .field("schedIdleSaverWmark", v.schedIdleSaverWmark)
      .field("schedFeatures", v.schedFeatures)
      .field("totalNetworkBandwidth", v.totalNetworkBandwidth)
      .finish(v.extra);
}

Status fromJson(const Json& j, CgroupPath& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("base", out.base)
      .field("parentDir", out.parentDir)
      .field("relativePath", out.relativePath);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CgroupPath& v) {
  return ObjectEncoder()
      .field("base", v.base)
      .field("parentDir", v.parentDir)
      .field("relativePath", v.relativePath)
      .finish(v.extra);
}

Status fromJson(const Json& j, HostApplicationSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("priority", out.priority)
      .field("qos", out.qos)
      .field("cgroupPath", out.cgroupPath)
      .field("strategy", out.strategy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const HostApplicationSpec& v) {
  ObjectEncoder e;
  e.field("name", v.name).field("priority", v.priority).field("qos", v.qos);
  ifPresent(e, "cgroupPath", v.cgroupPath);
  if (v.strategy) {
    e.always("strategy", v.strategy->is_null() ? Json::object() : *v.strategy);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeSLOSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resourceUsedThresholdWithBE", out.resourceUsedThresholdWithBE)
      .field("resourceQOSStrategy", out.resourceQOSStrategy)
      .field("cpuBurstStrategy", out.cpuBurstStrategy)
      .field("systemStrategy", out.systemStrategy)
      .field("extensions", out.extensions)
      .field("hostApplications", out.hostApplications);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeSLOSpec& v) {
  ObjectEncoder e;
  ifPresent(e, "resourceUsedThresholdWithBE", v.resourceUsedThresholdWithBE);
  ifPresent(e, "resourceQOSStrategy", v.resourceQOSStrategy);
  ifPresent(e, "cpuBurstStrategy", v.cpuBurstStrategy);
  ifPresent(e, "systemStrategy", v.systemStrategy);
  if (!v.extensions.is_null()) {
    e.always("extensions", v.extensions);
  }
  e.field("hostApplications", v.hostApplications);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeSLOStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeSLOStatus& v) {
  return ObjectEncoder().finish(v.extra);
}

Status fromJson(const Json& j, NodeSLO& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeSLO& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

}  // namespace koord::api::slo
