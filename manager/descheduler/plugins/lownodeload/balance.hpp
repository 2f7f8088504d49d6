// LowNodeLoad's eviction step for one node pool (Koordinator v1.6 evictPodsFromSourceNodes,
// balancePods, evictPods, podFitsAnyNodeWithThreshold).
//
// First the nodes above the high thresholds give pods to the low and both-low nodes, within the
// headroom those have below their high thresholds; then the nodes above the prod high thresholds
// give prod pods to the prod-low and both-low nodes, within their prod headroom (the both-low
// nodes' share capped by what the first step left). On each source node, in the given order, the
// removable pods (pod_filter, and with node_fit a target node that the pod fits and that stays
// within its high thresholds with the pod's usage added) are sorted and evicted one by one while
// continue_eviction allows; each eviction takes the pod's usage (and one pod) off the node and
// off the headroom.
//
// Reproduced Koordinator behaviour: the node-fit check adds every checked pod's usage to the
// target nodes' usage, evicted or not, so later pods see fuller targets; a pod without a
// podsMetric entry counts as using nothing there (Koordinator would crash) and frees nothing
// when evicted.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/lownodeload/sorter.hpp"
#include "manager/descheduler/plugins/lownodeload/utilization.hpp"

namespace koord::manager::descheduler::lownodeload {

struct PoolEviction {
  std::string pool_name;
  std::vector<NodeInfo>* nodes = nullptr;
  const PoolThresholds* thresholds = nullptr;
  const ResourceWeights* weights = nullptr;
  bool dry_run = false;
  bool node_fit = true;
  framework::Handle* handle = nullptr;
  std::function<bool(const api::core::Pod&)> pod_filter;
  // Whether to go on evicting from `node` (prod: against its prod thresholds).
  std::function<bool(NodeInfo& node, const Usage& available, bool prod)> continue_eviction;
};

// Indexes into *pass.nodes; sources already sorted.
struct PoolNodes {
  std::vector<size_t> sources;
  std::vector<size_t> low;
  std::vector<size_t> prod_sources;
  std::vector<size_t> prod_low;
  std::vector<size_t> both_low;
};

void evictPodsFromSourceNodes(PoolEviction& pass, const PoolNodes& nodes);

}  // namespace koord::manager::descheduler::lownodeload
