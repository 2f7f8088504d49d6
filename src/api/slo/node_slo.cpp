#include "koord/api/slo/node_slo.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::slo {
namespace {

// strategy is a Go pointer to an empty struct: a set but null value is written as {}.
Json strategyToJson(const std::optional<Json>& strategy) {
  return strategy->is_null() ? Json::object() : *strategy;
}

}  // namespace

constexpr auto kResourceThresholdStrategyFields = std::tuple{
    field("enable", &ResourceThresholdStrategy::enable),
    field("cpuSuppressThresholdPercent", &ResourceThresholdStrategy::cpuSuppressThresholdPercent),
    field("cpuSuppressMinPercent", &ResourceThresholdStrategy::cpuSuppressMinPercent),
    field("cpuSuppressPolicy", &ResourceThresholdStrategy::cpuSuppressPolicy),
    field("memoryEvictThresholdPercent", &ResourceThresholdStrategy::memoryEvictThresholdPercent),
    field("memoryEvictLowerPercent", &ResourceThresholdStrategy::memoryEvictLowerPercent),
    field("memoryAllocatableEvictThresholdPercent",
          &ResourceThresholdStrategy::memoryAllocatableEvictThresholdPercent),
    field("memoryAllocatableEvictLowerPercent",
          &ResourceThresholdStrategy::memoryAllocatableEvictLowerPercent),
    field("cpuEvictBESatisfactionUpperPercent",
          &ResourceThresholdStrategy::cpuEvictBESatisfactionUpperPercent),
    field("cpuEvictBESatisfactionLowerPercent",
          &ResourceThresholdStrategy::cpuEvictBESatisfactionLowerPercent),
    field("cpuEvictBEUsageThresholdPercent",
          &ResourceThresholdStrategy::cpuEvictBEUsageThresholdPercent),
    field("cpuEvictTimeWindowSeconds", &ResourceThresholdStrategy::cpuEvictTimeWindowSeconds),
    field("cpuEvictThresholdPercent", &ResourceThresholdStrategy::cpuEvictThresholdPercent),
    field("cpuEvictLowerPercent", &ResourceThresholdStrategy::cpuEvictLowerPercent),
    field("cpuAllocatableEvictThresholdPercent",
          &ResourceThresholdStrategy::cpuAllocatableEvictThresholdPercent),
    field("cpuAllocatableEvictLowerPercent",
          &ResourceThresholdStrategy::cpuAllocatableEvictLowerPercent),
    field("cpuEvictPolicy", &ResourceThresholdStrategy::cpuEvictPolicy),
    field("evictEnabledPriorityThreshold",
          &ResourceThresholdStrategy::evictEnabledPriorityThreshold),
    field("allocatableEvictPriorityThreshold",
          &ResourceThresholdStrategy::allocatableEvictPriorityThreshold),
};

Status fromJson(const Json& j, ResourceThresholdStrategy& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceThresholdStrategyFields);
}

Json toJson(const ResourceThresholdStrategy& v) {
  return encodeFields(v, kResourceThresholdStrategyFields);
}

constexpr auto kCPUBurstStrategyFields = std::tuple{
    field("policy", &CPUBurstStrategy::policy),
    field("cpuBurstPercent", &CPUBurstStrategy::cpuBurstPercent),
    field("cfsQuotaBurstPercent", &CPUBurstStrategy::cfsQuotaBurstPercent),
    field("cfsQuotaBurstPeriodSeconds", &CPUBurstStrategy::cfsQuotaBurstPeriodSeconds),
    field("sharePoolThresholdPercent", &CPUBurstStrategy::sharePoolThresholdPercent),
};

Status fromJson(const Json& j, CPUBurstStrategy& out, const std::string& path) {
  return decodeFields(j, out, path, kCPUBurstStrategyFields);
}

Json toJson(const CPUBurstStrategy& v) {
  return encodeFields(v, kCPUBurstStrategyFields);
}

constexpr auto kSystemStrategyFields = std::tuple{
    field("minFreeKbytesFactor", &SystemStrategy::minFreeKbytesFactor),
    field("watermarkScaleFactor", &SystemStrategy::watermarkScaleFactor),
    field("memcgReapBackGround", &SystemStrategy::memcgReapBackGround),
    field("schedGroupIdentityEnabled", &SystemStrategy::schedGroupIdentityEnabled),
    field("schedIdleSaverWmark", &SystemStrategy::schedIdleSaverWmark),
    field("schedFeatures", &SystemStrategy::schedFeatures),
    field("totalNetworkBandwidth", &SystemStrategy::totalNetworkBandwidth),
};

Status fromJson(const Json& j, SystemStrategy& out, const std::string& path) {
  return decodeFields(j, out, path, kSystemStrategyFields);
}

Json toJson(const SystemStrategy& v) {
  return encodeFields(v, kSystemStrategyFields);
}

constexpr auto kCgroupPathFields = std::tuple{
    field("base", &CgroupPath::base),
    field("parentDir", &CgroupPath::parentDir),
    field("relativePath", &CgroupPath::relativePath),
};

Status fromJson(const Json& j, CgroupPath& out, const std::string& path) {
  return decodeFields(j, out, path, kCgroupPathFields);
}

Json toJson(const CgroupPath& v) {
  return encodeFields(v, kCgroupPathFields);
}

constexpr auto kHostApplicationSpecFields = std::tuple{
    field("name", &HostApplicationSpec::name),
    field("priority", &HostApplicationSpec::priority),
    field("qos", &HostApplicationSpec::qos),
    field("cgroupPath", &HostApplicationSpec::cgroupPath).ifSet(),
    field("strategy", &HostApplicationSpec::strategy).ifSet().encodeWith(&strategyToJson),
};

Status fromJson(const Json& j, HostApplicationSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kHostApplicationSpecFields);
}

Json toJson(const HostApplicationSpec& v) {
  return encodeFields(v, kHostApplicationSpecFields);
}

constexpr auto kNodeSLOSpecFields = std::tuple{
    field("resourceUsedThresholdWithBE", &NodeSLOSpec::resourceUsedThresholdWithBE).ifSet(),
    field("resourceQOSStrategy", &NodeSLOSpec::resourceQOSStrategy).ifSet(),
    field("cpuBurstStrategy", &NodeSLOSpec::cpuBurstStrategy).ifSet(),
    field("systemStrategy", &NodeSLOSpec::systemStrategy).ifSet(),
    // Written by hand below: no write modifier means "a raw Json written unless null".
    field("extensions", &NodeSLOSpec::extensions).decodeOnly(),
    field("hostApplications", &NodeSLOSpec::hostApplications),
};

Status fromJson(const Json& j, NodeSLOSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSLOSpecFields);
}

Json toJson(const NodeSLOSpec& v) {
  ObjectEncoder e;
  writeFields(e, v, kNodeSLOSpecFields);
  // Hand-written: the raw extensions are written whenever present, even as {} ("" or []), which
  // omitempty would drop; only null (absent) is omitted.
  if (!v.extensions.is_null()) {
    e.always("extensions", v.extensions);
  }
  return e.finish(v.extra);
}

// No typed fields: everything is kept in `extra`.
constexpr auto kNodeSLOStatusFields = std::tuple{};

Status fromJson(const Json& j, NodeSLOStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSLOStatusFields);
}

Json toJson(const NodeSLOStatus& v) {
  return encodeFields(v, kNodeSLOStatusFields);
}

constexpr auto kNodeSLOFields = std::tuple{
    field("apiVersion", &NodeSLO::apiVersion),      field("kind", &NodeSLO::kind),
    field("metadata", &NodeSLO::metadata).always(), field("spec", &NodeSLO::spec).always(),
    field("status", &NodeSLO::status).always(),
};

Status fromJson(const Json& j, NodeSLO& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSLOFields);
}

Json toJson(const NodeSLO& v) {
  return encodeFields(v, kNodeSLOFields);
}

}  // namespace koord::api::slo
