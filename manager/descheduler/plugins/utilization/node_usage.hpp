// Request-based node utilization, as the community's nodeutilization package computes it with
// its requestedUsageClient: a node's usage is the sum of its non-terminal pods' requests (the
// "pods" resource counts the pods), its capacity is status.allocatable (status.capacity when
// allocatable is empty), and percentages are usage over capacity (cpu in millicores, everything
// else in whole units). Also the threshold arithmetic: static and deviation thresholds, capping a
// node's capacity at a threshold, and the under/over comparisons.
//
// Pure functions of their arguments; thread-safe.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/log/logger.hpp"
#include "koord/resource/quantity.hpp"
#include "manager/descheduler/framework/snapshot.hpp"
#include "manager/descheduler/plugins/utilization/utilization_args.hpp"

namespace koord::manager::descheduler::utilization {

// Absolute amounts by resource name (the community's ReferencedResourceList).
using Usage = std::map<std::string, resource::Quantity>;
// Percentages by resource name.
using Percentages = ResourceThresholds;

inline constexpr char kResourceCpu[] = "cpu";
inline constexpr char kResourceMemory[] = "memory";
inline constexpr char kResourcePods[] = "pods";
// The pseudo resource a metric-based usage would report; every node has a capacity of 100 of it.
inline constexpr char kMetricResource[] = "MetricResource";

// One node of the pass: its non-terminal pods (snapshot order) and their summed requests.
struct NodeUsage {
  framework::NodePtr node;
  Usage usage;
  std::vector<framework::PodPtr> pods;
};

// The threshold names plus cpu, memory and pods, without duplicates (sorted).
[[nodiscard]] std::vector<std::string> withBasicResources(const ResourceThresholds& thresholds);

// The pod's requests for each of `names` (zero when it requests none).
[[nodiscard]] Usage podUsage(const api::core::Pod& pod, const std::vector<std::string>& names);

// The node's usage over `names`: requests of its pods that are not Succeeded or Failed; "pods"
// is the number of those pods.
[[nodiscard]] NodeUsage nodeUsage(const framework::ClusterSnapshot& snapshot,
                                  const framework::NodePtr& node,
                                  const std::vector<std::string>& names);

// Allocatable (capacity when allocatable is empty) plus MetricResource = 100.
[[nodiscard]] Usage nodeCapacity(const api::core::Node& node);

// usage / capacity * 100 for each resource of `usage` the capacity names (0 for a zero capacity).
[[nodiscard]] Percentages usagePercentages(const Usage& usage, const Usage& capacity);

// Only the `names` entries of `usage`.
[[nodiscard]] Usage onlyResources(const Usage& usage, const std::vector<std::string>& names);

// useDeviationThresholds: the average percentage over `usages` per resource, minus `low` and
// plus `high`, each clamped to [0, 100]. Returns {low, high}.
[[nodiscard]] std::pair<Percentages, Percentages> deviationThresholds(
    const std::vector<Percentages>& usages, const ResourceThresholds& low,
    const ResourceThresholds& high);

// The node's capacity of each of `names`, capped at `threshold` percent where the threshold
// names it (full capacity where it does not; zero where the node has none).
[[nodiscard]] Usage capCapacities(const api::core::Node& node, const ResourceThresholds& threshold,
                                  const std::vector<std::string>& names);

// All resources of `threshold` are at or below it (missing usage counts as 0).
[[nodiscard]] bool isBelowThreshold(const Percentages& usage, const ResourceThresholds& threshold);
// Some resource of `threshold` is above it.
[[nodiscard]] bool isAboveThreshold(const Percentages& usage, const ResourceThresholds& threshold);
// Some resource's usage exceeds what is `available` for it.
[[nodiscard]] bool isAboveTargetUtilization(const Usage& usage, const Usage& available);

// The key nodes are sorted by: millicores of cpu plus the whole-unit value of every other
// resource in `usage`.
[[nodiscard]] int64_t usageSortKey(const Usage& usage);

// The community's early exits on the underutilized nodes, shared by Low- and HighNodeUtilization:
// false (with a debug line saying why) when there is none, when there are at most
// `number_of_nodes`, or when every node is underutilized.
[[nodiscard]] bool worthBalancing(size_t underutilized, size_t nodes, int64_t number_of_nodes,
                                  const log::Logger& logger);

}  // namespace koord::manager::descheduler::utilization
