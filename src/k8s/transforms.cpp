#include "koord/k8s/transforms.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace koord::k8s {
namespace {

constexpr std::string_view kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

// Keeps only `keep` of an object's members (typed members are listed by the caller).
template <size_t N>
void keepOnly(Json& object, const std::array<std::string_view, N>& keep) {
  if (!object.is_object()) {
    return;
  }
  for (auto it = object.begin(); it != object.end();) {
    bool wanted = false;
    for (std::string_view k : keep) {
      wanted = wanted || it.key() == k;
    }
    it = wanted ? std::next(it) : object.erase(it);
  }
}

void trimContainers(Json& spec, const char* field) {
  auto containers = spec.find(field);
  if (containers == spec.end() || !containers->is_array()) {
    return;
  }
  for (Json& c : *containers) {
    keepOnly(c, std::array<std::string_view, 3>{"name", "resources", "restartPolicy"});
  }
}

}  // namespace

void trimPodJsonForNode(Json& object) {
  if (!object.is_object()) {
    return;
  }
  keepOnly(object,
           std::array<std::string_view, 5>{"apiVersion", "kind", "metadata", "spec", "status"});
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    keepOnly(*meta, std::array<std::string_view, 13>{
                        "name", "generateName", "namespace", "uid", "resourceVersion", "generation",
                        "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
                        "labels", "annotations", "ownerReferences", "finalizers"});
    if (auto annotations = meta->find("annotations");
        annotations != meta->end() && annotations->is_object()) {
      annotations->erase(std::string(kLastApplied));
    }
  }
  if (auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
    keepOnly(*spec, std::array<std::string_view, 15>{
                        "nodeName", "schedulerName", "priority", "priorityClassName",
                        "preemptionPolicy", "nodeSelector", "affinity", "tolerations", "containers",
                        "initContainers", "overhead", "resources", "runtimeClassName",
                        "hostNetwork", "topologySpreadConstraints"});
    trimContainers(*spec, "containers");
    trimContainers(*spec, "initContainers");
  }
  if (auto status = object.find("status"); status != object.end() && status->is_object()) {
    keepOnly(*status, std::array<std::string_view, 10>{
                          "phase", "conditions", "message", "reason", "nominatedNodeName", "hostIP",
                          "podIP", "startTime", "qosClass", "containerStatuses"});
    if (auto statuses = status->find("containerStatuses");
        statuses != status->end() && statuses->is_array()) {
      for (Json& s : *statuses) {
        keepOnly(s,
                 std::array<std::string_view, 4>{"name", "containerID", "ready", "restartCount"});
      }
    }
    if (auto conditions = status->find("conditions");
        conditions != status->end() && conditions->is_array()) {
      for (Json& c : *conditions) {
        keepOnly(c,
                 std::array<std::string_view, 4>{"type", "status", "reason", "lastTransitionTime"});
      }
    }
  }
}

void trimPodJson(Json& object) {
  trimPodJsonForNode(object);
  if (auto status = object.find("status"); status != object.end() && status->is_object()) {
    status->erase("conditions");
    status->erase("containerStatuses");
  }
}

Result<api::core::Pod> decodePodForCache(Json&& object) {
  trimPodJson(object);
  return decodeObject<api::core::Pod>(std::move(object));
}

namespace {

// Keeps the members whose key is in a koordinator.sh domain ("koordinator.sh/x",
// "scheduling.koordinator.sh/x", ...).
void keepKoordinatorKeys(Json& map) {
  if (!map.is_object()) {
    return;
  }
  for (auto it = map.begin(); it != map.end();) {
    const std::string_view key = it.key();
    const size_t slash = key.find('/');
    const std::string_view domain = key.substr(0, slash == std::string_view::npos ? 0 : slash);
    const bool koordinator = domain == "koordinator.sh" || domain.ends_with(".koordinator.sh");
    it = koordinator ? std::next(it) : map.erase(it);
  }
}

}  // namespace

Result<api::core::Pod> decodePodForAccounting(Json&& object) {
  trimPodJson(object);
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    keepOnly(*meta, std::array<std::string_view, 8>{"name", "namespace", "uid", "resourceVersion",
                                                    "creationTimestamp", "deletionTimestamp",
                                                    "labels", "annotations"});
    if (auto labels = meta->find("labels"); labels != meta->end()) {
      keepKoordinatorKeys(*labels);
    }
    if (auto annotations = meta->find("annotations"); annotations != meta->end()) {
      keepKoordinatorKeys(*annotations);
    }
  }
  if (auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
    keepOnly(*spec, std::array<std::string_view, 7>{"nodeName", "priority", "priorityClassName",
                                                    "containers", "initContainers", "overhead",
                                                    "resources"});
  }
  if (auto status = object.find("status"); status != object.end() && status->is_object()) {
    keepOnly(*status, std::array<std::string_view, 2>{"phase", "qosClass"});
  }
  return decodeObject<api::core::Pod>(std::move(object));
}

Result<api::core::Pod> decodePodForNode(Json&& object) {
  trimPodJsonForNode(object);
  return decodeObject<api::core::Pod>(std::move(object));
}

}  // namespace koord::k8s
