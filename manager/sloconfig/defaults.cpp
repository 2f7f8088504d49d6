#include "manager/sloconfig/defaults.hpp"

#include <cstdint>

namespace koord::manager::sloconfig {

namespace api_slo = api::slo;

namespace {

struct ClassDefaults {
  int64_t groupIdentity;
  bool coreExpeller;
  int64_t catRangeEndPercent;
  int64_t wmarkRatio;
  int64_t wmarkScalePermill;
  int64_t wmarkMinAdj;
};

api_slo::ResourceQOS defaultClass(const ClassDefaults& d) {
  api_slo::ResourceQOS qos;
  api_slo::CPUQOSCfg cpu;
  cpu.enable = false;
  cpu.groupIdentity = d.groupIdentity;
  cpu.schedIdle = 0;
  cpu.coreExpeller = d.coreExpeller;
  qos.cpuQOS = cpu;

  api_slo::ResctrlQOSCfg resctrl;
  resctrl.enable = false;
  resctrl.catRangeStartPercent = 0;
  resctrl.catRangeEndPercent = d.catRangeEndPercent;
  resctrl.mbaPercent = 100;
  qos.resctrlQOS = resctrl;

  api_slo::MemoryQOSCfg memory;
  memory.enable = false;
  memory.minLimitPercent = 0;
  memory.lowLimitPercent = 0;
  memory.throttlingPercent = 0;
  memory.wmarkRatio = d.wmarkRatio;
  memory.wmarkScalePermill = d.wmarkScalePermill;
  memory.wmarkMinAdj = d.wmarkMinAdj;
  memory.priorityEnable = 0;
  memory.priority = 0;
  memory.oomKillGroup = 0;
  qos.memoryQOS = memory;

  api_slo::BlkIOQOSCfg blkio;
  blkio.enable = false;
  qos.blkioQOS = blkio;

  api_slo::NetworkQOSCfg network;
  network.enable = false;
  qos.networkQOS = network;
  return qos;
}

}  // namespace

api_slo::ResourceThresholdStrategy defaultResourceThresholdStrategy() {
  api_slo::ResourceThresholdStrategy s;
  s.enable = false;
  s.cpuSuppressThresholdPercent = 65;
  s.cpuSuppressPolicy = api_slo::CPUSuppressPolicy::kCPUSet;
  s.memoryEvictThresholdPercent = 70;
  s.cpuEvictPolicy = api_slo::CPUEvictPolicy::kEvictByRealLimit;
  return s;
}

api_slo::ResourceQOSStrategy defaultResourceQOSStrategy() {
  api_slo::ResourceQOSStrategy s;
  api_slo::ResourceQOSPolicies policies;
  policies.cpuPolicy = api_slo::CPUQOSPolicy::kGroupIdentity;
  policies.netQOSPolicy = api_slo::NETQOSPolicy::kTC;
  s.policies = policies;
  s.lsrClass = defaultClass({2, true, 100, 95, 20, -25});
  s.lsClass = defaultClass({2, true, 100, 95, 20, -25});
  s.beClass = defaultClass({-1, false, 30, 95, 20, 50});
  s.systemClass = defaultClass({0, false, 100, 0, 50, 0});
  return s;
}

api_slo::CPUBurstStrategy defaultCPUBurstStrategy() {
  api_slo::CPUBurstStrategy s;
  s.policy = api_slo::CPUBurstPolicy::kNone;
  s.cpuBurstPercent = 1000;
  s.cfsQuotaBurstPercent = 300;
  s.cfsQuotaBurstPeriodSeconds = -1;
  s.sharePoolThresholdPercent = 50;
  return s;
}

api_slo::SystemStrategy defaultSystemStrategy() {
  api_slo::SystemStrategy s;
  s.totalNetworkBandwidth = resource::Quantity::parse("0").valueOr(resource::Quantity());
  return s;
}

}  // namespace koord::manager::sloconfig
