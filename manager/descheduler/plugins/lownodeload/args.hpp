// LowNodeLoad's args as the plugin runs them: the JSON decoded strictly by the shared decoder
// (config::detail::decodeLowNodeLoadArgs), checked with Koordinator's ValidateLowLoadUtilization
// rules, and the top-level thresholds turned into the first node pool, "__default_node_pool__",
// ahead of the written nodePools (Koordinator's v1alpha2 conversion).
//
// Errors are kInvalidArgument "LowNodeLoadArgs.<field>: <cause>" (one line per problem, joined by
// "; "); an unknown key is "LowNodeLoadArgs.<key>: unknown field". "apiVersion" and "kind" are
// accepted.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::lownodeload {

inline constexpr char kDefaultNodePoolName[] = "__default_node_pool__";

// One node pool with its own thresholds. anomaly_condition nullopt: a high node is a source at
// once (as ConsecutiveAbnormalities 1).
struct NodePool {
  std::string name;
  std::optional<api::core::LabelSelector> node_selector;  // nullopt: every node
  bool use_deviation_thresholds = false;
  config::ResourceThresholds low_thresholds;
  config::ResourceThresholds high_thresholds;
  config::ResourceThresholds prod_low_thresholds;
  config::ResourceThresholds prod_high_thresholds;
  std::map<std::string, int64_t> resource_weights;
  std::optional<config::LoadAnomalyCondition> anomaly_condition;
};

struct LowNodeLoadSettings {
  config::LowNodeLoadArgs args;  // as decoded (defaults applied)
  std::vector<NodePool> pools;   // the default pool first
};

[[nodiscard]] Result<LowNodeLoadSettings> decodeLowNodeLoadSettings(const nlohmann::json& args);

}  // namespace koord::manager::descheduler::lownodeload
