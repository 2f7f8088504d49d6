// Koordinator's built-in defaults of the slo-controller-config strategies
// (pkg/util/sloconfig: DefaultResourceThresholdStrategy, DefaultResourceQOSStrategy,
// DefaultCPUBurstStrategy, DefaultSystemStrategy). Each cluster strategy of the ConfigMap is merged
// over these (see merge.hpp); a missing key leaves them as they are.
#pragma once

#include "koord/api/slo/node_slo.hpp"
#include "koord/api/slo/resource_qos.hpp"

namespace koord::manager::sloconfig {

// {enable: false, cpuSuppressThresholdPercent: 65, cpuSuppressPolicy: cpuset,
//  memoryEvictThresholdPercent: 70, cpuEvictPolicy: evictByRealLimit}; everything else unset.
[[nodiscard]] api::slo::ResourceThresholdStrategy defaultResourceThresholdStrategy();

// policies {groupIdentity, tc}; every class with every feature disabled, and the per-class
// cpuQOS / resctrlQOS / memoryQOS values of Koordinator's defaults; blkioQOS and networkQOS
// disabled. cgroupRoot is left unset.
[[nodiscard]] api::slo::ResourceQOSStrategy defaultResourceQOSStrategy();

// {policy: none, cpuBurstPercent: 1000, cfsQuotaBurstPercent: 300,
//  cfsQuotaBurstPeriodSeconds: -1, sharePoolThresholdPercent: 50}.
[[nodiscard]] api::slo::CPUBurstStrategy defaultCPUBurstStrategy();

// {totalNetworkBandwidth: "0"}; everything else unset.
[[nodiscard]] api::slo::SystemStrategy defaultSystemStrategy();

}  // namespace koord::manager::sloconfig
