// BE CPU eviction's arithmetic (koordlet cpuevict), pure: the BE real limit, the satisfaction,
// whether BE uses its limit, the window rule and how much to release. CPU is in milli-cores.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_config.hpp"

namespace koord::agent::qosmanager::strategies::cpu_evict {

struct RealLimit {
  double milli = 0;
  std::string source;  // "suppress cpuset", "suppress cfs quota", "BE pool"
};

// What BE may use now: CPU suppress's BE cpuset (size x 1000), else its BE cfs quota (us per
// 100 ms period / 100), else the BE pool (size x 1000); nullopt when none is known (or the quota
// is not positive and there is no pool).
[[nodiscard]] std::optional<RealLimit> beRealLimit(const framework::SharedDecisions& shared,
                                                   const framework::NodeCpus& cpus);

// realLimit / request; request must be > 0.
[[nodiscard]] double satisfaction(double real_limit_milli, double request_milli);

// koordlet's isAvgQueryResultValid: the window holds enough samples when
// count * interval >= window / 3 (whole seconds, integer division as koordlet); and at least one.
[[nodiscard]] bool windowValid(size_t count, std::chrono::seconds collect_interval,
                               std::chrono::seconds window);

// koordlet's isBECPUUsageHighEnough: false for a real limit <= 0; true for a real limit under one
// core (too small to measure a ratio against); otherwise usage / realLimit >= threshold%.
[[nodiscard]] bool usageHighEnough(double usage_milli, double real_limit_milli,
                                   int64_t threshold_percent);

// koordlet's calculateResourceMilliToReleaseBySatisfaction: 0 when nothing is requested or the
// satisfaction is above lower%; otherwise request * (upper% - satisfaction), truncated to whole
// milli-cores (0 when the gap is not positive).
[[nodiscard]] int64_t releaseMilliBySatisfaction(double request_milli, double real_limit_milli,
                                                 const SatisfactionThresholds& thresholds);

// The batch CPU requested in percent of the batch allocatable; 0 when nothing is requested,
// +infinity when something is requested against an allocatable of 0.
[[nodiscard]] double allocatablePercent(int64_t requested_milli, int64_t allocatable_milli);

// Milli-cores of request to release once requested / allocatable is above the threshold
// (strictly): requested - allocatable * lower% / 100; 0 otherwise. An allocatable of 0 with
// anything requested releases everything requested.
[[nodiscard]] int64_t allocatableReleaseMilli(int64_t requested_milli, int64_t allocatable_milli,
                                              const AllocatableThresholds& thresholds);

// "2 cores", "0.25 cores", "1.5 cores": milli-cores as cores, up to 3 decimals, trailing zeros
// dropped.
[[nodiscard]] std::string formatCores(double milli);

}  // namespace koord::agent::qosmanager::strategies::cpu_evict
