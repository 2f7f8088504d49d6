// The cgroup settings the runtime reconciler wants for the pods on the node, from their QoS
// class and annotations (a pure function: no I/O). This is what koordlet's runtime hooks
// (cpuset, batchresource) compute in standalone mode.
//
// Per container (its cgroup folder from PodCgroups, found by the containerID in
// status.containerStatuses; containers that have not started yet are skipped), by Koordinator QoS
// class (the koordinator.sh/qosClass label; without it, Koordinator's default for the Kubernetes
// QoS class: Guaranteed LSR, Burstable LS, BestEffort BE; an unlabelled Guaranteed pod has no
// resource-status, so its cpuset stays the kubelet's):
// - LSE, LSR, and LS with a cpuset (a node whose cpu-bind-policy binds every integer-CPU pod gives
//   one): cpuset.cpus = scheduling.koordinator.sh/resource-status's cpuset restricted to
//   the node's CPUs (node_cpus; CPUs the node does not have are ignored, and a cpuset with none of
//   its CPUs is a problem: the pod's cpuset and quota are left alone), and the CFS quota unset
//   (-1) on the container and the pod, since the cpuset bounds them;
// - LS without one: cpuset.cpus = the node's shared pool;
// - BE: cpuset.cpus = the BE shared pool; cpu.shares from the kubernetes.io/batch-cpu request
//   (milli-cores × 1024 / 1000, at least 2), CFS quota from the batch-cpu limit (milli-cores ×
//   period / 1000; -1 without a limit), memory limit from the kubernetes.io/batch-memory limit
//   (-1 without one); the pod's cgroup gets the sums (-1 when any container is unlimited).
// An empty cpuset.cpus is never written: an empty pool leaves the cpusets alone.
// SYSTEM pods and pods in a terminal phase are left alone. A pod whose cgroup path cannot be
// built (an unknown QoS class, a malformed container ID) is skipped and named in `problems`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "agent/resourceexecutor/resource_executor.hpp"
#include "agent/system/cpu_pools.hpp"

namespace koord::agent::runtimehooks {

struct PodPlanInputs {
  // The node's pods with their cgroup folders, as the daemon resolved them for this pass.
  resourceexecutor::PodCgroups pods;
  // shared_pool for LS containers and be_pool for BE containers (empty: leave those cpusets
  // alone); online, the node's CPUs (empty: not known, cpusets not checked).
  system::CpuPools cpus;
  int64_t cfs_period_us = 100000;
};

struct PodPlan {
  std::vector<resourceexecutor::ResourceUpdate> updates;
  std::vector<std::string> problems;  // "<ns>/<name>: <why it was skipped>"
};

[[nodiscard]] PodPlan planPodResources(const PodPlanInputs& inputs);

}  // namespace koord::agent::runtimehooks
