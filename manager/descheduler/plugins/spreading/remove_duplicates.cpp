#include "manager/descheduler/plugins/spreading/remove_duplicates.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"

namespace koord::manager::descheduler::plugins::spreading {

namespace removeduplicates_detail {

using api::core::Pod;
using framework::NodeList;
using framework::PodPtr;

constexpr std::string_view kArgsName = "RemoveDuplicatesArgs";

struct OwnerKey {
  std::string ns;
  std::string kind;
  std::string name;
  std::string images;

  bool operator<(const OwnerKey& other) const {
    return std::tie(ns, kind, name, images) <
           std::tie(other.ns, other.kind, other.name, other.images);
  }
};

// The duplicates of one owner key, per node, nodes in the order first met.
using PodsByNode = std::vector<std::pair<std::string, std::vector<PodPtr>>>;

void addDuplicate(PodsByNode& by_node, const std::string& node, const PodPtr& pod) {
  for (auto& [name, pods] : by_node) {
    if (name == node) {
      pods.push_back(pod);
      return;
    }
  }
  by_node.emplace_back(node, std::vector<PodPtr>{pod});
}

bool hasExcludedKind(const Pod& pod, const std::vector<std::string>& excluded) {
  return std::any_of(pod.metadata.ownerReferences.begin(), pod.metadata.ownerReferences.end(),
                     [&](const api::core::OwnerReference& ref) {
                       return std::find(excluded.begin(), excluded.end(), ref.kind) !=
                              excluded.end();
                     });
}

std::string imagesHash(const Pod& pod) {
  std::vector<std::string> images;
  for (const auto& container : pod.spec.containers) {
    images.push_back(container.image);
  }
  std::sort(images.begin(), images.end());
  std::string joined;
  for (size_t i = 0; i < images.size(); ++i) {
    joined += (i == 0 ? "" : "#") + images[i];
  }
  return joined;
}

// The nodes where `pod` could land by taints, node selector and required affinity (an affinity
// that cannot be evaluated does not rule a node out, as in the community code).
std::set<std::string> matchingNodes(const Pod& pod, const NodeList& nodes) {
  std::set<std::string> names;
  for (const auto& node : nodes) {
    if (api::core::findUntoleratedSchedulingTaint(pod, *node).has_value()) {
      continue;
    }
    auto match = api::core::matchesRequiredNodeAffinity(pod, *node);
    if (match.ok() && !*match) {
      continue;
    }
    names.insert(node->metadata.name);
  }
  return names;
}

size_t targetNodeCount(const PodsByNode& by_node, const NodeList& nodes) {
  std::set<std::string> targets;
  for (const auto& entry : by_node) {
    for (const auto& pod : entry.second) {
      std::set<std::string> names = matchingNodes(*pod, nodes);
      if (names.size() > 1) {
        targets.insert(names.begin(), names.end());
      }
    }
  }
  return targets.size();
}

}  // namespace removeduplicates_detail

Result<RemoveDuplicatesArgs> decodeRemoveDuplicatesArgs(const nlohmann::json& args) {
  using removeduplicates_detail::kArgsName;
  KOORD_RETURN_IF_ERROR(checkArgsKeys(args, kArgsName, {"namespaces", "excludeOwnerKinds"}));
  RemoveDuplicatesArgs out;
  KOORD_RETURN_IF_ERROR(decodeNamespaces(args, kArgsName, out.namespaces));
  KOORD_RETURN_IF_ERROR(
      decodeStringList(args, kArgsName, "excludeOwnerKinds", out.exclude_owner_kinds));
  KOORD_RETURN_IF_ERROR(validatePodScope(PodScope{out.namespaces, std::nullopt}, kArgsName));
  return out;
}

Status RemoveDuplicates::balance(const framework::NodeList& nodes) {
  using namespace removeduplicates_detail;  // NOLINT(google-build-using-namespace)
  const framework::ClusterSnapshot& snapshot = *handle_.snapshot;
  framework::Evictor& evictor = *handle_.evictor;
  const PodScope scope{args_.namespaces, std::nullopt};

  std::map<OwnerKey, PodsByNode> duplicates;
  std::map<OwnerKey, int> occurrences;
  for (const auto& node : nodes) {
    // First key of a pod's sorted key list -> the key lists already seen on this node.
    std::map<std::string, std::vector<std::vector<std::string>>> seen;
    for (const PodPtr& pod : snapshot.podsOnNode(node->metadata.name)) {
      if (api::core::isPodTerminal(*pod) || !scope.contains(*pod) || !evictor.filter(*pod) ||
          !evictor.preEvictionFilter(*pod)) {
        continue;
      }
      const auto& owners = pod->metadata.ownerReferences;
      if (owners.empty() || hasExcludedKind(*pod, args_.exclude_owner_kinds)) {
        continue;
      }
      const std::string images = imagesHash(*pod);
      std::vector<std::string> sorted_images;
      for (const auto& container : pod->spec.containers) {
        sorted_images.push_back(container.image);
      }
      std::sort(sorted_images.begin(), sorted_images.end());
      std::vector<std::string> keys;
      for (const auto& owner : owners) {
        ++occurrences[OwnerKey{pod->metadata.namespace_, owner.kind, owner.name, images}];
        for (const auto& image : sorted_images) {
          keys.push_back(pod->metadata.namespace_ + "/" + owner.kind + "/" + owner.name + "/" +
                         image);
        }
      }
      if (keys.empty()) {
        continue;  // no containers: nothing to compare (the community code would not get here)
      }
      std::sort(keys.begin(), keys.end());
      auto& lists = seen[keys.front()];
      if (std::find(lists.begin(), lists.end(), keys) == lists.end()) {
        lists.push_back(std::move(keys));
        continue;
      }
      for (const auto& owner : owners) {
        addDuplicate(duplicates[OwnerKey{pod->metadata.namespace_, owner.kind, owner.name, images}],
                     node->metadata.name, pod);
      }
    }
  }

  for (const auto& [key, by_node] : duplicates) {
    const size_t targets = targetNodeCount(by_node, nodes);
    if (targets < 2) {
      handle_.logger.debug("fewer than two feasible nodes for duplicates, skipping",
                           {{"owner", key.ns + "/" + key.kind + "/" + key.name}});
      continue;
    }
    const auto upper_avg = static_cast<size_t>(
        std::ceil(static_cast<double>(occurrences[key]) / static_cast<double>(targets)));
    for (const auto& [node_name, pods] : by_node) {
      if (pods.size() + 1 <= upper_avg) {
        continue;
      }
      const framework::NodePtr node = snapshot.node(node_name);
      for (size_t i = upper_avg - 1; i < pods.size(); ++i) {
        framework::EvictOptions options{std::string(kRemoveDuplicatesName), ""};
        if (!evictor.evict(*pods[i], options) && node != nullptr &&
            evictor.nodeLimitExceeded(*node)) {
          break;
        }
      }
    }
  }
  return Status::ok();
}

Result<std::unique_ptr<framework::Plugin>> createRemoveDuplicates(const nlohmann::json& args,
                                                                  framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(RemoveDuplicatesArgs decoded, decodeRemoveDuplicatesArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<RemoveDuplicates>(std::move(decoded), handle));
}

}  // namespace koord::manager::descheduler::plugins::spreading
