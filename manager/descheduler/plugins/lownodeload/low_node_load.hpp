// LowNodeLoad (Koordinator v1.6 pkg/descheduler/framework/plugins/loadaware): a Balance plugin
// that moves pods off nodes whose actual usage (NodeMetric) is above the high thresholds onto
// nodes below the low thresholds, per node pool.
//
// Each pass, per pool (the top-level args first, then nodePools; a node already a source in an
// earlier pool is not taken again by a pool with a nodeSelector): nodes are classified (see
// utilization.hpp); nothing happens unless some node is high or prod-high, some of those have
// been abnormal long enough (the anomaly detectors, kept in this object across passes, keyed by
// node), some node is low, prod-low or both-low, more of those than numberOfNodes, and not every
// node of the pool is one. Then the abnormal sources, by usage score, give pods (see
// balance.hpp) until they are no longer above their high thresholds or the targets' headroom of
// some resource is gone; the reason handed to evict() is Koordinator's ("node is overutilized,
// node cpu usage(80.00%)>threshold(50.00%)"). Candidate pods pass the evictable namespaces, the
// evictor's filter() and the podSelectors (any may match). dryRun: the pods are only logged.
// paused: nothing is done.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/lownodeload/anomaly_detector.hpp"
#include "manager/descheduler/plugins/lownodeload/args.hpp"

namespace koord::manager::descheduler::lownodeload {

inline constexpr std::string_view kLowNodeLoadName = "LowNodeLoad";

class LowNodeLoad : public framework::BalancePlugin {
 public:
  LowNodeLoad(LowNodeLoadSettings settings, framework::Handle& handle);

  [[nodiscard]] std::string_view name() const override { return kLowNodeLoadName; }
  Status balance(const framework::NodeList& nodes) override;

 private:
  void processPool(const NodePool& pool, const framework::NodeList& nodes,
                   std::set<std::string>& processed);
  [[nodiscard]] bool podFilter(const api::core::Pod& pod) const;

  LowNodeLoadSettings settings_;
  framework::Handle& handle_;
  DetectorCache node_detectors_;
  DetectorCache prod_detectors_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createLowNodeLoad(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::lownodeload
