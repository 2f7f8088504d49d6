// Pods as the BE strategies see them (eviction, suppress): which pods are BE, their phase and
// priority, and their batch requests. Pure functions of the pod object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "koord/api/core/pod.hpp"

namespace koord::agent::qosmanager::framework {

// Koordinator's QoS class of the pod (the koordinator.sh/qosClass label, else its Kubernetes QoS
// class: BestEffort is BE) is BE.
[[nodiscard]] bool isBE(const api::core::Pod& pod);
// "<namespace>/<name>", as logs, Events and /debug/qos name a pod.
[[nodiscard]] std::string podKey(const api::core::Pod& pod);
// status.phase is Running.
[[nodiscard]] bool isRunning(const api::core::Pod& pod);
// status.phase is Succeeded or Failed: the pod holds nothing on the node any more.
[[nodiscard]] bool isTerminal(const api::core::Pod& pod);
// spec.priority, 0 when unset (the order the evictor uses).
[[nodiscard]] int32_t priorityOf(const api::core::Pod& pod);
// Whether the pod may be a candidate under a priority threshold (koordlet's
// evictEnabledPriorityThreshold / allocatableEvictPriorityThreshold: "the highest priority that
// may be evicted"): no threshold, or priorityOf(pod) <= threshold.
[[nodiscard]] bool priorityAllowed(const api::core::Pod& pod, std::optional<int32_t> threshold);
// The sum of the containers' kubernetes.io/batch-memory requests in bytes (the deprecated
// koordinator.sh/batch-memory when the first is absent); 0 when none asks for any.
[[nodiscard]] int64_t batchMemoryRequest(const api::core::Pod& pod);
// The sum of the containers' kubernetes.io/batch-cpu requests in milli-cores (the deprecated
// koordinator.sh/batch-cpu when the first is absent); 0 when none asks for any.
[[nodiscard]] int64_t batchCpuRequestMilli(const api::core::Pod& pod);

}  // namespace koord::agent::qosmanager::framework
