// LowNodeLoad's orderings (Koordinator v1.6 pkg/descheduler/utils/sorter and sortNodesByUsage).
//
// Nodes: by a weighted usage score, highest first: per resource of the usage,
// min(used, allocatable) * 1000 / allocatable (integers; millicores for cpu, whole units
// otherwise), weighted and averaged (integer division); 0 when the weights sum to 0.
//
// Pods on one overloaded node, first evicted first: Koordinator priority class (free, batch, mid,
// prod, none), spec.priority (lower first), Kubernetes QoS (BestEffort, Burstable, Guaranteed),
// Koordinator QoS (BE, LS, LSR, LSE/SYSTEM, none), pod-deletion-cost and eviction-cost
// annotations (lower first), then the pod's usage score from its podsMetric entry (higher
// first; pods without one last), then creation time (newest first). The usage score weighs only
// the resources over the high threshold, each by ratio = usage / excess: ratio below 1 scores
// ratio, otherwise 1 + 1/ratio (the "improved" scorer: the pod nearest the excess wins).
// Stable: pods equal in every key keep their order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "manager/descheduler/plugins/lownodeload/utilization.hpp"

namespace koord::manager::descheduler::lownodeload {

using ResourceWeights = std::map<std::string, int64_t>;

[[nodiscard]] int64_t nodeUsageScore(const Usage& usage, const resource::ResourceList& allocatable,
                                     const ResourceWeights& weights);

// Sorts node indexes by their usage (prod: prod usage), highest score first.
void sortNodesByUsage(std::vector<size_t>& indexes, const std::vector<NodeInfo>& nodes,
                      const ResourceWeights& weights, bool prod);

[[nodiscard]] double podUsageScore(const resource::ResourceList& pod_usage, const Usage& excess,
                                   const ResourceWeights& weights);

// Sorts the removable pods of `node` for eviction; `prod` compares against its prod thresholds.
void sortPodsOnOverloadedNode(const NodeInfo& node, std::vector<framework::PodPtr>& pods,
                              const ResourceWeights& pool_weights, bool prod);

}  // namespace koord::manager::descheduler::lownodeload
