// PodInfo: a pod with what every plugin needs computed once: its key, its requests (Kubernetes'
// PodRequests, init containers and overhead included) as a Resource, its Koordinator QoS class
// and priority band, and the reservation it allocated. Immutable once made; shared as
// std::shared_ptr<const PodInfo>.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "extender/framework/resource.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::framework {

// The cpu (milli-cores) and memory (bytes) kube-scheduler's scoring counts for a pod: its requests,
// with 100m and 200Mi for a container that sets none (api::core::podNonZeroRequests).
struct NonZeroRequests {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  bool operator==(const NonZeroRequests&) const = default;
};

struct PodInfo {
  std::shared_ptr<const api::core::Pod> pod;
  std::string key;  // "namespace/name"
  std::string uid;
  Resource requests;  // pods = 1
  NonZeroRequests non_zero;
  // Koordinator's QoS class (label koordinator.sh/qosClass, api::qosClassOf) and priority band
  // (api::priorityClassOf: the koordinator.sh/priority-class label, else spec.priority).
  api::QoSClass qos = api::QoSClass::kNone;
  api::PriorityClass band = api::PriorityClass::kNone;
  int32_t priority = 0;  // spec.priority, 0 when unset
  // The reservation the pod allocated (annotation scheduling.koordinator.sh/reservation-allocated);
  // both empty when absent or unreadable.
  std::string reservation_name;
  std::string reservation_uid;

  // kInvalidArgument when the pod has no name or a request cannot be summed.
  [[nodiscard]] static Result<std::shared_ptr<const PodInfo>> create(
      std::shared_ptr<const api::core::Pod> pod);
};

}  // namespace koord::extender::framework
