// PodCPURequest: what NodeNUMAResource's preFilter reads from a pod once (Koordinator's
// preFilterState; koordinator-reference.md 3(a) "Eligibility"):
// - a pod whose requests are all zero is skipped;
// - AllowUseCPUSet: QoS LSE or LSR (label koordinator.sh/qosClass) in the koord-prod band (the
//   priority class label or spec.priority; a pod with neither counts as prod, as Koordinator's
//   GetPodPriorityClassWithDefault reads an LS-family pod);
// - bind policy: resource-spec preferredCPUBindPolicy ("" or Default: the args' default), a
//   non-empty requiredCPUBindPolicy (Default: the args' default) overrides it;
// - with FullPCPUs or SpreadByPCPUs the cpu request must be whole CPUs ("the requested CPUs must
//   be integer", unresolvable) and the pod requests a cpuset of that many CPUs;
// - the pod's numa-topology-spec: its NUMA policy, and singleNUMANodeExclusive (Required when
//   unset).
// A malformed resource-spec or numa-topology-spec is an error naming the annotation.
#pragma once

#include <optional>

#include "extender/framework/pod_info.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_numa_resource {

inline constexpr const char* kErrCPUsMustBeInteger = "the requested CPUs must be integer";

struct PodCPURequest {
  bool skip = false;              // all requests zero
  bool request_cpu_bind = false;  // the pod asked for a cpuset (on any node)
  int num_cpus = 0;               // CPUs of the cpuset, when request_cpu_bind
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  // The policy the cpuset is taken with (FullPCPUs or SpreadByPCPUs when request_cpu_bind).
  api::extension::CPUBindPolicy bind_policy = api::extension::CPUBindPolicy::kDefault;
  // The pod's required policy, nullopt when it set none.
  std::optional<api::extension::CPUBindPolicy> required_policy;
  api::extension::CPUExclusivePolicy exclusive = api::extension::CPUExclusivePolicy::kNone;
  api::extension::NUMATopologyPolicy numa_policy = api::extension::NUMATopologyPolicy::kNone;
  api::extension::NumaTopologyExclusive numa_exclusive =
      api::extension::NumaTopologyExclusive::kRequired;
};

// Koordinator's AllowUseCPUSet.
[[nodiscard]] bool allowUseCPUSet(const framework::PodInfo& pod);

// The request of `pod`; kInvalidArgument for a malformed annotation, kFailedPrecondition with
// kErrCPUsMustBeInteger for a fractional cpu request that needs a cpuset.
[[nodiscard]] Result<PodCPURequest> podCPURequest(const framework::PodInfo& pod,
                                                  api::extension::CPUBindPolicy default_policy);

// Koordinator's requestCPUBind(): whether the pod gets a cpuset on a node with `node_policy`: it
// asked for one, or the node binds every integer-CPU pod (FullPCPUsOnly, SpreadByPCPUs). Sets
// request_cpu_bind and num_cpus in `request` in the second case; kFailedPrecondition with
// kErrCPUsMustBeInteger for a fractional cpu request there.
[[nodiscard]] Result<bool> requestsCPUBindOn(PodCPURequest& request,
                                             api::extension::NodeCPUBindPolicy node_policy);

}  // namespace koord::extender::plugins::node_numa_resource
