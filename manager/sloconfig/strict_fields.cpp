#include "manager/sloconfig/strict_fields.hpp"

#include <cstddef>

namespace koord::manager::sloconfig {

using config::Field;
using config::FieldReader;

namespace {

void checkResourceQOS(FieldReader& reader, const Field& field) {
  if (!reader.checkObject(field, {"cpuQOS", "memoryQOS", "blkioQOS", "resctrlQOS", "networkQOS"}) ||
      field.absent()) {
    return;
  }
  reader.checkObject(field.child("cpuQOS"),
                     {"enable", "groupIdentity", "schedIdle", "coreExpeller"});
  reader.checkObject(
      field.child("memoryQOS"),
      {"enable", "minLimitPercent", "lowLimitPercent", "throttlingPercent", "wmarkRatio",
       "wmarkScalePermill", "wmarkMinAdj", "priorityEnable", "priority", "oomKillGroup",
       "pageCacheEnable", "pageCacheLimitPercent", "pageCacheLimitSize", "pageCacheReclaimSync"});
  reader.checkObject(field.child("resctrlQOS"),
                     {"enable", "catRangeStartPercent", "catRangeEndPercent", "mbaPercent"});
  reader.checkObject(field.child("networkQOS"),
                     {"enable", "ingressRequest", "ingressLimit", "egressRequest", "egressLimit"});
  const Field blkio = field.child("blkioQOS");
  if (!reader.checkObject(blkio, {"enable", "blocks"}) || blkio.absent()) {
    return;
  }
  const Field blocks = blkio.child("blocks");
  if (blocks.absent() || !blocks.value->is_array()) {
    return;  // the model's decoder reports a wrong type
  }
  for (size_t i = 0; i < blocks.value->size(); ++i) {
    const Field block = blocks.item(i);
    if (!reader.checkObject(block, {"name", "type", "ioCfg"}) || block.absent()) {
      continue;
    }
    reader.checkObject(block.child("ioCfg"),
                       {"readIOPS", "writeIOPS", "readBPS", "writeBPS", "ioWeightPercent",
                        "readLatency", "writeLatency", "readLatencyPercent", "writeLatencyPercent",
                        "enableUserModel", "modelReadBPS", "modelWriteBPS", "modelReadSeqIOPS",
                        "modelWriteSeqIOPS", "modelReadRandIOPS", "modelWriteRandIOPS"});
  }
}

}  // namespace

void checkResourceThresholdFields(FieldReader& reader, const Field& field) {
  reader.checkObject(
      field,
      {"enable", "cpuSuppressThresholdPercent", "cpuSuppressMinPercent", "cpuSuppressPolicy",
       "memoryEvictThresholdPercent", "memoryEvictLowerPercent",
       "memoryAllocatableEvictThresholdPercent", "memoryAllocatableEvictLowerPercent",
       "cpuEvictBESatisfactionUpperPercent", "cpuEvictBESatisfactionLowerPercent",
       "cpuEvictBEUsageThresholdPercent", "cpuEvictTimeWindowSeconds", "cpuEvictThresholdPercent",
       "cpuEvictLowerPercent", "cpuAllocatableEvictThresholdPercent",
       "cpuAllocatableEvictLowerPercent", "cpuEvictPolicy", "evictEnabledPriorityThreshold",
       "allocatableEvictPriorityThreshold"});
}

void checkResourceQOSFields(FieldReader& reader, const Field& field) {
  if (!reader.checkObject(
          field, {"policies", "lsrClass", "lsClass", "beClass", "systemClass", "cgroupRoot"}) ||
      field.absent()) {
    return;
  }
  reader.checkObject(field.child("policies"), {"cpuPolicy", "netQOSPolicy"});
  for (const char* cls : {"lsrClass", "lsClass", "beClass", "systemClass", "cgroupRoot"}) {
    checkResourceQOS(reader, field.child(cls));
  }
}

void checkCPUBurstFields(FieldReader& reader, const Field& field) {
  reader.checkObject(field, {"policy", "cpuBurstPercent", "cfsQuotaBurstPercent",
                             "cfsQuotaBurstPeriodSeconds", "sharePoolThresholdPercent"});
}

void checkSystemFields(FieldReader& reader, const Field& field) {
  reader.checkObject(field, {"minFreeKbytesFactor", "watermarkScaleFactor", "memcgReapBackGround",
                             "schedGroupIdentityEnabled", "schedIdleSaverWmark", "schedFeatures",
                             "pageCacheLimitEnabled", "totalNetworkBandwidth"});
}

void checkHostApplicationFields(FieldReader& reader, const Field& field) {
  if (!reader.checkObject(field, {"name", "priority", "qos", "cgroupPath", "strategy"}) ||
      field.absent()) {
    return;
  }
  reader.checkObject(field.child("cgroupPath"), {"base", "parentDir", "relativePath"});
}

}  // namespace koord::manager::sloconfig
