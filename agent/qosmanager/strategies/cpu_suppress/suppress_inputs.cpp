#include "agent/qosmanager/strategies/cpu_suppress/suppress_inputs.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

using metriccache::MetricKind;

}  // namespace

bool isBePod(const api::core::Pod& pod) {
  return api::qosClassOf(pod.metadata.labels) == api::QoSClass::kBE ||
         pod.status.qosClass == "BestEffort";
}

UsageSnapshot collectUsage(const framework::MetricWindows& metrics,
                           const resourceexecutor::PodCgroups& pods,
                           std::chrono::milliseconds freshness) {
  UsageSnapshot out;
  out.node_cores = metrics.fresh(MetricKind::kNodeCpu, "", freshness);
  std::map<std::string_view, const api::core::Pod*> by_uid;
  for (const resourceexecutor::PodCgroup& pod : pods.pods()) {
    by_uid[pod.pod->metadata.uid] = pod.pod.get();
  }
  double all_pods = 0;
  for (const std::string& uid : metrics.cache().ids(MetricKind::kPodCpu)) {
    auto usage = metrics.fresh(MetricKind::kPodCpu, uid, freshness);
    if (!usage.has_value()) {
      continue;
    }
    ++out.pods;
    all_pods += *usage;
    auto it = by_uid.find(uid);
    if (it != by_uid.end() && isBePod(*it->second)) {
      out.be_cores += *usage;
    } else {
      out.ls_cores += *usage;
    }
  }
  if (auto system = metrics.fresh(MetricKind::kSystemCpu, "", freshness); system.has_value()) {
    out.system_cores = std::max(*system, 0.0);
  } else if (out.node_cores.has_value()) {
    out.system_cores = std::max(*out.node_cores - all_pods, 0.0);
  }
  return out;
}

ExclusiveCpus lseLsrCpus(const resourceexecutor::PodCgroups& pods) {
  ExclusiveCpus out;
  for (const resourceexecutor::PodCgroup& cgroup : pods.pods()) {
    const api::core::Pod& pod = *cgroup.pod;
    const api::QoSClass qos = api::qosClassWithDefault(pod.metadata.labels, pod.status.qosClass);
    if (cgroup.terminal() || (qos != api::QoSClass::kLSE && qos != api::QoSClass::kLSR)) {
      continue;
    }
    auto it = pod.metadata.annotations.find(std::string(api::kAnnotationResourceStatus));
    if (it == pod.metadata.annotations.end()) {
      continue;
    }
    const std::string who = pod.metadata.namespace_ + "/" + pod.metadata.name;
    auto status = api::extension::parseResourceStatus(it->second);
    if (!status.ok()) {
      out.problems.push_back(who + ": " + status.status().message());
      continue;
    }
    if (status->cpuset.empty()) {
      continue;
    }
    auto cpus = cpuset::CpuSet::parse(status->cpuset);
    if (!cpus.ok()) {
      out.problems.push_back(who + ": " + cpus.status().message());
      continue;
    }
    out.cpus = out.cpus.unionWith(*cpus);
  }
  return out;
}

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
