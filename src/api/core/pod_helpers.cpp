#include "koord/api/core/pod_helpers.hpp"

#include <optional>
#include <string>
#include <vector>

namespace koord::api::core {

namespace {

using resource::Quantity;
using resource::ResourceList;

constexpr std::string_view kHugePagesPrefix = "hugepages-";

// list += other, key by key; a new key copies the other's quantity (and format), as Go's
// addResourceList.
Status addInto(ResourceList& list, const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    auto it = list.find(name);
    if (it == list.end()) {
      list.emplace(name, quantity);
      continue;
    }
    KOORD_ASSIGN_OR_RETURN(it->second, it->second.add(quantity));
  }
  return Status::ok();
}

// list = max(list, other) for every key of other, as Go's maxResourceList.
void maxInto(ResourceList& list, const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    auto it = list.find(name);
    if (it == list.end()) {
      list.emplace(name, quantity);
    } else if (quantity > it->second) {
      it->second = quantity;
    }
  }
}

bool isSupportedPodLevelResource(std::string_view name) {
  return name == "cpu" || name == "memory" || name.starts_with(kHugePagesPrefix);
}

bool hasSupportedPodLevelResource(const ResourceList& list) {
  for (const auto& [name, quantity] : list) {
    if (isSupportedPodLevelResource(name)) {
      return true;
    }
  }
  return false;
}

void applyPodLevelResources(ResourceList& result, const ResourceList& pod_level) {
  for (const auto& [name, quantity] : pod_level) {
    if (isSupportedPodLevelResource(name)) {
      result.insert_or_assign(name, quantity);
    }
  }
}

bool isRestartableInitContainer(const Container& c) {
  return c.restartPolicy.has_value() && *c.restartPolicy == "Always";
}

const ResourceList& requestsOf(const Container& c) {
  return c.resources.requests;
}
const ResourceList& limitsOf(const Container& c) {
  return c.resources.limits;
}

// The sidecar-aware aggregate of the KEP-753 formula: regular containers and sidecars are summed;
// each init container needs its own resources plus the sidecars started before it; the result is
// the maximum of the two.
// `resources_of(container)` gives the list to count (by reference or by value).
template <typename ResourcesOf>
Result<ResourceList> aggregateContainers(const PodSpec& spec, ResourcesOf resources_of) {
  ResourceList result;
  for (const auto& c : spec.containers) {
    KOORD_RETURN_IF_ERROR(addInto(result, resources_of(c)));
  }
  ResourceList restartable;
  ResourceList init_max;
  for (const auto& c : spec.initContainers) {
    if (isRestartableInitContainer(c)) {
      KOORD_RETURN_IF_ERROR(addInto(result, resources_of(c)));
      KOORD_RETURN_IF_ERROR(addInto(restartable, resources_of(c)));
      maxInto(init_max, restartable);
    } else {
      ResourceList combined;
      KOORD_RETURN_IF_ERROR(addInto(combined, resources_of(c)));
      KOORD_RETURN_IF_ERROR(addInto(combined, restartable));
      maxInto(init_max, combined);
    }
  }
  maxInto(result, init_max);
  return result;
}

// The QoS class of one set of requirements (Kubernetes' resourceQOS).
QosClass resourceQos(const ResourceRequirements& r) {
  if (r.requests.empty() && r.limits.empty()) {
    return QosClass::kBestEffort;
  }
  std::optional<QosClass> qos;
  for (std::string_view name : {std::string_view("cpu"), std::string_view("memory")}) {
    Quantity req = resource::get(r.requests, name);
    Quantity lim = resource::get(r.limits, name);
    if (req != lim) {
      return QosClass::kBurstable;
    }
    bool best_effort = req.isZero();
    if (!qos) {
      qos = best_effort ? QosClass::kBestEffort : QosClass::kGuaranteed;
    } else if (best_effort != (*qos == QosClass::kBestEffort)) {
      return QosClass::kBurstable;
    }
  }
  return *qos;
}

Status checkList(const ResourceList& list, const std::string& path) {
  for (const auto& [name, quantity] : list) {
    if (quantity.sign() < 0) {
      return Status::invalidArgument(path + "[" + name + "]: Invalid value: \"" +
                                     quantity.toString() +
                                     "\": must be greater than or equal to 0");
    }
  }
  return Status::ok();
}

Status checkRequirements(const ResourceRequirements& r, const std::string& path) {
  KOORD_RETURN_IF_ERROR(checkList(r.requests, path + ".requests"));
  return checkList(r.limits, path + ".limits");
}

Status checkContainers(const std::vector<Container>& containers, const std::string& path) {
  for (size_t i = 0; i < containers.size(); ++i) {
    KOORD_RETURN_IF_ERROR(
        checkRequirements(containers[i].resources, path + "[" + std::to_string(i) + "].resources"));
  }
  return Status::ok();
}

}  // namespace

Status checkNonNegativeResources(const Pod& pod) {
  KOORD_RETURN_IF_ERROR(checkContainers(pod.spec.containers, "spec.containers"));
  KOORD_RETURN_IF_ERROR(checkContainers(pod.spec.initContainers, "spec.initContainers"));
  if (pod.spec.resources) {
    KOORD_RETURN_IF_ERROR(checkRequirements(*pod.spec.resources, "spec.resources"));
  }
  return checkList(pod.spec.overhead, "spec.overhead");
}

Result<ResourceList> podRequests(const Pod& pod) {
  KOORD_RETURN_IF_ERROR(checkNonNegativeResources(pod));
  KOORD_ASSIGN_OR_RETURN(ResourceList reqs, aggregateContainers(pod.spec, requestsOf));
  if (pod.spec.resources && hasSupportedPodLevelResource(pod.spec.resources->requests)) {
    applyPodLevelResources(reqs, pod.spec.resources->requests);
  }
  KOORD_RETURN_IF_ERROR(addInto(reqs, pod.spec.overhead));
  return reqs;
}

Result<ResourceList> podNonZeroRequests(const Pod& pod) {
  constexpr int64_t kDefaultMilliCPURequest = 100;
  constexpr int64_t kDefaultMemoryRequest = int64_t{200} * 1024 * 1024;
  KOORD_ASSIGN_OR_RETURN(ResourceList reqs, podRequests(pod));
  const bool pod_level =
      pod.spec.resources && hasSupportedPodLevelResource(pod.spec.resources->requests);
  // kube-scheduler's getNonMissingContainerRequests: both defaults without pod-level requests;
  // with them, only for what neither level sets.
  ResourceList non_missing;
  if (!pod_level || !reqs.contains("cpu"))
    non_missing.emplace("cpu", Quantity::fromMilli(kDefaultMilliCPURequest));
  if (!pod_level || !reqs.contains("memory"))
    non_missing.emplace("memory", Quantity::fromInt(kDefaultMemoryRequest));
  const auto with_defaults = [&non_missing](const Container& c) {
    ResourceList list = c.resources.requests;
    for (const auto& [name, quantity] : non_missing) {
      list.try_emplace(name, quantity);
    }
    return list;
  };
  KOORD_ASSIGN_OR_RETURN(ResourceList non_zero, aggregateContainers(pod.spec, with_defaults));
  if (pod_level) {
    applyPodLevelResources(non_zero, pod.spec.resources->requests);
  }
  KOORD_RETURN_IF_ERROR(addInto(non_zero, pod.spec.overhead));
  return non_zero;
}

Result<ResourceList> podLimits(const Pod& pod) {
  KOORD_RETURN_IF_ERROR(checkNonNegativeResources(pod));
  KOORD_ASSIGN_OR_RETURN(ResourceList limits, aggregateContainers(pod.spec, limitsOf));
  if (pod.spec.resources && (hasSupportedPodLevelResource(pod.spec.resources->requests) ||
                             hasSupportedPodLevelResource(pod.spec.resources->limits))) {
    applyPodLevelResources(limits, pod.spec.resources->limits);
  }
  for (const auto& [name, quantity] : pod.spec.overhead) {
    auto it = limits.find(name);
    if (it != limits.end() && !it->second.isZero()) {
      KOORD_ASSIGN_OR_RETURN(it->second, it->second.add(quantity));
    }
  }
  return limits;
}

std::string_view qosClassName(QosClass qos) {
  switch (qos) {
    case QosClass::kBestEffort:
      return "BestEffort";
    case QosClass::kBurstable:
      return "Burstable";
    case QosClass::kGuaranteed:
      return "Guaranteed";
  }
  return "BestEffort";
}

QosClass computePodQosClass(const Pod& pod) {
  if (pod.spec.resources) {
    return resourceQos(*pod.spec.resources);
  }
  std::optional<QosClass> pod_qos;
  for (const auto* list : {&pod.spec.initContainers, &pod.spec.containers}) {
    for (const auto& c : *list) {
      QosClass qos = resourceQos(c.resources);
      if (qos == QosClass::kBurstable) {
        return qos;
      }
      if (!pod_qos) {
        pod_qos = qos;
      } else if (*pod_qos != qos) {
        return QosClass::kBurstable;
      }
    }
  }
  return pod_qos.value_or(QosClass::kBestEffort);
}

std::optional<QosClass> parseQosClass(std::string_view text) {
  for (QosClass qos : {QosClass::kBestEffort, QosClass::kBurstable, QosClass::kGuaranteed}) {
    if (text == qosClassName(qos)) {
      return qos;
    }
  }
  return std::nullopt;
}

QosClass podQosClass(const Pod& pod) {
  if (const std::optional<QosClass> qos = parseQosClass(pod.status.qosClass)) {
    return *qos;
  }
  return computePodQosClass(pod);
}

bool isPodTerminal(const Pod& pod) {
  return pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
}

}  // namespace koord::api::core
