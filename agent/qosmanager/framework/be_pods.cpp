#include "agent/qosmanager/framework/be_pods.hpp"

#include <string_view>

#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::framework {

bool isBE(const api::core::Pod& pod) {
  return api::qosClassWithDefault(pod.metadata.labels, pod.status.qosClass) == api::QoSClass::kBE;
}

std::string podKey(const api::core::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

bool isRunning(const api::core::Pod& pod) {
  return pod.status.phase == "Running";
}

bool isTerminal(const api::core::Pod& pod) {
  return pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
}

int32_t priorityOf(const api::core::Pod& pod) {
  return pod.spec.priority.value_or(0);
}

bool priorityAllowed(const api::core::Pod& pod, std::optional<int32_t> threshold) {
  return !threshold.has_value() || priorityOf(pod) <= *threshold;
}

int64_t batchMemoryRequest(const api::core::Pod& pod) {
  int64_t sum = 0;
  for (const api::core::Container& container : pod.spec.containers) {
    for (std::string_view key : {api::kResourceBatchMemory, api::kDeprecatedResourceBatchMemory}) {
      auto it = container.resources.requests.find(key);
      if (it != container.resources.requests.end()) {
        sum += it->second.value();
        break;
      }
    }
  }
  return sum;
}

int64_t batchCpuRequestMilli(const api::core::Pod& pod) {
  int64_t sum = 0;
  for (const api::core::Container& container : pod.spec.containers) {
    for (std::string_view key : {api::kResourceBatchCPU, api::kDeprecatedResourceBatchCPU}) {
      auto it = container.resources.requests.find(key);
      if (it != container.resources.requests.end()) {
        sum += it->second.value();
        break;
      }
    }
  }
  return sum;
}

}  // namespace koord::agent::qosmanager::framework
