#include "extender/framework/pod_info.hpp"

#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::framework {
namespace {

std::string_view labelOf(const api::core::Pod& pod, std::string_view key) {
  const auto& labels = pod.metadata.labels;
  auto it = labels.find(std::string(key));
  return it == labels.end() ? std::string_view() : std::string_view(it->second);
}

}  // namespace

KoordQos koordQosOf(const api::core::Pod& pod) {
  const std::string_view value = labelOf(pod, api::kLabelPodQoS);
  if (value == api::kQoSLSE)
    return KoordQos::kLSE;
  if (value == api::kQoSLSR)
    return KoordQos::kLSR;
  if (value == api::kQoSLS)
    return KoordQos::kLS;
  if (value == api::kQoSBE)
    return KoordQos::kBE;
  if (value == api::kQoSSystem)
    return KoordQos::kSystem;
  return KoordQos::kNone;
}

PriorityBand priorityBandOf(const api::core::Pod& pod) {
  // Koordinator's GetPodPriorityClassRaw, as api::priorityClassOf reads it: a non-empty
  // koordinator.sh/priority-class label wins, and an unknown word there is no band at all (it does
  // not fall back to spec.priority).
  switch (api::priorityClassOf(pod.spec.priority, pod.metadata.labels)) {
    case api::PriorityClass::kProd:
      return PriorityBand::kProd;
    case api::PriorityClass::kMid:
      return PriorityBand::kMid;
    case api::PriorityClass::kBatch:
      return PriorityBand::kBatch;
    case api::PriorityClass::kFree:
      return PriorityBand::kFree;
    case api::PriorityClass::kNone:
      break;
  }
  return PriorityBand::kNone;
}

std::string_view koordQosName(KoordQos qos) {
  switch (qos) {
    case KoordQos::kLSE:
      return api::kQoSLSE;
    case KoordQos::kLSR:
      return api::kQoSLSR;
    case KoordQos::kLS:
      return api::kQoSLS;
    case KoordQos::kBE:
      return api::kQoSBE;
    case KoordQos::kSystem:
      return api::kQoSSystem;
    case KoordQos::kNone:
      break;
  }
  return api::kQoSNone;
}

std::string_view priorityBandName(PriorityBand band) {
  switch (band) {
    case PriorityBand::kProd:
      return api::kPriorityProd;
    case PriorityBand::kMid:
      return api::kPriorityMid;
    case PriorityBand::kBatch:
      return api::kPriorityBatch;
    case PriorityBand::kFree:
      return api::kPriorityFree;
    case PriorityBand::kNone:
      break;
  }
  return api::kPriorityNone;
}

Result<std::shared_ptr<const PodInfo>> PodInfo::create(std::shared_ptr<const api::core::Pod> pod) {
  if (pod == nullptr) {
    return Status::invalidArgument("failed to read pod '': no pod given");
  }
  std::string key = pod->metadata.namespace_ + "/" + pod->metadata.name;
  if (pod->metadata.name.empty()) {
    return Status::invalidArgument("failed to read pod '" + key + "': metadata.name is empty");
  }
  auto requests = api::core::podRequests(*pod);
  if (!requests.ok()) {
    return Status::invalidArgument("failed to sum the requests of pod '" + key +
                                   "': " + requests.status().message());
  }
  auto info = std::make_shared<PodInfo>();
  info->key = std::move(key);
  info->uid = pod->metadata.uid;
  info->requests = Resource::fromList(*requests);
  info->requests.pods = 1;
  info->qos = koordQosOf(*pod);
  info->band = priorityBandOf(*pod);
  info->priority = pod->spec.priority.value_or(0);
  const auto& annotations = pod->metadata.annotations;
  if (auto it = annotations.find(std::string(api::kAnnotationReservationAllocated));
      it != annotations.end()) {
    if (auto allocated = api::extension::parseReservationAllocated(it->second); allocated.ok()) {
      info->reservation_name = std::move(allocated->name);
      info->reservation_uid = std::move(allocated->uid);
    }
  }
  info->pod = std::move(pod);
  return std::shared_ptr<const PodInfo>(std::move(info));
}

}  // namespace koord::extender::framework
