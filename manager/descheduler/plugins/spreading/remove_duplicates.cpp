#include "manager/descheduler/plugins/spreading/remove_duplicates.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

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

// What decides where a pod may land here: its tolerations, node selector and required node
// affinity. Pods equal in all three land on the same nodes (the community code dedupes them too).
struct Placement {
  const std::vector<api::core::Toleration>* tolerations;
  const api::core::StringMap* node_selector;
  const api::core::NodeSelector* required;  // nullptr: none

  explicit Placement(const Pod& pod)
      : tolerations(&pod.spec.tolerations),
        node_selector(&pod.spec.nodeSelector),
        required(pod.spec.affinity && pod.spec.affinity->nodeAffinity &&
                         pod.spec.affinity->nodeAffinity->required
                     ? &*pod.spec.affinity->nodeAffinity->required
                     : nullptr) {}

  [[nodiscard]] bool sameAs(const Placement& other) const {
    return *tolerations == *other.tolerations && *node_selector == *other.node_selector &&
           (required == nullptr ? other.required == nullptr
                                : other.required != nullptr && *required == *other.required);
  }
};

// The nodes where pods of one placement could land (by taints, node selector and required
// affinity; an affinity that cannot be evaluated does not rule a node out, as in the community
// code), as flags over the distinct node names of the pass, computed once per placement.
class TargetNodes {
 public:
  explicit TargetNodes(const NodeList& nodes) : nodes_(nodes) {
    std::unordered_map<std::string, size_t> first;
    slot_.reserve(nodes.size());
    for (const auto& node : nodes) {
      slot_.push_back(first.emplace(node->metadata.name, first.size()).first->second);
    }
    names_ = first.size();
  }

  // How many distinct nodes some pod of `pods` could land on, counting only the pods that could
  // land on more than one (the community's getTargetNodes).
  size_t count(const PodsByNode& by_node) {
    std::vector<char> targets(names_, 0);
    for (const auto& entry : by_node) {
      for (const auto& pod : entry.second) {
        const std::vector<char>& fits = matching(*pod);
        if (std::count(fits.begin(), fits.end(), 1) <= 1) {
          continue;
        }
        for (size_t i = 0; i < names_; ++i) {
          targets[i] = static_cast<char>(targets[i] | fits[i]);
        }
      }
    }
    return static_cast<size_t>(std::count(targets.begin(), targets.end(), 1));
  }

 private:
  const std::vector<char>& matching(const Pod& pod) {
    const Placement placement(pod);
    for (const auto& [seen, fits] : cache_) {
      if (seen.sameAs(placement)) {
        return fits;
      }
    }
    std::vector<char> fits(names_, 0);
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const api::core::Node& node = *nodes_[i];
      if (api::core::findUntoleratedSchedulingTaint(pod, node).has_value()) {
        continue;
      }
      auto match = api::core::matchesRequiredNodeAffinity(pod, node);
      if (match.ok() && !*match) {
        continue;
      }
      fits[slot_[i]] = 1;
    }
    cache_.emplace_back(placement, std::move(fits));
    return cache_.back().second;
  }

  const NodeList& nodes_;
  std::vector<size_t> slot_;  // node index -> index of its name
  size_t names_ = 0;
  // Pods outlive the pass; the placements point into them. A deque keeps references stable.
  std::deque<std::pair<Placement, std::vector<char>>> cache_;
};

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

  TargetNodes target_nodes(nodes);
  for (const auto& [key, by_node] : duplicates) {
    const size_t targets = target_nodes.count(by_node);
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
