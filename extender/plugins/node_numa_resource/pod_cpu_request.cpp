#include "extender/plugins/node_numa_resource/pod_cpu_request.hpp"

#include <string>

#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_numa_resource {

namespace pod_request_impl {

using api::extension::CPUBindPolicy;

bool allZero(const framework::Resource& r) {
  if (r.milli_cpu != 0 || r.memory != 0 || r.ephemeral_storage != 0)
    return false;
  for (const auto& [name, value] : r.scalar) {
    if (value != 0)
      return false;
  }
  return true;
}

const std::string* annotation(const api::core::Pod& pod, std::string_view key) {
  auto it = pod.metadata.annotations.find(std::string(key));
  return it == pod.metadata.annotations.end() ? nullptr : &it->second;
}

}  // namespace pod_request_impl

using namespace pod_request_impl;  // NOLINT(google-build-using-namespace)

bool allowUseCPUSet(const framework::PodInfo& pod) {
  if (pod.qos != api::QoSClass::kLSE && pod.qos != api::QoSClass::kLSR)
    return false;
  // GetPodPriorityClassWithDefault: no band reads as prod for the LS family.
  return pod.band == api::PriorityClass::kProd || pod.band == api::PriorityClass::kNone;
}

Result<PodCPURequest> podCPURequest(const framework::PodInfo& pod, CPUBindPolicy default_policy) {
  PodCPURequest out;
  api::extension::ResourceSpec spec;
  if (const std::string* text = annotation(*pod.pod, api::kAnnotationResourceSpec)) {
    auto parsed = api::extension::parseResourceSpec(*text);
    if (!parsed.ok())
      return parsed.status();
    spec = std::move(*parsed);
  }
  if (const std::string* text = annotation(*pod.pod, api::kAnnotationNUMATopologySpec)) {
    auto parsed = api::extension::parseNUMATopologySpec(*text);
    if (!parsed.ok())
      return parsed.status();
    out.numa_policy = parsed->numaTopologyPolicy;
    out.numa_exclusive =
        parsed->singleNUMANodeExclusive.value_or(api::extension::NumaTopologyExclusive::kRequired);
  }
  framework::Resource requests = pod.requests;
  requests.pods = 0;
  if (allZero(requests)) {
    out.skip = true;
    return out;
  }
  out.milli_cpu = requests.milli_cpu;
  out.memory = requests.memory;
  if (!allowUseCPUSet(pod))
    return out;
  CPUBindPolicy policy = spec.preferredCPUBindPolicy.value_or(CPUBindPolicy::kDefault);
  if (policy == CPUBindPolicy::kDefault)
    policy = default_policy;
  if (spec.requiredCPUBindPolicy) {
    CPUBindPolicy required = *spec.requiredCPUBindPolicy;
    if (required == CPUBindPolicy::kDefault)
      required = default_policy;
    out.required_policy = required;
    policy = required;
  }
  if (policy != CPUBindPolicy::kFullPCPUs && policy != CPUBindPolicy::kSpreadByPCPUs)
    return out;
  if (out.milli_cpu % 1000 != 0)
    return Status(StatusCode::kFailedPrecondition, kErrCPUsMustBeInteger);
  if (out.milli_cpu > 0) {
    out.request_cpu_bind = true;
    out.bind_policy = policy;
    out.exclusive =
        spec.preferredCPUExclusivePolicy.value_or(api::extension::CPUExclusivePolicy::kNone);
    out.num_cpus = static_cast<int>(out.milli_cpu / 1000);
  }
  return out;
}

Result<bool> requestsCPUBindOn(PodCPURequest& request,
                               api::extension::NodeCPUBindPolicy node_policy) {
  if (request.request_cpu_bind)
    return true;
  if (node_policy == api::extension::NodeCPUBindPolicy::kNone || request.milli_cpu == 0)
    return false;
  if (request.milli_cpu % 1000 != 0)
    return Status(StatusCode::kFailedPrecondition, kErrCPUsMustBeInteger);
  request.request_cpu_bind = true;
  request.num_cpus = static_cast<int>(request.milli_cpu / 1000);
  return true;
}

}  // namespace koord::extender::plugins::node_numa_resource
