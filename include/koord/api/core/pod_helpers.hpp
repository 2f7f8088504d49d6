// Pod arithmetic as Kubernetes computes it: effective requests, QoS class, terminal phases.
// Pure functions of their arguments; thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::core {

// OK unless a quantity among the pod's requests and limits (containers, init containers, pod-level
// resources) or spec.overhead is negative, which kube-apiserver refuses; then kInvalidArgument in
// its words for the first one:
// "spec.containers[1].resources.requests[cpu]: Invalid value: \"-99\": must be greater than or
// equal to 0".
[[nodiscard]] Status checkNonNegativeResources(const Pod& pod);

// The pod's effective requests, as k8s.io/component-helpers resource.PodRequests with default
// options: the sum of the regular containers' requests; each init container raises the result to at
// least its own requests plus the restartable (sidecar) init containers started before it, and
// sidecars add to the sum; pod-level requests (spec.resources.requests, cpu and memory) replace the
// aggregate for those resources; spec.overhead is added last. Only `requests` count: limits are
// not used as requests here (the API server defaults missing requests from limits on admission).
// kOutOfRange when the sum overflows; checkNonNegativeResources' error for a negative quantity.
[[nodiscard]] Result<resource::ResourceList> podRequests(const Pod& pod);

// What kube-scheduler's scoring counts for a pod (NodeInfo's NonZeroRequested, the
// NonMissingContainerRequests of resource.PodRequests): as podRequests, but a container (or init
// container) that does not set a cpu or memory request counts 100m cpu or 200Mi memory for it
// (with pod-level requests, only for a resource neither level sets). An explicit 0 stays 0. The
// same errors as podRequests.
[[nodiscard]] Result<resource::ResourceList> podNonZeroRequests(const Pod& pod);

// As podRequests, for limits (resource.PodLimits): containers' limits summed, init containers as a
// maximum, pod-level limits replace the aggregate, overhead added to resources that have a limit.
// The same errors as podRequests.
[[nodiscard]] Result<resource::ResourceList> podLimits(const Pod& pod);

enum class QosClass { kBestEffort, kBurstable, kGuaranteed };

// "BestEffort", "Burstable" or "Guaranteed".
[[nodiscard]] std::string_view qosClassName(QosClass qos);
// The class spelled exactly "BestEffort", "Burstable" or "Guaranteed" (status.qosClass); nullopt
// for anything else.
[[nodiscard]] std::optional<QosClass> parseQosClass(std::string_view text);

// Kubernetes' ComputePodQOS: only cpu and memory count, zero quantities are ignored; init
// containers count like regular ones; pod-level resources, when set, decide instead.
[[nodiscard]] QosClass computePodQosClass(const Pod& pod);

// Kubernetes' GetPodQOS: status.qosClass when it holds a known class, else computePodQosClass.
[[nodiscard]] QosClass podQosClass(const Pod& pod);

// status.phase is Succeeded or Failed.
[[nodiscard]] bool isPodTerminal(const Pod& pod);

}  // namespace koord::api::core
