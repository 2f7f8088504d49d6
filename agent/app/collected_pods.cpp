#include "agent/app/collected_pods.hpp"

namespace koord::agent::app {

std::shared_ptr<const std::vector<metricsadvisor::PodCgroup>> collectedPods(
    const resourceexecutor::PodCgroups& pods) {
  auto out = std::make_shared<std::vector<metricsadvisor::PodCgroup>>();
  for (const resourceexecutor::PodCgroup& pod : pods.pods()) {
    if (pod.terminal() || !pod.dir.ok()) {
      continue;
    }
    metricsadvisor::PodCgroup entry;
    entry.uid = pod.pod->metadata.uid;
    entry.pod_namespace = pod.pod->metadata.namespace_;
    entry.name = pod.pod->metadata.name;
    entry.cgroup_dir = pod.dir->string();
    for (const resourceexecutor::ContainerCgroup& container : pod.containers) {
      if (container.dir.ok()) {
        entry.containers.push_back({container.id, container.name, container.dir->string()});
      }
    }
    out->push_back(std::move(entry));
  }
  return out;
}

}  // namespace koord::agent::app
