#include "koord/api/slo/resource_qos.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::slo {
namespace {

// An IntOrString kept raw: it must be an integer or a string.
Status intOrString(const Json& j, const std::string& path) {
  if (j.is_null() || j.is_string() || j.is_number_integer() || j.is_number_unsigned()) {
    return Status::ok();
  }
  return typeError(path, "integer or string", j);
}

}  // namespace

constexpr auto kCPUQOSCfgFields = std::tuple{
    field("enable", &CPUQOSCfg::enable),
    field("groupIdentity", &CPUQOSCfg::groupIdentity),
    field("schedIdle", &CPUQOSCfg::schedIdle),
    field("coreExpeller", &CPUQOSCfg::coreExpeller),
};

Status fromJson(const Json& j, CPUQOSCfg& out, const std::string& path) {
  return decodeFields(j, out, path, kCPUQOSCfgFields);
}

Json toJson(const CPUQOSCfg& v) {
  return encodeFields(v, kCPUQOSCfgFields);
}

constexpr auto kMemoryQOSCfgFields = std::tuple{
    field("enable", &MemoryQOSCfg::enable),
    field("minLimitPercent", &MemoryQOSCfg::minLimitPercent),
    field("lowLimitPercent", &MemoryQOSCfg::lowLimitPercent),
    field("throttlingPercent", &MemoryQOSCfg::throttlingPercent),
    field("wmarkRatio", &MemoryQOSCfg::wmarkRatio),
    field("wmarkScalePermill", &MemoryQOSCfg::wmarkScalePermill),
    field("wmarkMinAdj", &MemoryQOSCfg::wmarkMinAdj),
    field("priorityEnable", &MemoryQOSCfg::priorityEnable),
    field("priority", &MemoryQOSCfg::priority),
    field("oomKillGroup", &MemoryQOSCfg::oomKillGroup),
};

Status fromJson(const Json& j, MemoryQOSCfg& out, const std::string& path) {
  return decodeFields(j, out, path, kMemoryQOSCfgFields);
}

Json toJson(const MemoryQOSCfg& v) {
  return encodeFields(v, kMemoryQOSCfgFields);
}

constexpr auto kIOCfgFields = std::tuple{
    field("readIOPS", &IOCfg::readIOPS),
    field("writeIOPS", &IOCfg::writeIOPS),
    field("readBPS", &IOCfg::readBPS),
    field("writeBPS", &IOCfg::writeBPS),
    field("ioWeightPercent", &IOCfg::ioWeightPercent),
    field("readLatency", &IOCfg::readLatency),
    field("writeLatency", &IOCfg::writeLatency),
    field("readLatencyPercent", &IOCfg::readLatencyPercent),
    field("writeLatencyPercent", &IOCfg::writeLatencyPercent),
    field("enableUserModel", &IOCfg::enableUserModel),
    field("modelReadBPS", &IOCfg::modelReadBPS),
    field("modelWriteBPS", &IOCfg::modelWriteBPS),
    field("modelReadSeqIOPS", &IOCfg::modelReadSeqIOPS),
    field("modelWriteSeqIOPS", &IOCfg::modelWriteSeqIOPS),
    field("modelReadRandIOPS", &IOCfg::modelReadRandIOPS),
    field("modelWriteRandIOPS", &IOCfg::modelWriteRandIOPS),
};

Status fromJson(const Json& j, IOCfg& out, const std::string& path) {
  return decodeFields(j, out, path, kIOCfgFields);
}

Json toJson(const IOCfg& v) {
  return encodeFields(v, kIOCfgFields);
}

constexpr auto kBlockCfgFields = std::tuple{
    field("name", &BlockCfg::name),
    field("type", &BlockCfg::type),
    field("ioCfg", &BlockCfg::ioCfg).always(),
};

Status fromJson(const Json& j, BlockCfg& out, const std::string& path) {
  return decodeFields(j, out, path, kBlockCfgFields);
}

Json toJson(const BlockCfg& v) {
  return encodeFields(v, kBlockCfgFields);
}

constexpr auto kBlkIOQOSCfgFields = std::tuple{
    field("enable", &BlkIOQOSCfg::enable),
    field("blocks", &BlkIOQOSCfg::blocks),
};

Status fromJson(const Json& j, BlkIOQOSCfg& out, const std::string& path) {
  return decodeFields(j, out, path, kBlkIOQOSCfgFields);
}

Json toJson(const BlkIOQOSCfg& v) {
  return encodeFields(v, kBlkIOQOSCfgFields);
}

constexpr auto kResctrlQOSCfgFields = std::tuple{
    field("enable", &ResctrlQOSCfg::enable),
    field("catRangeStartPercent", &ResctrlQOSCfg::catRangeStartPercent),
    field("catRangeEndPercent", &ResctrlQOSCfg::catRangeEndPercent),
    field("mbaPercent", &ResctrlQOSCfg::mbaPercent),
};

Status fromJson(const Json& j, ResctrlQOSCfg& out, const std::string& path) {
  return decodeFields(j, out, path, kResctrlQOSCfgFields);
}

Json toJson(const ResctrlQOSCfg& v) {
  return encodeFields(v, kResctrlQOSCfgFields);
}

constexpr auto kNetworkQOSCfgFields = std::tuple{
    field("enable", &NetworkQOSCfg::enable),
    field("ingressRequest", &NetworkQOSCfg::ingressRequest),
    field("ingressLimit", &NetworkQOSCfg::ingressLimit),
    field("egressRequest", &NetworkQOSCfg::egressRequest),
    field("egressLimit", &NetworkQOSCfg::egressLimit),
};

Status fromJson(const Json& j, NetworkQOSCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  readFields(d, out, kNetworkQOSCfgFields);
  KOORD_RETURN_IF_ERROR(d.status());
  // Hand-written: the IntOrString checks run once every field decoded, so that a type error in
  // any field is reported before them.
  KOORD_RETURN_IF_ERROR(intOrString(out.ingressRequest, childPath(path, "ingressRequest")));
  KOORD_RETURN_IF_ERROR(intOrString(out.ingressLimit, childPath(path, "ingressLimit")));
  KOORD_RETURN_IF_ERROR(intOrString(out.egressRequest, childPath(path, "egressRequest")));
  KOORD_RETURN_IF_ERROR(intOrString(out.egressLimit, childPath(path, "egressLimit")));
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NetworkQOSCfg& v) {
  return encodeFields(v, kNetworkQOSCfgFields);
}

constexpr auto kResourceQOSFields = std::tuple{
    field("cpuQOS", &ResourceQOS::cpuQOS).ifSet(),
    field("memoryQOS", &ResourceQOS::memoryQOS).ifSet(),
    field("blkioQOS", &ResourceQOS::blkioQOS).ifSet(),
    field("resctrlQOS", &ResourceQOS::resctrlQOS).ifSet(),
    field("networkQOS", &ResourceQOS::networkQOS).ifSet(),
};

Status fromJson(const Json& j, ResourceQOS& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceQOSFields);
}

Json toJson(const ResourceQOS& v) {
  return encodeFields(v, kResourceQOSFields);
}

constexpr auto kResourceQOSPoliciesFields = std::tuple{
    field("cpuPolicy", &ResourceQOSPolicies::cpuPolicy),
    field("netQOSPolicy", &ResourceQOSPolicies::netQOSPolicy),
};

Status fromJson(const Json& j, ResourceQOSPolicies& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceQOSPoliciesFields);
}

Json toJson(const ResourceQOSPolicies& v) {
  return encodeFields(v, kResourceQOSPoliciesFields);
}

constexpr auto kResourceQOSStrategyFields = std::tuple{
    field("policies", &ResourceQOSStrategy::policies).ifSet(),
    field("lsrClass", &ResourceQOSStrategy::lsrClass).ifSet(),
    field("lsClass", &ResourceQOSStrategy::lsClass).ifSet(),
    field("beClass", &ResourceQOSStrategy::beClass).ifSet(),
    field("systemClass", &ResourceQOSStrategy::systemClass).ifSet(),
    field("cgroupRoot", &ResourceQOSStrategy::cgroupRoot).ifSet(),
};

Status fromJson(const Json& j, ResourceQOSStrategy& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceQOSStrategyFields);
}

Json toJson(const ResourceQOSStrategy& v) {
  return encodeFields(v, kResourceQOSStrategyFields);
}

}  // namespace koord::api::slo
