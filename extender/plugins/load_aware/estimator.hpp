// The estimates LoadAwareScheduling works with (Koordinator's estimator/default_estimator.go):
//
// A pod's usage, per resource r with a scaling factor f (estimatedScalingFactors; with
// allowCustomizeEstimation the pod annotation scheduling.koordinator.sh/load-estimated-scaling-
// factors overrides f per resource, and an unreadable annotation is ignored):
//   - r is read as kubernetes.io/batch-<r> for a koord-batch pod and kubernetes.io/mid-<r> for a
//     koord-mid pod (cpu and memory; any other resource of those bands, and every resource of a
//     koord-free pod, reads as nothing: Koordinator's translation quirk);
//   - q = max(limit, request) of the pod (Kubernetes' PodRequests and PodLimits); q = 0 gives
//     250 milli-cores for cpu and batch-cpu, 200 MiB for memory and batch-memory, 0 otherwise;
//   - otherwise round(q * f / 100) (cpu in milli-cores), capped at the limit when there is one.
// A node's allocatable: status.allocatable, each key overridden by the node annotation
// node.koordinator.sh/raw-allocatable when it is readable.
//
// Pure functions of their arguments; thread-safe.
#pragma once

#include "extender/plugins/load_aware/load_aware_args.hpp"
#include "extender/plugins/load_aware/resource_vector.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::load_aware {

inline constexpr int64_t kDefaultMilliCPURequest = 250;
inline constexpr int64_t kDefaultMemoryRequest = int64_t{200} * 1024 * 1024;

class Estimator {
 public:
  Estimator(const LoadAwareArgs& args, ResourceNames names);

  // The pod's estimated usage over the names (0 for a resource without a scaling factor).
  [[nodiscard]] ResourceVector estimatePod(const api::core::Pod& pod) const;
  // The node's allocatable over the names.
  [[nodiscard]] ResourceVector allocatable(const api::core::Node& node) const;

 private:
  ResourceAmounts factors_;
  bool allow_customize_;
  ResourceNames names_;
};

// Koordinator's GetPodPriorityClassWithDefault: the pod's band (priority-class label, else
// spec.priority), else from its QoS class (label, else the Kubernetes QoS class): LSE, LSR, LS and
// SYSTEM are koord-prod, BE is koord-batch.
[[nodiscard]] api::PriorityClass priorityWithDefault(const api::core::Pod& pod);

// An owner reference of kind DaemonSet.
[[nodiscard]] bool isDaemonSetPod(const api::core::Pod& pod);

// Go's int64(math.Round(x)): half away from zero, clamped to the int64 range.
[[nodiscard]] int64_t roundToInt64(double x);

}  // namespace koord::extender::plugins::load_aware
