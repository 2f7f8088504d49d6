#include "agent/qosmanager/strategies/cpu_suppress/be_cgroups.hpp"

#include "agent/qosmanager/strategies/cpu_suppress/suppress_inputs.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

using resourceexecutor::CgroupResource;
using resourceexecutor::ResourceUpdate;

cpuset::CpuSet bePool(const system::CpuPools& cpus, const system::CpuTopology& topology) {
  if (!cpus.be_pool.empty()) {
    return cpus.be_pool;
  }
  if (!cpus.online.empty()) {
    return cpus.online;
  }
  return system::onlineCpus(topology);
}

CgroupUpdates beCpusetUpdates(const resourceexecutor::KubeletCgroupNaming& naming,
                              const resourceexecutor::PodCgroups& pods, const cpuset::CpuSet& cpus,
                              const std::string& reason) {
  CgroupUpdates out;
  const std::string value = cpus.toString();
  out.updates.push_back(ResourceUpdate{
      CgroupResource::kCpusetCpus,
      resourceexecutor::qosDir(naming, api::core::QosClass::kBestEffort), value, reason});
  for (const resourceexecutor::PodCgroup& pod : pods.pods()) {
    if (!isBePod(*pod.pod)) {
      continue;
    }
    const std::string who = pod.pod->metadata.namespace_ + "/" + pod.pod->metadata.name;
    if (!pod.dir.ok()) {
      out.problems.push_back(who + ": " + pod.dir.status().message());
      continue;
    }
    out.updates.push_back(ResourceUpdate{CgroupResource::kCpusetCpus, *pod.dir, value, reason});
    for (const resourceexecutor::ContainerCgroup& container : pod.containers) {
      if (!container.dir.ok()) {
        out.problems.push_back(who + ": " + container.dir.status().message());
        continue;
      }
      out.updates.push_back(
          ResourceUpdate{CgroupResource::kCpusetCpus, *container.dir, value, reason});
    }
  }
  return out;
}

ResourceUpdate beQuotaUpdate(const resourceexecutor::KubeletCgroupNaming& naming, int64_t quota_us,
                             std::string reason) {
  return ResourceUpdate{CgroupResource::kCpuCfsQuota,
                        resourceexecutor::qosDir(naming, api::core::QosClass::kBestEffort),
                        std::to_string(quota_us), std::move(reason)};
}

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
