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
#include "koord/common/result.hpp"

namespace koord::extender::framework {

// Koordinator's QoS classes (label koordinator.sh/qosClass; reference 2.1).
enum class KoordQos { kNone, kLSE, kLSR, kLS, kBE, kSystem };
// Priority bands by spec.priority (or the koordinator.sh/priority-class label; reference 2.1).
enum class PriorityBand { kNone, kProd, kMid, kBatch, kFree };

struct PodInfo {
  std::shared_ptr<const api::core::Pod> pod;
  std::string key;  // "namespace/name"
  std::string uid;
  Resource requests;  // pods = 1
  KoordQos qos = KoordQos::kNone;
  PriorityBand band = PriorityBand::kNone;
  int32_t priority = 0;  // spec.priority, 0 when unset
  // The reservation the pod allocated (annotation scheduling.koordinator.sh/reservation-allocated);
  // both empty when absent or unreadable.
  std::string reservation_name;
  std::string reservation_uid;

  // kInvalidArgument when the pod has no name or a request cannot be summed.
  [[nodiscard]] static Result<std::shared_ptr<const PodInfo>> create(
      std::shared_ptr<const api::core::Pod> pod);
};

[[nodiscard]] KoordQos koordQosOf(const api::core::Pod& pod);
[[nodiscard]] PriorityBand priorityBandOf(const api::core::Pod& pod);
[[nodiscard]] std::string_view koordQosName(KoordQos qos);           // "LSE", ..., "" for kNone
[[nodiscard]] std::string_view priorityBandName(PriorityBand band);  // "koord-prod", ...

}  // namespace koord::extender::framework
