// The CPU burst strategy's arithmetic (koordlet's cpuburst plugin): cpu.cfs_burst_us, the CFS
// quota's base and ceiling, the share pool's state and the per-container scaling decision. Pure
// functions; thread-safe. Quotas and bursts are microseconds per 100 ms CFS period.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace koord::agent::qosmanager::strategies::cpu_burst {

inline constexpr int64_t kCfsPeriodUs = 100000;
// Share-pool usage at or above threshold × this is "cooling".
inline constexpr double kCoolingThresholdRatio = 0.9;

// cpu.cfs_burst_us = limit cores × cpuBurstPercent/100 × 100000 = limit_milli × percent; 0
// without a limit (limit_milli <= 0) or with percent <= 0.
[[nodiscard]] int64_t burstUs(int64_t limit_milli, int64_t cpu_burst_percent);

// The kernel refuses cpu.cfs_burst_us above cpu.cfs_quota_us (EINVAL), and a quota below the
// burst already set: the burst is capped at the quota (an unlimited quota, <= 0, caps nothing).
[[nodiscard]] int64_t cappedBurstUs(int64_t burst_us, int64_t quota_us);

// The container's quota as the kubelet sets it: limit_milli × 100000 / 1000; 0 without a limit.
[[nodiscard]] int64_t baseQuotaUs(int64_t limit_milli);

// The highest quota burst may give: base × cfsQuotaBurstPercent/100 when the percent is above
// 100, else base.
[[nodiscard]] int64_t ceilQuotaUs(int64_t base_us, int64_t cfs_quota_burst_percent);

enum class SharePoolState { kIdle = 0, kCooling = 1, kOverload = 2, kUnknown = 3 };
[[nodiscard]] std::string_view toString(SharePoolState state);  // "idle", "cooling", ...

// The share pool's usage: node CPU used minus what LSE, LSR and BE pods use, over the node's
// cores minus the LSE and LSR pods' requests. A pool of no cores reads 1.0 (full, as koordlet).
[[nodiscard]] double sharePoolUsageRatio(double node_used_cores, double excluded_used_cores,
                                         double node_cores, double excluded_request_cores);

// ratio >= threshold: overload; >= 0.9 × threshold: cooling; else idle. nullopt (no node usage
// sample): unknown.
[[nodiscard]] SharePoolState sharePoolState(std::optional<double> usage_ratio,
                                            int64_t threshold_percent);

enum class ScaleAction { kUp, kDown, kRemain, kReset };
[[nodiscard]] std::string_view toString(ScaleAction action);  // "up", "down", "remain", "reset"

// What one container wants from its own signals: its burst budget spent (limiter not allowing):
// down; throttled in the last interval: up; else remain.
[[nodiscard]] ScaleAction containerAction(bool throttled, bool allowed_by_limiter);

// The node's say: overload turns up and remain into down; cooling and unknown turn up into
// remain; idle changes nothing. kReset is never changed.
[[nodiscard]] ScaleAction adjustForNode(ScaleAction action, SharePoolState state);

// The next quota: up ×1.2, down ×0.8 (integer, rounded down), remain unchanged, reset base;
// always clamped to [base, ceil].
[[nodiscard]] int64_t nextQuotaUs(int64_t current_us, ScaleAction action, int64_t base_us,
                                  int64_t ceil_us);

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
