#include "manager/descheduler/plugins/utilization/eviction.hpp"

#include <map>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/taints.hpp"
#include "manager/descheduler/framework/go_sort.hpp"

namespace koord::manager::descheduler::utilization {

namespace utileviction_detail {

using api::core::Pod;
using api::core::QosClass;
using api::core::Taint;

inline constexpr char kPreferNoEvictionAnnotation[] =
    "descheduler.alpha.kubernetes.io/prefer-no-eviction";

using TaintsByNode = std::map<std::string, std::vector<Taint>>;

// utils.PodToleratesTaints: some destination node has no more taints than the pod has
// tolerations, and the pod tolerates all of them.
bool toleratesSomeNode(const Pod& pod, const TaintsByNode& taints_by_node) {
  for (const auto& [name, taints] : taints_by_node) {
    if (pod.spec.tolerations.size() < taints.size())
      continue;
    bool all = true;
    for (const auto& taint : taints) {
      all = all && api::core::tolerationsTolerateTaint(pod.spec.tolerations, taint);
    }
    if (all)
      return true;
  }
  return false;
}

// The descheduler's GetPodQOS: status.qosClass when set (an unknown value is no class at all),
// else computed.
std::optional<QosClass> qosOf(const Pod& pod) {
  if (!pod.status.qosClass.empty())
    return api::core::parseQosClass(pod.status.qosClass);
  return api::core::computePodQosClass(pod);
}

bool hasPreferNoEviction(const Pod& pod) {
  return pod.metadata.annotations.contains(kPreferNoEvictionAnnotation);
}

// The community's comparator, including its answer "true" both ways for two pods of one class
// without the prefer-no-eviction annotation.
bool lowerPriorityFirst(const Pod& a, const Pod& b) {
  if (!a.spec.priority && b.spec.priority)
    return true;
  if (!b.spec.priority && a.spec.priority)
    return false;
  if ((!a.spec.priority && !b.spec.priority) || *a.spec.priority == *b.spec.priority) {
    const auto qa = qosOf(a);
    const auto qb = qosOf(b);
    if (qa && qa == qb) {
      if (!hasPreferNoEviction(a))
        return true;
      if (!hasPreferNoEviction(b))
        return false;
      return true;
    }
    if (qa == QosClass::kBestEffort)
      return true;
    return qa == QosClass::kBurstable && qb == QosClass::kGuaranteed;
  }
  return *a.spec.priority < *b.spec.priority;
}

void subtractPod(Usage& total_available, NodeInfo& node, const Usage& pod_usage) {
  for (auto& [name, available] : total_available) {
    resource::Quantity amount = resource::Quantity::fromInt(1);
    if (name != kResourcePods) {
      auto it = pod_usage.find(name);
      amount = it == pod_usage.end() ? resource::Quantity() : it->second;
    }
    auto& used = node.usage.usage[name];
    used = used.sub(amount).valueOr(used);
    available = available.sub(amount).valueOr(available);
  }
}

// evictPods for one source node.
void evictFromNode(const std::vector<framework::PodPtr>& pods, NodeInfo& node,
                   Usage& total_available, const TaintsByNode& destination_taints,
                   const EvictionRequest& request, const log::Logger& logger) {
  if (!request.keep_going(node, total_available))
    return;
  uint64_t evicted = 0;
  for (const auto& pod : pods) {
    if (request.node_limit && evicted >= *request.node_limit)
      break;
    if (!toleratesSomeNode(*pod, destination_taints))
      continue;
    if (request.excluded_namespaces.contains(pod->metadata.namespace_))
      continue;
    if (!request.evictor->preEvictionFilter(*pod))
      continue;
    const Usage pod_usage = podUsage(*pod, request.resource_names);
    if (!request.evictor->evict(*pod, framework::EvictOptions{request.plugin, ""})) {
      if (request.evictor->nodeLimitExceeded(*node.usage.node))
        return;
      continue;
    }
    ++evicted;
    logger.debug("evicted pod", {{"pod", pod->metadata.name},
                                 {"namespace", pod->metadata.namespace_},
                                 {"node", node.usage.node->metadata.name}});
    subtractPod(total_available, node, pod_usage);
    if (!request.keep_going(node, total_available))
      break;
  }
}

}  // namespace utileviction_detail

void sortPodsByPriorityLowToHigh(std::vector<framework::PodPtr>& pods) {
  framework::goSortSlice(pods, [](const framework::PodPtr& a, const framework::PodPtr& b) {
    return utileviction_detail::lowerPriorityFirst(*a, *b);
  });
}

void sortNodesByUsage(std::vector<NodeInfo>& nodes, bool ascending) {
  framework::goSortSlice(nodes, [ascending](const NodeInfo& a, const NodeInfo& b) {
    const int64_t ka = usageSortKey(a.usage.usage);
    const int64_t kb = usageSortKey(b.usage.usage);
    return ascending ? ka < kb : ka > kb;
  });
}

bool requestsAnyOf(const api::core::Pod& pod, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    for (const auto* list : {&pod.spec.containers, &pod.spec.initContainers}) {
      for (const auto& container : *list) {
        if (container.resources.requests.contains(name))
          return true;
      }
    }
  }
  return false;
}

void evictPodsFromSourceNodes(std::vector<NodeInfo>& sources,
                              const std::vector<NodeInfo>& destinations,
                              const EvictionRequest& request, const log::Logger& logger) {
  Usage total_available;
  for (const auto& node : destinations) {
    for (const auto& name : request.resource_names) {
      auto used = node.usage.usage.find(name);
      auto avail = node.available.find(name);
      if (used == node.usage.usage.end() || avail == node.available.end()) {
        logger.error("unable to assess available resources in nodes",
                     {{"resource", name}, {"node", node.usage.node->metadata.name}});
        return;
      }
      auto& total = total_available[name];
      total = total.add(avail->second).valueOr(total);
      total = total.sub(used->second).valueOr(total);
    }
  }
  utileviction_detail::TaintsByNode destination_taints;
  for (const auto& node : destinations) {
    destination_taints[node.usage.node->metadata.name] = node.usage.node->spec.taints;
  }
  for (auto& node : sources) {
    std::vector<framework::PodPtr> removable;
    for (const auto& pod : node.usage.pods) {
      if (request.candidate_filter(*pod))
        removable.push_back(pod);
    }
    if (removable.empty())
      continue;
    sortPodsByPriorityLowToHigh(removable);
    utileviction_detail::evictFromNode(removable, node, total_available, destination_taints,
                                       request, logger);
  }
}

}  // namespace koord::manager::descheduler::utilization
