// What CPU suppress reads from the node's pods and the metric cache for one run.
//
// Usage is each series' newest sample when it is at most `freshness` old at the pass's time
// (koordlet's "last" query over twice the collect interval); an older series counts as absent.
// Pods are split as koordlet's NonBEPodFilter does: a pod is BE when its koordinator.sh/qosClass
// label says BE or its Kubernetes QoS class is BestEffort; pods with usage but no pod object (just
// deleted, not yet listed) count as non-BE. Host applications: koord-agent does not collect their
// usage, so they count 0 here and their usage is part of the system usage.
//
// Pure functions over their arguments; thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "agent/qosmanager/framework/metric_windows.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

// koordlet's !NonBEPodFilter: the koordinator.sh/qosClass label is BE, or status.qosClass is
// BestEffort.
[[nodiscard]] bool isBePod(const api::core::Pod& pod);

struct UsageSnapshot {
  std::optional<double> node_cores;  // kNodeCpu; nullopt when absent or stale
  double ls_cores = 0;               // Σ fresh kPodCpu of non-BE pods (and unknown pods)
  double be_cores = 0;               // Σ fresh kPodCpu of BE pods
  double system_cores = 0;  // kSystemCpu when fresh, else node − Σ fresh pods; at least 0
  size_t pods = 0;          // pods with a fresh sample
};

[[nodiscard]] UsageSnapshot collectUsage(const framework::MetricWindows& metrics,
                                         const resourceexecutor::PodCgroups& pods,
                                         std::chrono::milliseconds freshness);

// The CPUs of LSE and LSR pods that are not terminal, from their
// scheduling.koordinator.sh/resource-status cpuset; a pod whose annotation does not parse is
// named in `problems` and its CPUs are unknown.
struct ExclusiveCpus {
  cpuset::CpuSet cpus;
  std::vector<std::string> problems;
};

[[nodiscard]] ExclusiveCpus lseLsrCpus(const resourceexecutor::PodCgroups& pods);

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
