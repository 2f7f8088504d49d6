// SloControllerConfig: the slo-controller-config ConfigMap (namespace koordinator-system) of
// koord-manager's slo-controller, parsed from the ConfigMap's `data` (key -> JSON text).
//
// Keys read: colocation-config, resource-threshold-config, resource-qos-config, cpu-burst-config,
// system-config, host-application-config, cpu-normalization-config and
// resource-amplification-config. A missing key (or an empty value) means Koordinator's
// defaults for it; other keys of the ConfigMap are not read. Each value must be one JSON value
// and is read strictly: an unknown field is an error with a did-you-mean, a wrong type or an
// invalid value an error, each prefixed with its key:
//   resource-threshold-config: line 3: clusterStrategy: unknown field "enabel" (did you mean
//   "enable"?)
// Every error of every key is reported at once, joined by "; ", in the order of the keys above.
#pragma once

#include <map>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"
#include "manager/sloconfig/colocation.hpp"
#include "manager/sloconfig/defaults.hpp"
#include "manager/sloconfig/resource_configs.hpp"
#include "manager/sloconfig/strategies.hpp"

namespace koord::manager::sloconfig {

inline constexpr std::string_view kSloControllerConfigName = "slo-controller-config";
inline constexpr std::string_view kSloControllerConfigNamespace = "koordinator-system";
inline constexpr std::string_view kColocationConfigKey = "colocation-config";
inline constexpr std::string_view kResourceThresholdConfigKey = "resource-threshold-config";
inline constexpr std::string_view kResourceQOSConfigKey = "resource-qos-config";
inline constexpr std::string_view kCPUBurstConfigKey = "cpu-burst-config";
inline constexpr std::string_view kSystemConfigKey = "system-config";
inline constexpr std::string_view kHostApplicationConfigKey = "host-application-config";
inline constexpr std::string_view kCPUNormalizationConfigKey = "cpu-normalization-config";
inline constexpr std::string_view kResourceAmplificationConfigKey = "resource-amplification-config";

struct SloControllerConfig {
  ColocationConfig colocation;
  ResourceThresholdConfig resourceThreshold{defaultResourceThresholdStrategy(), {}};
  ResourceQOSConfig resourceQOS{defaultResourceQOSStrategy(), {}};
  CPUBurstConfig cpuBurst{defaultCPUBurstStrategy(), {}};
  SystemConfig system{defaultSystemStrategy(), {}};
  HostApplicationConfig hostApplication;
  // Not part of the NodeSLO: node resources (CPU normalization ratio, resource amplification).
  CPUNormalizationConfig cpuNormalization;
  ResourceAmplificationConfig resourceAmplification;

  bool operator==(const SloControllerConfig&) const = default;
};

// Parses the ConfigMap data as the top of this file says. kInvalidArgument
// "invalid slo-controller-config: <error>; <error>; ..." when any key has an error.
[[nodiscard]] Result<SloControllerConfig> parseSloControllerConfig(
    const std::map<std::string, std::string>& data);

// The NodeSLO spec the slo-controller writes for `node`: resourceUsedThresholdWithBE,
// resourceQOSStrategy, cpuBurstStrategy and systemStrategy are each key's strategy for the node's
// labels; hostApplications host-application-config's for the node. extensions stays null (koord
// has no third-party NodeSLO extensions).
[[nodiscard]] api::slo::NodeSLOSpec nodeSLOSpecFor(const SloControllerConfig& config,
                                                   const api::core::Node& node);

// The NodeMetric spec for `node`: metricCollectPolicy from the node's colocation strategy
// (ColocationConfig::forNode): aggregateDurationSeconds <- metricAggregateDurationSeconds,
// reportIntervalSeconds <- metricReportIntervalSeconds, nodeAggregatePolicy <-
// metricAggregatePolicy, nodeMemoryCollectPolicy <- metricMemoryCollectPolicy.
[[nodiscard]] api::slo::NodeMetricSpec nodeMetricSpecFor(const SloControllerConfig& config,
                                                         const api::core::Node& node);

// The last good configuration: starts at the defaults; apply() replaces it only when the new data
// parses, and otherwise keeps it and returns (and remembers) why. Not thread-safe.
class SloConfigHolder {
 public:
  // OK and the new config in place, or the parse error with the previous config kept.
  Status apply(const std::map<std::string, std::string>& data);

  [[nodiscard]] const SloControllerConfig& current() const { return current_; }
  // The error of the latest apply(), OK when it succeeded (or none was made).
  [[nodiscard]] const Status& lastError() const { return last_error_; }

 private:
  SloControllerConfig current_;
  Status last_error_;
};

}  // namespace koord::manager::sloconfig
