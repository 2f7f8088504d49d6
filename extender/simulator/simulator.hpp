// The simulator's scheduling loop: places the pending pods of a ClusterInput one at a time, the way
// kube-scheduler with koord-extender would, through the extender framework's Runtime (filter,
// score, bind with a recording Binder) over a ClusterState that grows with every placement.
//
// Order: priority (spec.priority, unset = 0) descending, then metadata.creationTimestamp ascending
// (a pod without one counts as the oldest), then namespace/name.
// Reservations: those Available on a node in the input hold their capacity from the start; pending
// ones are placed (koord-extender's reservation loop: reservation/placement.hpp) oldest first, each
// before every pending pod except the pods created before it (both creationTimestamps set), as
// Koordinator's reserve pods (priority MaxInt32) go first. A placed one then takes what the plugins
// take for it there (reservation/allocation.hpp: an LSE/LSR template's cpuset), held for its
// owners; when they refuse, it stays Pending with their reason.
// Nodes looked at per pod: kube-scheduler's numFeasibleNodesToFind (adaptive
// percentageOfNodesToScore) starting where the previous pod stopped; every node when none fits.
// Among the feasible nodes the highest score wins (plugins/kube/prioritize.hpp: kube-scheduler's
// default score plugins plus koord-extender's score times `extender_weight` times 10); ties go to
// the first in that rotation.
//
// NodeMetrics: LoadAwareScheduling judges their age, and dates the pods it estimates, against the
// newest updateTime among the input's NodeMetrics (the moment the input was captured), not the
// system clock, so that a captured cluster reads the same whenever it is simulated.
//
// Thread safety: simulate() is a pure function of its arguments (it may use worker threads).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extender/framework/plugin_status.hpp"
#include "extender/framework/resource.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/kube/prioritize.hpp"
#include "extender/plugins/node_numa_resource/cpu_summary.hpp"
#include "extender/simulator/cluster_loader.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::simulator {

struct SimulationOptions {
  // Empty: plugins::simulatorDefaultConfigs().
  std::vector<framework::PluginConfig> plugins;
  int parallelism = 0;  // as RuntimeOptions::parallelism
  // The weight kube-scheduler's configuration gives koord-extender's prioritize (>= 0).
  int64_t extender_weight = plugins::kube::kShippedExtenderWeight;
};

// Why one node did not take a pod.
struct NodeRejection {
  std::string plugin;
  std::vector<std::string> reasons;
};

struct PodPlacement {
  std::string key;     // namespace/name
  std::string source;  // file:line
  int32_t priority = 0;
  std::string node;     // empty when not placed
  std::string message;  // when not placed: kube-scheduler's summary, or the error
  std::map<std::string, NodeRejection> rejections;  // when not placed: node -> why
  std::map<std::string, std::string> annotations;   // what bind patched onto the pod
  std::map<std::string, std::string> labels;
  // From the scheduling.koordinator.sh/resource-status bind wrote (NodeNUMAResource): the pod's
  // cpuset ("" when it got none) and what it takes on each NUMA node (empty without a NUMA policy).
  std::string cpuset;
  std::vector<api::extension::NUMANodeResource> numa_resources;
};

// A node's load as LoadAwareScheduling sees it after placement (its NodeMetric's usage plus the
// estimates of the pods the metric does not show yet: the bound pods placed after its updateTime
// and every pod this run placed), per resource it accounts ("cpu" in milli-CPU, "memory" in bytes).
struct NodeLoadUsage {
  std::vector<std::string> resources;
  std::vector<int64_t> reported;
  std::vector<int64_t> estimated;
  std::vector<int64_t> allocatable;
  bool expired = false;  // older than nodeMetricExpirationSeconds before the newest NodeMetric
  std::string update_time;
};

struct NodeUsage {
  std::string name;
  framework::Resource allocatable;
  framework::Resource requested;  // bound + placed pods
  framework::Resource reserved;   // by node.koordinator.sh/reservation (zero when none/invalid)
  std::string reservation_error;  // why the annotation was ignored, when it was
  int64_t pod_count = 0;
  // How the node's CPUs are divided at the end (cpu_summary.hpp): only when NodeNUMAResource is
  // enabled and the input has a NodeResourceTopology for the node; `invalid` set when that topology
  // cannot be used (the reason cpuset pods read).
  std::optional<plugins::node_numa_resource::CPUSummary> cpus;
  // Only when LoadAwareScheduling is enabled and the node has a NodeMetric with a nodeMetric.
  std::optional<NodeLoadUsage> load;
};

// One Reservation of the input and what the run did with it.
struct ReservationPlacement {
  std::string name;
  std::string source;  // file:line
  // "Available" (given so in the input, or placed by this run), "Pending" (it fits nowhere;
  // `message` says why), or the input's terminal phase (Succeeded, Failed: holds nothing).
  std::string phase;
  std::string node;
  bool placed = false;              // placed by this run (not given Available in the input)
  std::string message;              // when Pending
  std::vector<std::string> owners;  // pods this run gave it to ("namespace/name"), in order
  // When this run placed it: what the plugins took for it there, from the resource-status its
  // reserve pod's bind wrote onto it (reservation/allocation.hpp), as for a pod.
  std::string cpuset;
  std::vector<api::extension::NUMANodeResource> numa_resources;
};

struct SimulationResult {
  std::vector<PodPlacement> placements;            // in scheduling order
  std::vector<ReservationPlacement> reservations;  // input order
  std::vector<NodeUsage> nodes;                    // sorted by name
  size_t bound_pods = 0;                           // pods bound in the input
  std::map<std::string, int> other_kinds;
};

// kInvalidArgument for a bad plugin configuration or a bound pod that cannot be counted.
[[nodiscard]] Result<SimulationResult> simulate(const ClusterInput& input,
                                                const SimulationOptions& options);

// Indices into `pods` of the pending ones (no spec.nodeName, not terminal), in scheduling order.
[[nodiscard]] std::vector<size_t> schedulingOrder(
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods);

// kube-scheduler's numFeasibleNodesToFind with the adaptive percentage:
// all nodes below 100; else max(5, 50 - nodes/125)% of them, at least 100.
[[nodiscard]] size_t numFeasibleNodesToFind(size_t num_nodes);

// kube-scheduler's FitError text: "0/<n> nodes are available: <count> <reason>, ...." with the
// "<count> <reason>" entries sorted as strings; "no nodes available to schedule pods" for n = 0.
[[nodiscard]] std::string fitErrorMessage(size_t num_nodes,
                                          const std::map<std::string, NodeRejection>& rejections);

}  // namespace koord::extender::simulator
