#include "extender/framework/pod_info.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::framework {
namespace {

// Every container and init container sets both a cpu and a memory request, and no pod-level
// requests are set: the non-zero requests are the requests.
bool setsEveryRequest(const api::core::Pod& pod) {
  if (pod.spec.resources)
    return false;
  const auto sets = [](const api::core::Container& c) {
    return c.resources.requests.contains("cpu") && c.resources.requests.contains("memory");
  };
  return std::all_of(pod.spec.containers.begin(), pod.spec.containers.end(), sets) &&
         std::all_of(pod.spec.initContainers.begin(), pod.spec.initContainers.end(), sets);
}

Result<NonZeroRequests> nonZeroRequests(const api::core::Pod& pod, const Resource& requests) {
  if (setsEveryRequest(pod))
    return NonZeroRequests{requests.milli_cpu, requests.memory};
  auto list = api::core::podNonZeroRequests(pod);
  if (!list.ok()) {
    return Status::invalidArgument("failed to sum the requests of pod '" + pod.metadata.namespace_ +
                                   "/" + pod.metadata.name + "': " + list.status().message());
  }
  const Resource resource = Resource::fromList(*list);
  return NonZeroRequests{resource.milli_cpu, resource.memory};
}

}  // namespace

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
  KOORD_ASSIGN_OR_RETURN(info->non_zero, nonZeroRequests(*pod, info->requests));
  info->qos = api::qosClassOf(pod->metadata.labels);
  // Koordinator's GetPodPriorityClassRaw: a non-empty koordinator.sh/priority-class label wins, and
  // an unknown word there is no band at all (it does not fall back to spec.priority).
  info->band = api::priorityClassOf(pod->spec.priority, pod->metadata.labels);
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
