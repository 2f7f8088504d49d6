#include "manager/webhook/pod_validating.hpp"

#include <optional>
#include <string>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/well_known.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/webhook/pod_mutating.hpp"

namespace koord::manager::webhook {
namespace {

using api::PriorityClass;
using api::QoSClass;
using api::admission::AdmissionRequest;
using api::admission::AdmissionResponse;

std::string labelPath(std::string_view label) {
  return "labels." + std::string(label);
}

std::string immutable(const std::string& path, std::string_view value) {
  return path + ": Invalid value: \"" + std::string(value) + "\": field is immutable";
}

std::string labelOr(const api::core::Pod& pod, std::string_view key) {
  auto it = pod.metadata.labels.find(std::string(key));
  return it == pod.metadata.labels.end() ? "" : it->second;
}

PriorityClass priorityOf(const api::core::Pod& pod) {
  return api::priorityClassOf(pod.spec.priority, pod.metadata.labels);
}

void forbidCombination(const api::core::Pod& pod, QoSClass qos,
                       std::initializer_list<PriorityClass> forbidden,
                       std::vector<std::string>& errors) {
  if (api::qosClassOf(pod.metadata.labels) != qos) {
    return;
  }
  const PriorityClass priority = priorityOf(pod);
  for (PriorityClass p : forbidden) {
    if (p == priority) {
      errors.push_back("Pod: Forbidden: " + std::string(api::kLabelPodQoS) + "=" +
                       std::string(api::toString(qos)) + " and priorityClass=" +
                       std::string(api::toString(priority)) + " cannot be used in combination");
      return;
    }
  }
}

}  // namespace

std::string aggregateErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) {
    return "";
  }
  if (errors.size() == 1) {
    return errors.front();
  }
  std::string out = "[";
  for (size_t i = 0; i < errors.size(); ++i) {
    out += (i == 0 ? "" : ", ") + errors[i];
  }
  return out + "]";
}

std::vector<std::string> validatePodColocation(const api::core::Pod& pod,
                                               const api::core::Pod* old_pod) {
  std::vector<std::string> errors;
  if (old_pod != nullptr) {
    const QoSClass old_qos = api::qosClassOf(old_pod->metadata.labels);
    const QoSClass new_qos = api::qosClassOf(pod.metadata.labels);
    if (old_qos != new_qos) {
      errors.push_back(immutable(labelPath(api::kLabelPodQoS), api::toString(new_qos)));
    }
    const PriorityClass old_priority = priorityOf(*old_pod);
    const PriorityClass new_priority = priorityOf(pod);
    if (old_priority != new_priority) {
      errors.push_back(immutable("spec.priority", api::toString(new_priority)));
    }
    const std::string old_sub = labelOr(*old_pod, api::kLabelPodPriority);
    const std::string new_sub = labelOr(pod, api::kLabelPodPriority);
    if (old_sub != new_sub) {
      errors.push_back(immutable(labelPath(api::kLabelPodPriority), new_sub));
    }
  }
  // A pod whose requests overflow or are negative is kube-apiserver's to refuse; count what sums.
  const resource::ResourceList requests =
      api::core::podRequests(pod).valueOr(resource::ResourceList{});
  const bool batch = !resource::get(requests, api::kResourceBatchCPU).isZero() ||
                     !resource::get(requests, api::kResourceBatchMemory).isZero();
  if (batch && api::qosClassOf(pod.metadata.labels) != QoSClass::kBE) {
    errors.push_back(labelPath(api::kLabelPodQoS) +
                     ": Required value: must specify koordinator QoS BE with koordinator "
                     "colocation resources");
  }
  const bool mid = !resource::get(requests, api::kResourceMidCPU).isZero() ||
                   !resource::get(requests, api::kResourceMidMemory).isZero();
  if (mid && priorityOf(pod) != PriorityClass::kMid) {
    errors.push_back("spec.priority: Forbidden: koordinator mid resources (" +
                     std::string(api::kResourceMidCPU) + ", " +
                     std::string(api::kResourceMidMemory) +
                     ") can only be used with priorityClass=" + std::string(api::kPriorityMid));
  }
  forbidCombination(pod, QoSClass::kBE, {PriorityClass::kNone, PriorityClass::kProd}, errors);
  for (QoSClass qos : {QoSClass::kLSR, QoSClass::kLSE}) {
    forbidCombination(
        pod, qos,
        {PriorityClass::kNone, PriorityClass::kMid, PriorityClass::kBatch, PriorityClass::kFree},
        errors);
  }
  const QoSClass qos = api::qosClassOf(pod.metadata.labels);
  if (qos == QoSClass::kLSR || qos == QoSClass::kLSE) {
    const resource::Quantity cpu = resource::get(requests, api::kResourceCPU);
    const std::string path = "pod.spec.containers[*].resources.requests";
    if (cpu.isZero()) {
      errors.push_back(path + ": Required value: " + std::string(api::toString(qos)) +
                       " Pod must declare the requested CPUs");
    } else if (cpu.milliValue() % 1000 != 0) {
      errors.push_back(path + ": Invalid value: \"" + cpu.toString() +
                       "\": the requested CPUs of " + std::string(api::toString(qos)) +
                       " Pod must be integer");
    }
  }
  return errors;
}

AdmissionResponse PodValidatingHandler::admit(const AdmissionRequest& request) const {
  if (!isPodRequest(request) || (request.operation != "CREATE" && request.operation != "UPDATE")) {
    return api::admission::allowResponse(request);
  }
  auto decode = [&](const api::Json& j, const char* field, api::core::Pod& out) -> Status {
    if (!j.is_object()) {
      return Status::invalidArgument(std::string("request.") + field + ": expected object");
    }
    return fromJson(j, out, field);
  };
  api::core::Pod pod;
  if (Status s = decode(request.object, "object", pod); !s.isOk()) {
    return api::admission::denyResponse(request, 400, "failed to decode Pod: " + s.message(),
                                        "BadRequest");
  }
  std::optional<api::core::Pod> old_pod;
  if (request.operation == "UPDATE") {
    old_pod.emplace();
    if (Status s = decode(request.oldObject, "oldObject", *old_pod); !s.isOk()) {
      return api::admission::denyResponse(request, 400, "failed to decode Pod: " + s.message(),
                                          "BadRequest");
    }
  }
  const auto errors = validatePodColocation(pod, old_pod ? &*old_pod : nullptr);
  if (errors.empty()) {
    return api::admission::allowResponse(request);
  }
  const std::string message = aggregateErrors(errors);
  logger_.debug("pod denied",
                {{"pod", request.namespace_ + "/" + request.name}, {"reason", message}});
  return api::admission::denyResponse(request, 403, message, "Forbidden");
}

}  // namespace koord::manager::webhook
