#include "manager/descheduler/plugins/spreading/pod_anti_affinity.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/selectors.hpp"
#include "manager/descheduler/framework/go_sort.hpp"

namespace koord::manager::descheduler::plugins::spreading {

namespace podantiaffinity_detail {

using api::core::LabelSelector;
using api::core::Node;
using api::core::Pod;
using framework::PodPtr;

constexpr std::string_view kArgsName = "RemovePodsViolatingInterPodAntiAffinityArgs";
constexpr const char* kPreferNoEvictionAnnotation =
    "descheduler.alpha.kubernetes.io/prefer-no-eviction";

struct Term {
  std::optional<LabelSelector> selector;  // nullopt: matches nothing
  std::vector<std::string> namespaces;
  std::string topology_key;
};

// The required anti-affinity terms of `pod`; terms that do not decode are skipped.
std::vector<Term> requiredTerms(const Pod& pod) {
  std::vector<Term> terms;
  if (!pod.spec.affinity.has_value()) {
    return terms;
  }
  const nlohmann::json& anti = pod.spec.affinity->podAntiAffinity;
  if (!anti.is_object()) {
    return terms;
  }
  auto it = anti.find("requiredDuringSchedulingIgnoredDuringExecution");
  if (it == anti.end() || !it->is_array()) {
    return terms;
  }
  for (const auto& raw : *it) {
    if (!raw.is_object()) {
      continue;
    }
    Term term;
    if (auto sel = raw.find("labelSelector"); sel != raw.end() && !sel->is_null()) {
      LabelSelector selector;
      if (!api::core::fromJson(*sel, selector, "labelSelector").isOk()) {
        continue;
      }
      term.selector = std::move(selector);
    }
    if (auto ns = raw.find("namespaces"); ns != raw.end() && ns->is_array()) {
      for (const auto& name : *ns) {
        if (name.is_string()) {
          term.namespaces.push_back(name.get<std::string>());
        }
      }
    }
    if (auto key = raw.find("topologyKey"); key != raw.end() && key->is_string()) {
      term.topology_key = key->get<std::string>();
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

bool sameTopology(const Node& a, const Node& b, const std::string& key) {
  if (a.metadata.name == b.metadata.name) {
    return true;
  }
  auto va = a.metadata.labels.find(key);
  auto vb = b.metadata.labels.find(key);
  return va != a.metadata.labels.end() && vb != b.metadata.labels.end() && va->second == vb->second;
}

// Every matchLabels pair of `selector` is among `labels`: a quick necessary condition for the
// selector to match.
bool hasMatchLabels(const LabelSelector& selector, const api::core::StringMap& labels) {
  for (const auto& [key, value] : selector.matchLabels) {
    auto label = labels.find(key);
    if (label == labels.end() || label->second != value) {
      return false;
    }
  }
  return true;
}

using NodeMap = std::unordered_map<std::string, const Node*>;
using PodsByNamespace = std::map<std::string, std::vector<PodPtr>>;

// The pods of a namespace that carry one label value, grouped on first use per (namespace, key)
// from the namespace's current pods and kept in step with removals. A selector with matchLabels
// can only match pods of the group of its first pair, so searching that group finds the same
// conflicts as searching the whole namespace.
class LabelIndex {
 public:
  explicit LabelIndex(const PodsByNamespace& by_namespace) : by_namespace_(by_namespace) {}

  // The group, or nullptr when no pod of `ns` has key=value.
  const std::vector<PodPtr>* pods(const std::string& ns, const std::string& key,
                                  const std::string& value) {
    auto [entry, added] = groups_.try_emplace({ns, key});
    if (added) {
      if (auto pods = by_namespace_.find(ns); pods != by_namespace_.end()) {
        for (const PodPtr& pod : pods->second) {
          if (auto label = pod->metadata.labels.find(key); label != pod->metadata.labels.end()) {
            entry->second[label->second].push_back(pod);
          }
        }
      }
    }
    auto group = entry->second.find(value);
    return group == entry->second.end() ? nullptr : &group->second;
  }

  void remove(const PodPtr& pod) {
    for (auto& [ns_key, groups] : groups_) {
      if (ns_key.first != pod->metadata.namespace_) {
        continue;
      }
      auto label = pod->metadata.labels.find(ns_key.second);
      if (label == pod->metadata.labels.end()) {
        continue;
      }
      if (auto group = groups.find(label->second); group != groups.end()) {
        auto found = std::find(group->second.begin(), group->second.end(), pod);
        if (found != group->second.end()) {
          group->second.erase(found);  // one entry, as removeFromNamespace removes one
        }
      }
    }
  }

 private:
  const PodsByNamespace& by_namespace_;
  std::map<std::pair<std::string, std::string>,
           std::unordered_map<std::string, std::vector<PodPtr>>>
      groups_;
};

// utils.CheckPodsWithAntiAffinityExist.
bool hasConflict(const Pod& candidate, const PodsByNamespace& by_namespace, LabelIndex& index,
                 const NodeMap& nodes) {
  auto own = nodes.find(candidate.spec.nodeName);
  if (own == nodes.end()) {
    return false;
  }
  for (const Term& term : requiredTerms(candidate)) {
    if (!term.selector.has_value()) {
      continue;  // a nil selector selects nothing
    }
    if (!api::core::validateLabelSelector(*term.selector).isOk()) {
      return false;  // as the community code, an unusable selector ends the check
    }
    std::vector<std::string> namespaces = term.namespaces;
    if (namespaces.empty()) {
      namespaces.push_back(candidate.metadata.namespace_);
    }
    std::sort(namespaces.begin(), namespaces.end());
    namespaces.erase(std::unique(namespaces.begin(), namespaces.end()), namespaces.end());
    for (const std::string& ns : namespaces) {
      const std::vector<PodPtr>* pods = nullptr;
      if (!term.selector->matchLabels.empty()) {
        const auto& [key, value] = *term.selector->matchLabels.begin();
        pods = index.pods(ns, key, value);
      } else if (auto all = by_namespace.find(ns); all != by_namespace.end()) {
        pods = &all->second;
      }
      if (pods == nullptr) {
        continue;
      }
      for (const PodPtr& other : *pods) {
        if (other->metadata.name == candidate.metadata.name) {
          continue;
        }
        if (!hasMatchLabels(*term.selector, other->metadata.labels)) {
          continue;  // the selector's matchLabels would refuse it too
        }
        auto matched = api::core::matchesLabelSelector(*term.selector, other->metadata.labels);
        if (!matched.ok() || !*matched) {
          continue;
        }
        auto other_node = nodes.find(other->spec.nodeName);
        if (other_node == nodes.end()) {
          continue;
        }
        if (sameTopology(*own->second, *other_node->second, term.topology_key)) {
          return true;
        }
      }
    }
  }
  return false;
}

// Removes the first pod of the namespace named like `pod`; returns it (nullptr when none).
PodPtr removeFromNamespace(const Pod& pod, PodsByNamespace& by_namespace) {
  auto it = by_namespace.find(pod.metadata.namespace_);
  if (it == by_namespace.end()) {
    return nullptr;
  }
  auto& pods = it->second;
  auto found = std::find_if(pods.begin(), pods.end(),
                            [&](const PodPtr& p) { return p->metadata.name == pod.metadata.name; });
  if (found == pods.end()) {
    return nullptr;
  }
  PodPtr removed = *found;
  pods.erase(found);
  return removed;
}

bool lowerPriorityFirst(const PodPtr& a, const PodPtr& b) {
  const auto& pa = a->spec.priority;
  const auto& pb = b->spec.priority;
  if (!pa.has_value() && pb.has_value()) {
    return true;
  }
  if (!pb.has_value() && pa.has_value()) {
    return false;
  }
  if (!pa.has_value() || *pa == *pb) {
    const api::core::QosClass qa = api::core::podQosClass(*a);
    const api::core::QosClass qb = api::core::podQosClass(*b);
    if (qa == qb) {
      if (!a->metadata.annotations.contains(kPreferNoEvictionAnnotation)) {
        return true;
      }
      if (!b->metadata.annotations.contains(kPreferNoEvictionAnnotation)) {
        return false;
      }
      return true;
    }
    if (qa == api::core::QosClass::kBestEffort) {
      return true;
    }
    return qa == api::core::QosClass::kBurstable && qb == api::core::QosClass::kGuaranteed;
  }
  return *pa < *pb;
}

}  // namespace podantiaffinity_detail

void sortPodsByPriorityLowToHigh(std::vector<framework::PodPtr>& pods) {
  framework::goSortSlice(pods, podantiaffinity_detail::lowerPriorityFirst);
}

Result<PodScope> decodeRemovePodsViolatingInterPodAntiAffinityArgs(const nlohmann::json& args) {
  using podantiaffinity_detail::kArgsName;
  KOORD_RETURN_IF_ERROR(checkArgsKeys(args, kArgsName, {"namespaces", "labelSelector"}));
  PodScope scope;
  KOORD_RETURN_IF_ERROR(decodeNamespaces(args, kArgsName, scope.namespaces));
  KOORD_RETURN_IF_ERROR(decodeLabelSelector(args, kArgsName, scope.label_selector));
  KOORD_RETURN_IF_ERROR(validatePodScope(scope, kArgsName));
  return scope;
}

Status RemovePodsViolatingInterPodAntiAffinity::deschedule(const framework::NodeList& nodes) {
  using namespace podantiaffinity_detail;  // NOLINT(google-build-using-namespace)
  const framework::ClusterSnapshot& snapshot = *handle_.snapshot;
  framework::Evictor& evictor = *handle_.evictor;

  PodsByNamespace by_namespace;
  std::unordered_map<std::string, std::vector<PodPtr>> by_node;
  NodeMap node_map;
  for (const auto& node : nodes) {
    node_map.emplace(node->metadata.name, node.get());
    for (const PodPtr& pod : snapshot.podsOnNode(node->metadata.name)) {
      if (api::core::isPodTerminal(*pod) || !scope_.contains(*pod)) {
        continue;
      }
      by_namespace[pod->metadata.namespace_].push_back(pod);
      by_node[pod->spec.nodeName].push_back(pod);
    }
  }

  LabelIndex index(by_namespace);
  for (const auto& node : nodes) {
    std::vector<PodPtr> pods = by_node[node->metadata.name];
    sortPodsByPriorityLowToHigh(pods);
    for (size_t i = 0; i < pods.size();) {
      const PodPtr pod = pods[i];
      if (!hasConflict(*pod, by_namespace, index, node_map) || !evictor.filter(*pod) ||
          !evictor.preEvictionFilter(*pod)) {
        ++i;
        continue;
      }
      framework::EvictOptions options{std::string(kRemovePodsViolatingInterPodAntiAffinityName),
                                      ""};
      if (evictor.evict(*pod, options)) {
        if (PodPtr removed = removeFromNamespace(*pod, by_namespace)) {
          index.remove(removed);
        }
        pods.erase(pods.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
      if (evictor.nodeLimitExceeded(*node)) {
        break;
      }
      ++i;
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemovePodsViolatingInterPodAntiAffinity(
    const nlohmann::json& args, framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(PodScope scope, decodeRemovePodsViolatingInterPodAntiAffinityArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<RemovePodsViolatingInterPodAntiAffinity>(std::move(scope), handle));
}

}  // namespace koord::manager::descheduler::plugins::spreading
