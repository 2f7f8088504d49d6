// The CPU burst strategy's configuration: the NodeSLO's spec.cpuBurstStrategy merged over
// koordlet's defaults (DefaultCPUBurstStrategy), and a pod's koordinator.sh/cpuBurst annotation
// merged over that. Pure functions; thread-safe.
//
// Defaults: policy none, cpuBurstPercent 1000, cfsQuotaBurstPercent 300,
// cfsQuotaBurstPeriodSeconds -1 (no limiter), sharePoolThresholdPercent 50.
//
// Valid values: cpuBurstPercent > 0; cfsQuotaBurstPercent > 0 (100 or less: the quota is never
// raised above its base); sharePoolThresholdPercent in (0, 100]; cfsQuotaBurstPeriodSeconds
// any (negative: unlimited, 0: no burst budget at all). An unknown policy never gets here: the
// NodeSLO decoder refuses it ("spec.cpuBurstStrategy.policy: unsupported value ...") and the
// agent then has no NodeSLO.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::qosmanager::strategies::cpu_burst {

inline constexpr int64_t kDefaultCpuBurstPercent = 1000;
inline constexpr int64_t kDefaultCfsQuotaBurstPercent = 300;
inline constexpr int64_t kDefaultCfsQuotaBurstPeriodSeconds = -1;
inline constexpr int64_t kDefaultSharePoolThresholdPercent = 50;

struct BurstConfig {
  api::slo::CPUBurstPolicy policy = api::slo::CPUBurstPolicy::kNone;
  int64_t cpu_burst_percent = kDefaultCpuBurstPercent;
  int64_t cfs_quota_burst_percent = kDefaultCfsQuotaBurstPercent;
  int64_t cfs_quota_burst_period_seconds = kDefaultCfsQuotaBurstPeriodSeconds;
  int64_t share_pool_threshold_percent = kDefaultSharePoolThresholdPercent;

  friend bool operator==(const BurstConfig&, const BurstConfig&) = default;
};

// cpuBurstOnly and auto set cpu.cfs_burst_us.
[[nodiscard]] bool cpuBurstEnabled(api::slo::CPUBurstPolicy policy);
// cfsQuotaBurstOnly and auto scale cpu.cfs_quota_us.
[[nodiscard]] bool cfsQuotaBurstEnabled(api::slo::CPUBurstPolicy policy);

// `strategy`'s fields over `base`: only the fields it sets replace base's.
[[nodiscard]] BurstConfig mergeConfig(const BurstConfig& base,
                                      const api::slo::CPUBurstStrategy& strategy);

// kInvalidArgument "<path>.<field>: <rule>, got <value>" for the first field out of range.
[[nodiscard]] Status validateConfig(const BurstConfig& config, const std::string& path);

// The node's configuration: spec.cpuBurstStrategy over the defaults, validated: validateConfig's
// error. A NodeSLO without the section (koord-manager always writes it) gets the defaults, policy
// none.
[[nodiscard]] Result<BurstConfig> nodeConfig(const api::slo::NodeSLO& node_slo);

// A pod's configuration: the koordinator.sh/cpuBurst annotation ({"policy": "auto",
// "cpuBurstPercent": 500, ...}) over the node's. Without the annotation: `node`. A malformed
// annotation (not JSON, an unknown policy, a value of the wrong type or out of range) is not
// used: `node` is returned with `error` set, which the caller logs.
struct PodConfig {
  BurstConfig config;
  bool from_annotation = false;
  std::optional<std::string> error;
};
[[nodiscard]] PodConfig podConfig(const BurstConfig& node,
                                  const std::map<std::string, std::string>& annotations);

// {"policy", "cpuBurstPercent", "cfsQuotaBurstPercent", "cfsQuotaBurstPeriodSeconds",
// "sharePoolThresholdPercent"}, as the NodeSLO spells them.
[[nodiscard]] api::Json toJson(const BurstConfig& config);

}  // namespace koord::agent::qosmanager::strategies::cpu_burst
