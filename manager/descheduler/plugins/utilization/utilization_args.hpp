// Args of LowNodeUtilization and HighNodeUtilization (descheduler v0.36 nodeutilization types),
// decoded strictly from a pluginConfig entry's args and checked with the community's
// ValidateLowNodeUtilizationArgs / ValidateHighNodeUtilizationArgs rules.
//
// Errors are kInvalidArgument "<Plugin>Args.<field>: <cause>": an unknown key is "unknown field";
// a wrong type names the expected one; a validation failure carries the community's message
// (e.g. "LowNodeUtilizationArgs.thresholds: thresholds config is not valid: cpu threshold not in
// [0, 100] range"). "apiVersion" and "kind" are accepted and ignored. koord computes usage from
// requests only: metricsUtilization is accepted only when absent or disabled (no metricsServer,
// no source, no prometheus); otherwise it is refused as not supported by koord.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::manager::descheduler::utilization {

// Resource name -> percentage of the node's allocatable (api.ResourceThresholds).
using ResourceThresholds = std::map<std::string, double>;

inline constexpr double kMinResourcePercentage = 0;
inline constexpr double kMaxResourcePercentage = 100;
inline constexpr char kEvictionModeOnlyThresholdingResources[] = "OnlyThresholdingResources";

struct LowNodeUtilizationArgs {
  bool use_deviation_thresholds = false;
  ResourceThresholds thresholds;
  ResourceThresholds target_thresholds;
  int64_t number_of_nodes = 0;
  std::vector<std::string> include_namespaces;  // refused by validation when set
  std::vector<std::string> exclude_namespaces;
  std::optional<uint64_t> node_eviction_limit;  // evictionLimits.node
};

struct HighNodeUtilizationArgs {
  ResourceThresholds thresholds;
  int64_t number_of_nodes = 0;
  std::vector<std::string> eviction_modes;
  std::vector<std::string> include_namespaces;  // refused by validation when set
  std::vector<std::string> exclude_namespaces;
};

// Decodes and validates; null args decode to the defaults (and then fail validation, as the
// community's do, since thresholds are required).
[[nodiscard]] Result<LowNodeUtilizationArgs> decodeLowNodeUtilizationArgs(
    const nlohmann::json& args);
[[nodiscard]] Result<HighNodeUtilizationArgs> decodeHighNodeUtilizationArgs(
    const nlohmann::json& args);

}  // namespace koord::manager::descheduler::utilization
