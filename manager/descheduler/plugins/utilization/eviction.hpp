// The eviction loop both utilization plugins share (the community's evictPodsFromSourceNodes and
// evictPods), and the orders it relies on.
//
// Contract: for each source node in the given order, the pods the candidate filter accepts
// (evictor.filter() and any plugin filter) are sorted by priority, lowest first (no priority
// before any priority; equal priorities by QoS, BestEffort first), as Go's sort.Slice orders
// them. The loop then walks them while `keep_going(node, total_available)` holds: a pod that
// tolerates no destination node's taints, whose namespace is excluded, or that
// evictor.preEvictionFilter() refuses is skipped; an accepted pod is handed to evictor.evict()
// and its requests are taken off the node's usage and off the total still available on the
// destination nodes (one pod off "pods"). A node stops after `node_limit` evictions, or when
// evict() fails and evictor.nodeLimitExceeded() holds for it. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "koord/log/logger.hpp"
#include "manager/descheduler/framework/evictor.hpp"
#include "manager/descheduler/plugins/utilization/node_usage.hpp"

namespace koord::manager::descheduler::utilization {

// A classified node: its usage (updated as pods leave) and what it may hold (its capacity capped
// at the plugin's upper threshold).
struct NodeInfo {
  NodeUsage usage;
  Usage available;
};

using ContinueEviction = std::function<bool(const NodeInfo& node, const Usage& total_available)>;
using PodFilter = std::function<bool(const api::core::Pod& pod)>;

struct EvictionRequest {
  framework::Evictor* evictor = nullptr;
  std::string plugin;  // EvictOptions.plugin; the community gives no reason text
  PodFilter candidate_filter;
  std::set<std::string> excluded_namespaces;
  std::vector<std::string> resource_names;
  ContinueEviction keep_going;
  std::optional<uint64_t> node_limit;
};

// Evicts from `sources` (in order) towards `destinations`.
void evictPodsFromSourceNodes(std::vector<NodeInfo>& sources,
                              const std::vector<NodeInfo>& destinations,
                              const EvictionRequest& request, const log::Logger& logger);

// The community's SortPodsBasedOnPriorityLowToHigh.
void sortPodsByPriorityLowToHigh(std::vector<framework::PodPtr>& pods);

// By usageSortKey, ascending (HighNodeUtilization) or descending (LowNodeUtilization), in Go's
// sort.Slice order.
void sortNodesByUsage(std::vector<NodeInfo>& nodes, bool ascending);

// The pod (or one of its init containers) requests some of `names`; the key's presence counts,
// even with a zero quantity.
[[nodiscard]] bool requestsAnyOf(const api::core::Pod& pod, const std::vector<std::string>& names);

}  // namespace koord::manager::descheduler::utilization
