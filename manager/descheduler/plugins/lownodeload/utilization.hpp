// LowNodeLoad's view of a node pool (Koordinator v1.6 loadaware/utilization_util.go): each node's
// usage from its NodeMetric, its thresholds, and the classification into low, high, prod-low,
// prod-high and both-low nodes.
//
// Usage = status.nodeMetric.systemUsage + the sum of status.podsMetric, per resource named in the
// thresholds; prod usage = the sum over the podsMetric of the node's prod pods (Koordinator
// priority class, defaulted from QoS). "pods" is the number of non-terminal pods on the node.
// Quantities are kept in thousandths ("milli"), so cpu millicores and memory bytes compare
// exactly. A node without a NodeMetric, without status.nodeMetric, or whose updateTime is
// missing or at least nodeMetricExpirationSeconds old is left out.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/well_known.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/framework/snapshot.hpp"
#include "manager/descheduler/plugins/lownodeload/args.hpp"

namespace koord::manager::descheduler::lownodeload {

using Usage = std::map<std::string, int64_t, std::less<>>;  // resource -> thousandths
// "<namespace>/<name>" -> the pod's usage in the NodeMetric.
using PodMetrics = std::map<std::string, resource::ResourceList, std::less<>>;

struct NodeThresholds {
  Usage low;
  Usage high;
  Usage prod_low;
  Usage prod_high;
};

struct NodeInfo {
  framework::NodePtr node;
  std::vector<framework::PodPtr> all_pods;
  std::vector<framework::PodPtr> prod_pods;
  Usage usage;
  Usage prod_usage;
  PodMetrics pod_metrics;
  NodeThresholds thresholds;
};

// A pool's thresholds with every resource named anywhere (and memory) filled in, as Koordinator's
// newThresholds: a resource missing from the low thresholds gets 100% (0 with deviation
// thresholds) as its low and high; likewise for the prod pair.
struct PoolThresholds {
  config::ResourceThresholds low;
  config::ResourceThresholds high;
  config::ResourceThresholds prod_low;
  config::ResourceThresholds prod_high;
  std::vector<std::string> resource_names;  // the keys of `low`, sorted
};
[[nodiscard]] PoolThresholds poolThresholds(const NodePool& pool);

[[nodiscard]] std::string podKey(const api::core::Pod& pod);
// Koordinator's GetPodPriorityClassWithDefault: the priority-class label when present, else the
// band of spec.priority, else derived from the QoS class (SYSTEM, LSE, LSR, LS: prod; BE: batch).
[[nodiscard]] api::PriorityClass priorityClassWithDefault(const api::core::Pod& pod);
[[nodiscard]] bool isProdPod(const api::core::Pod& pod);

// Thousandths of `q` (rounded up, as Go's MilliValue).
[[nodiscard]] int64_t milliOf(const resource::Quantity& q);
// What Koordinator's scorers read for a resource: millicores for cpu, whole units otherwise.
[[nodiscard]] int64_t scoreValue(std::string_view resource, int64_t milli);

// The usage of each node of `nodes` that has a live NodeMetric, in `nodes` order.
[[nodiscard]] std::vector<NodeInfo> nodeUsages(const framework::NodeList& nodes,
                                               const std::vector<std::string>& resource_names,
                                               const framework::ClusterSnapshot& snapshot,
                                               int64_t expiration_seconds,
                                               std::chrono::system_clock::time_point now);

// Fills each node's thresholds (absolute, or around the pool's average with deviation).
void setNodeThresholds(std::vector<NodeInfo>& nodes, const PoolThresholds& thresholds,
                       bool use_deviation_thresholds);

// Indexes into the nodes vector.
struct Classification {
  std::vector<size_t> low;
  std::vector<size_t> high;
  std::vector<size_t> prod_low;
  std::vector<size_t> prod_high;
  std::vector<size_t> both_low;
};
[[nodiscard]] Classification classifyNodes(const std::vector<NodeInfo>& nodes);

// The resources of `usage` above `thresholds` (empty: not overutilized).
[[nodiscard]] std::vector<std::string> overutilizedResources(const Usage& usage,
                                                             const Usage& thresholds);
// Every resource of `thresholds` at or below it.
[[nodiscard]] bool isUnderutilized(const Usage& usage, const Usage& thresholds);

// Koordinator's reason: "node is overutilized, node cpu usage(80.00%)>threshold(50.00%)" (prod:
// "prod cpu ..."), over the pool's high-threshold resources in name order.
[[nodiscard]] std::string overutilizedReason(const NodeInfo& node, bool prod,
                                             const PoolThresholds& thresholds);

}  // namespace koord::manager::descheduler::lownodeload
