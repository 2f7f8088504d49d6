#include "koord/api/slo/resource_qos.hpp"

#include "../extension/encode_util.hpp"

namespace koord::api::slo {
namespace {

using extension::internal::ifPresent;

// An IntOrString kept raw: it must be an integer or a string.
Status intOrString(const Json& j, const std::string& path) {
  if (j.is_null() || j.is_string() || j.is_number_integer() || j.is_number_unsigned()) {
    return Status::ok();
  }
  return typeError(path, "integer or string", j);
}

}  // namespace

Status fromJson(const Json& j, CPUQOSCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("enable", out.enable)
      .field("groupIdentity", out.groupIdentity)
      .field("schedIdle", out.schedIdle)
      .field("coreExpeller", out.coreExpeller);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const CPUQOSCfg& v) {
  return ObjectEncoder()
      .field("enable", v.enable)
      .field("groupIdentity", v.groupIdentity)
      .field("schedIdle", v.schedIdle)
      .field("coreExpeller", v.coreExpeller)
      .finish(v.extra);
}

Status fromJson(const Json& j, MemoryQOSCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("enable", out.enable)
      .field("minLimitPercent", out.minLimitPercent)
      .field("lowLimitPercent", out.lowLimitPercent)
      .field("throttlingPercent", out.throttlingPercent)
      .field("wmarkRatio", out.wmarkRatio)
      .field("wmarkScalePermill", out.wmarkScalePermill)
      .field("wmarkMinAdj", out.wmarkMinAdj)
      .field("priorityEnable", out.priorityEnable)
      .field("priority", out.priority)
      .field("oomKillGroup", out.oomKillGroup);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const MemoryQOSCfg& v) {
  return ObjectEncoder()
      .field("enable", v.enable)
      .field("minLimitPercent", v.minLimitPercent)
      .field("lowLimitPercent", v.lowLimitPercent)
      .field("throttlingPercent", v.throttlingPercent)
      .field("wmarkRatio", v.wmarkRatio)
      .field("wmarkScalePermill", v.wmarkScalePermill)
      .field("wmarkMinAdj", v.wmarkMinAdj)
      .field("priorityEnable", v.priorityEnable)
      .field("priority", v.priority)
      .field("oomKillGroup", v.oomKillGroup)
      .finish(v.extra);
}

Status fromJson(const Json& j, IOCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("readIOPS", out.readIOPS)
      .field("writeIOPS", out.writeIOPS)
      .field("readBPS", out.readBPS)
      .field("writeBPS", out.writeBPS)
      .field("ioWeightPercent", out.ioWeightPercent)
      .field("readLatency", out.readLatency)
      .field("writeLatency", out.writeLatency)
      .field("readLatencyPercent", out.readLatencyPercent)
      .field("writeLatencyPercent", out.writeLatencyPercent)
      .field("enableUserModel", out.enableUserModel)
      .field("modelReadBPS", out.modelReadBPS)
      .field("modelWriteBPS", out.modelWriteBPS)
      .field("modelReadSeqIOPS", out.modelReadSeqIOPS)
      .field("modelWriteSeqIOPS", out.modelWriteSeqIOPS)
      .field("modelReadRandIOPS", out.modelReadRandIOPS)
      .field("modelWriteRandIOPS", out.modelWriteRandIOPS);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const IOCfg& v) {
  return ObjectEncoder()
      .field("readIOPS", v.readIOPS)
      .field("writeIOPS", v.writeIOPS)
      .field("readBPS", v.readBPS)
      .field("writeBPS", v.writeBPS)
      .field("ioWeightPercent", v.ioWeightPercent)
      .field("readLatency", v.readLatency)
      .field("writeLatency", v.writeLatency)
      .field("readLatencyPercent", v.readLatencyPercent)
      .field("writeLatencyPercent", v.writeLatencyPercent)
      .field("enableUserModel", v.enableUserModel)
      .field("modelReadBPS", v.modelReadBPS)
      .field("modelWriteBPS", v.modelWriteBPS)
      .field("modelReadSeqIOPS", v.modelReadSeqIOPS)
      .field("modelWriteSeqIOPS", v.modelWriteSeqIOPS)
      .field("modelReadRandIOPS", v.modelReadRandIOPS)
      .field("modelWriteRandIOPS", v.modelWriteRandIOPS)
      .finish(v.extra);
}

Status fromJson(const Json& j, BlockCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name).field("type", out.type).field("ioCfg", out.ioCfg);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const BlockCfg& v) {
  return ObjectEncoder()
      .field("name", v.name)
      .field("type", v.type)
      .always("ioCfg", v.ioCfg)
      .finish(v.extra);
}

Status fromJson(const Json& j, BlkIOQOSCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("enable", out.enable).field("blocks", out.blocks);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const BlkIOQOSCfg& v) {
  return ObjectEncoder().field("enable", v.enable).field("blocks", v.blocks).finish(v.extra);
}

Status fromJson(const Json& j, ResctrlQOSCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("enable", out.enable)
      .field("catRangeStartPercent", out.catRangeStartPercent)
      .field("catRangeEndPercent", out.catRangeEndPercent)
      .field("mbaPercent", out.mbaPercent);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResctrlQOSCfg& v) {
  return ObjectEncoder()
      .field("enable", v.enable)
      .field("catRangeStartPercent", v.catRangeStartPercent)
      .field("catRangeEndPercent", v.catRangeEndPercent)
      .field("mbaPercent", v.mbaPercent)
      .finish(v.extra);
}

Status fromJson(const Json& j, NetworkQOSCfg& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("enable", out.enable)
      .field("ingressRequest", out.ingressRequest)
      .field("ingressLimit", out.ingressLimit)
      .field("egressRequest", out.egressRequest)
      .field("egressLimit", out.egressLimit);
  KOORD_RETURN_IF_ERROR(d.status());
  KOORD_RETURN_IF_ERROR(intOrString(out.ingressRequest, childPath(path, "ingressRequest")));
  KOORD_RETURN_IF_ERROR(intOrString(out.ingressLimit, childPath(path, "ingressLimit")));
  KOORD_RETURN_IF_ERROR(intOrString(out.egressRequest, childPath(path, "egressRequest")));
  KOORD_RETURN_IF_ERROR(intOrString(out.egressLimit, childPath(path, "egressLimit")));
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NetworkQOSCfg& v) {
  return ObjectEncoder()
      .field("enable", v.enable)
      .field("ingressRequest", v.ingressRequest)
      .field("ingressLimit", v.ingressLimit)
      .field("egressRequest", v.egressRequest)
      .field("egressLimit", v.egressLimit)
      .finish(v.extra);
}

Status fromJson(const Json& j, ResourceQOS& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("cpuQOS", out.cpuQOS)
      .field("memoryQOS", out.memoryQOS)
      .field("blkioQOS", out.blkioQOS)
      .field("resctrlQOS", out.resctrlQOS)
      .field("networkQOS", out.networkQOS);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceQOS& v) {
  ObjectEncoder e;
  ifPresent(e, "cpuQOS", v.cpuQOS);
  ifPresent(e, "memoryQOS", v.memoryQOS);
  ifPresent(e, "blkioQOS", v.blkioQOS);
  ifPresent(e, "resctrlQOS", v.resctrlQOS);
  ifPresent(e, "networkQOS", v.networkQOS);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ResourceQOSPolicies& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("cpuPolicy", out.cpuPolicy).field("netQOSPolicy", out.netQOSPolicy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceQOSPolicies& v) {
  return ObjectEncoder()
      .field("cpuPolicy", v.cpuPolicy)
      .field("netQOSPolicy", v.netQOSPolicy)
      .finish(v.extra);
}

Status fromJson(const Json& j, ResourceQOSStrategy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("policies", out.policies)
      .field("lsrClass", out.lsrClass)
      .field("lsClass", out.lsClass)
      .field("beClass", out.beClass)
      .field("systemClass", out.systemClass)
      .field("cgroupRoot", out.cgroupRoot);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ResourceQOSStrategy& v) {
  ObjectEncoder e;
  ifPresent(e, "policies", v.policies);
  ifPresent(e, "lsrClass", v.lsrClass);
  ifPresent(e, "lsClass", v.lsClass);
  ifPresent(e, "beClass", v.beClass);
  ifPresent(e, "systemClass", v.systemClass);
  ifPresent(e, "cgroupRoot", v.cgroupRoot);
  return e.finish(v.extra);
}

}  // namespace koord::api::slo
