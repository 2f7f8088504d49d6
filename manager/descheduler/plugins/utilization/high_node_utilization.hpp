// HighNodeUtilization (descheduler v0.36, Balance): empties underutilized nodes so that their
// pods are packed onto the others (usually with a scheduler that scores MostAllocated). Usage is
// what the pods request (node_usage.hpp).
//
// Contract: nodes at or below every threshold are underutilized; every other schedulable node
// may receive pods, up to its full allocatable of the threshold resources. Nothing is evicted when
// no node is underutilized, when no more than numberOfNodes are, when all nodes are, or when no
// node can receive pods. Underutilized nodes are visited by usage, lowest first; eviction goes on
// while every resource still has room on the receiving nodes (eviction.hpp). With evictionModes
// [OnlyThresholdingResources] only pods requesting some threshold resource are candidates.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/utilization/utilization_args.hpp"

namespace koord::manager::descheduler::utilization {

inline constexpr std::string_view kHighNodeUtilizationName = "HighNodeUtilization";

class HighNodeUtilization final : public framework::BalancePlugin {
 public:
  HighNodeUtilization(HighNodeUtilizationArgs args, framework::Handle& handle);

  [[nodiscard]] std::string_view name() const override { return kHighNodeUtilizationName; }
  Status balance(const framework::NodeList& nodes) override;

 private:
  HighNodeUtilizationArgs args_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createHighNodeUtilization(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::utilization
