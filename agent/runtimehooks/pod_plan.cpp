#include "agent/runtimehooks/pod_plan.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/well_known.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::agent::runtimehooks {

namespace {

using resourceexecutor::CgroupResource;
using resourceexecutor::ResourceUpdate;

constexpr int64_t kMinShares = 2;
constexpr int64_t kMaxShares = 262144;

// The batch quantity of a container (milli-cores for batch-cpu, bytes for batch-memory), with
// the deprecated koordinator.sh/ names as a fallback; nullopt when absent.
std::optional<int64_t> batch(const resource::ResourceList& list, std::string_view name,
                             std::string_view deprecated) {
  for (std::string_view key : {name, deprecated}) {
    auto it = list.find(key);
    if (it != list.end()) {
      return it->second.value();
    }
  }
  return std::nullopt;
}

struct Planner {
  const PodPlanInputs& in;
  PodPlan plan;

  // Updates of the current pod: its own cgroup's and its containers'.
  std::vector<ResourceUpdate> pod_level;
  std::vector<ResourceUpdate> container_level;

  void add(CgroupResource resource, const std::filesystem::path& dir, std::string value,
           const std::string& reason, bool for_pod) {
    (for_pod ? pod_level : container_level).push_back({resource, dir, std::move(value), reason});
  }

  // The pod's updates go both before and after its containers'. Under cgroup v1 the kernel
  // refuses a child CFS quota above its parent's: raising works parent first, lowering children
  // first. The executor's cache skips the second write when the first one succeeded, and the
  // second succeeds once the containers were lowered, so either way one pass converges.
  void flush() {
    plan.updates.insert(plan.updates.end(), pod_level.begin(), pod_level.end());
    plan.updates.insert(plan.updates.end(), container_level.begin(), container_level.end());
    plan.updates.insert(plan.updates.end(), pod_level.begin(), pod_level.end());
    pod_level.clear();
    container_level.clear();
  }

  void pod(const resourceexecutor::PodCgroup& cgroups) {
    const api::core::Pod& pod = *cgroups.pod;
    const std::string who = pod.metadata.namespace_ + "/" + pod.metadata.name;
    const api::QoSClass qos = api::qosClassWithDefault(pod.metadata.labels, pod.status.qosClass);
    if (qos == api::QoSClass::kSystem) {
      return;
    }
    const Result<std::filesystem::path>& pod_dir = cgroups.dir;
    if (!pod_dir.ok()) {
      plan.problems.push_back(who + ": " + pod_dir.status().message());
      return;
    }
    std::optional<cpuset::CpuSet> cpus;
    std::string reason;
    // A resource-status cpuset wins for every QoS but BE: LSE and LSR pods get one from the
    // scheduler, and so does an LS pod on a node whose cpu-bind-policy binds every integer-CPU pod.
    bool from_status = false;
    if (qos == api::QoSClass::kLSE || qos == api::QoSClass::kLSR || qos == api::QoSClass::kLS) {
      auto it = pod.metadata.annotations.find(std::string(api::kAnnotationResourceStatus));
      if (it != pod.metadata.annotations.end()) {
        auto status = api::extension::parseResourceStatus(it->second);
        if (!status.ok()) {
          plan.problems.push_back(who + ": " + status.status().message());
          return;
        }
        if (!status->cpuset.empty()) {
          auto parsed = cpuset::CpuSet::parse(status->cpuset);
          if (!parsed.ok()) {
            plan.problems.push_back(who + ": " + parsed.status().message());
            return;
          }
          const cpuset::CpuSet on_node =
              in.cpus.online.empty() ? *parsed : parsed->intersection(in.cpus.online);
          if (on_node.empty()) {
            plan.problems.push_back(who + ": resource-status cpuset '" + status->cpuset +
                                    "' names no CPU of this node (" + in.cpus.online.toString() +
                                    "); its cpuset is left alone");
          } else {
            cpus = on_node;
            from_status = true;
            reason = std::string(api::toString(qos)) + " pod: cpuset from resource-status";
          }
        }
      }
    }
    if (!from_status && (qos == api::QoSClass::kLS || qos == api::QoSClass::kBE)) {
      const bool ls = qos == api::QoSClass::kLS;
      const cpuset::CpuSet& pool = ls ? in.cpus.shared_pool : in.cpus.be_pool;
      const cpuset::CpuSet on_node =
          in.cpus.online.empty() ? pool : pool.intersection(in.cpus.online);
      if (!on_node.empty()) {
        cpus = on_node;
        reason = ls ? "LS pod: the shared pool" : "BE pod: the BE shared pool";
      }
    }
    const bool pinned = from_status;
    if (pinned) {
      add(CgroupResource::kCpuCfsQuota, *pod_dir, "-1", reason + ", CFS quota unset", true);
    }
    int64_t shares_sum = 0;
    int64_t quota_sum = 0;
    int64_t memory_sum = 0;
    bool quota_unlimited = false;
    bool memory_unlimited = false;
    for (const api::core::Container& container : pod.spec.containers) {
      std::optional<int64_t> cpu_request = batch(
          container.resources.requests, api::kResourceBatchCPU, api::kDeprecatedResourceBatchCPU);
      std::optional<int64_t> cpu_limit = batch(container.resources.limits, api::kResourceBatchCPU,
                                               api::kDeprecatedResourceBatchCPU);
      std::optional<int64_t> memory_limit =
          batch(container.resources.limits, api::kResourceBatchMemory,
                api::kDeprecatedResourceBatchMemory);
      const int64_t shares =
          std::clamp<int64_t>(cpu_request.value_or(0) * 1024 / 1000, kMinShares, kMaxShares);
      const int64_t quota = cpu_limit ? *cpu_limit * in.cfs_period_us / 1000 : -1;
      shares_sum += shares;
      quota_sum += std::max<int64_t>(quota, 0);
      quota_unlimited = quota_unlimited || !cpu_limit;
      memory_sum += memory_limit.value_or(0);
      memory_unlimited = memory_unlimited || !memory_limit;

      const resourceexecutor::ContainerCgroup* started = cgroups.container(container.name);
      if (started == nullptr) {
        continue;
      }
      const Result<std::filesystem::path>& dir = started->dir;
      if (!dir.ok()) {
        plan.problems.push_back(who + ": " + dir.status().message());
        continue;
      }
      if (cpus && !cpus->empty()) {
        add(CgroupResource::kCpusetCpus, *dir, cpus->toString(), reason, false);
      }
      if (pinned) {
        add(CgroupResource::kCpuCfsQuota, *dir, "-1", reason + ", CFS quota unset", false);
      }
      if (qos == api::QoSClass::kBE) {
        add(CgroupResource::kCpuShares, *dir, std::to_string(shares), "BE pod: batch-cpu request",
            false);
        add(CgroupResource::kCpuCfsQuota, *dir, std::to_string(quota), "BE pod: batch-cpu limit",
            false);
        add(CgroupResource::kMemoryLimit, *dir, std::to_string(memory_limit ? *memory_limit : -1),
            "BE pod: batch-memory limit", false);
      }
    }
    if (qos == api::QoSClass::kBE && !pod.spec.containers.empty()) {
      add(CgroupResource::kCpuShares, *pod_dir,
          std::to_string(std::clamp<int64_t>(shares_sum, kMinShares, kMaxShares)),
          "BE pod: sum of batch-cpu requests", true);
      add(CgroupResource::kCpuCfsQuota, *pod_dir, std::to_string(quota_unlimited ? -1 : quota_sum),
          "BE pod: sum of batch-cpu limits", true);
      add(CgroupResource::kMemoryLimit, *pod_dir,
          std::to_string(memory_unlimited ? -1 : memory_sum), "BE pod: sum of batch-memory limits",
          true);
    }
  }
};

}  // namespace

PodPlan planPodResources(const PodPlanInputs& inputs) {
  Planner planner{inputs, {}, {}, {}};
  for (const resourceexecutor::PodCgroup& pod : inputs.pods.pods()) {
    if (pod.terminal()) {
      continue;
    }
    planner.pod(pod);
    planner.flush();
  }
  return std::move(planner.plan);
}

}  // namespace koord::agent::runtimehooks
