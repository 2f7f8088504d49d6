// LowNodeUtilization (descheduler v0.36, Balance): moves pods off nodes above targetThresholds so
// that they can land on nodes below thresholds. Usage is what the pods request (node_usage.hpp).
//
// Contract: nodes below every threshold (and schedulable) are underutilized, nodes above some
// target threshold are overutilized (with useDeviationThresholds both bounds are the average
// usage of the threshold resources minus / plus the given values). Nothing is evicted when no
// node is underutilized, when no more than numberOfNodes are, when all nodes are, or when none
// is overutilized. Overutilized nodes are visited by usage, highest first; eviction from a node
// goes on while it is above its capped capacity on some resource and every resource still has
// room on the underutilized nodes (eviction.hpp). evictionLimits.node caps evictions per node.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/utilization/utilization_args.hpp"

namespace koord::manager::descheduler::utilization {

inline constexpr std::string_view kLowNodeUtilizationName = "LowNodeUtilization";

class LowNodeUtilization final : public framework::BalancePlugin {
 public:
  LowNodeUtilization(LowNodeUtilizationArgs args, framework::Handle& handle);

  [[nodiscard]] std::string_view name() const override { return kLowNodeUtilizationName; }
  Status balance(const framework::NodeList& nodes) override;

 private:
  LowNodeUtilizationArgs args_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createLowNodeUtilization(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::utilization
