// What a node's pods add to its reported usage (Koordinator's podAssignCache: nodeInfo.addPod and
// getEstimatedOfExisting; koordinator-reference.md 3(d)).
//
// PodLoad, per pod on the node: its estimate (estimator.hpp), when it was placed (`timestamp`: the
// lastTransitionTime of its PodScheduled=True condition, else the time the plugin first saw it),
// until when it is estimated whatever its reported usage (`deadline`: Initialized=True time +
// estimatedSecondsAfterInitialized when that is set and the pod is initialized, else timestamp +
// estimatedSecondsAfterPodScheduled when that is set; both overridden per pod by the
// load-estimated-seconds-after-* annotations when allowCustomizeEstimation), and whether it is
// koord-prod.
//
// NodeLoad, over the pods, with u the pod's usage in the NodeMetric's podsMetric:
//   should = u absent || updateTime - reportInterval < timestamp || deadline > updateTime
//   nodeDelta += max(0, estimate - u) when should;   nodeEstimated += estimate
//   prodUsage += u for a prod pod koordlet also reports as koord-prod (+ systemUsage once, with
//   prodUsageIncludeSys); prodDelta as nodeDelta over prod pods, a prod pod koordlet does not
//   report as prod counting its whole estimate.
// existingUsage() then gives what the node is taken to use before the incoming pod:
//   prod pod: prodUsage + prodDelta; otherwise, with U the node usage (or the aggregated usage
//   asked for): U + nodeDelta, or nodeEstimated when there is no such U.
//
// Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "extender/framework/pod_info.hpp"
#include "extender/plugins/load_aware/estimator.hpp"
#include "extender/plugins/load_aware/load_aware_args.hpp"
#include "extender/plugins/load_aware/metric_view.hpp"
#include "extender/plugins/load_aware/resource_vector.hpp"

namespace koord::extender::plugins::load_aware {

struct PodLoad {
  std::string key;  // "namespace/name"
  ResourceVector estimated;
  WallTime timestamp;
  std::optional<WallTime> deadline;
  bool prod = false;
};

// The PodLoad of `pod`; `first_seen` is its timestamp when it has no PodScheduled=True time.
[[nodiscard]] PodLoad podLoad(const api::core::Pod& pod, const Estimator& estimator,
                              const LoadAwareArgs& args, WallTime first_seen);

struct NodeLoad {
  ResourceVector prod_usage;
  ResourceVector node_delta;
  ResourceVector prod_delta;
  ResourceVector node_estimated;

  // Adds one pod (Koordinator's nodeInfo.addPod).
  void add(const PodLoad& pod, const MetricView& metric);
};

// A NodeLoad over `metric` with no pods: prodUsage starts at systemUsage with
// prodUsageIncludeSys.
[[nodiscard]] NodeLoad emptyLoad(const MetricView& metric, bool prod_usage_include_sys);

// What the node uses before the incoming pod (see above). `aggregation_type` "" reads nodeUsage.
[[nodiscard]] ResourceVector existingUsage(const NodeLoad& load, const MetricView& metric,
                                           bool prod, const std::string& aggregation_type,
                                           std::chrono::nanoseconds aggregation_duration);

}  // namespace koord::extender::plugins::load_aware
