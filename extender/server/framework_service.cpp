#include "extender/server/framework_service.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <utility>

#include "extender/framework/extender_score.hpp"

namespace koord::extender::server {
namespace {

namespace ext = api::extender;
using framework::Binder;
using framework::ClusterState;
using framework::Code;
using framework::NodeInfo;
using framework::PluginStatus;
using framework::PodInfo;
using framework::Runtime;

// The candidate node names of a filter/prioritize request: NodeNames with nodeCacheCapable,
// else the names of the Node objects (copied into `storage`).
const std::vector<std::string>& candidateNames(const ext::ExtenderArgs& args,
                                               std::vector<std::string>& storage) {
  if (args.nodeNames) {
    return *args.nodeNames;
  }
  if (args.nodes) {
    storage.reserve(args.nodes->items.size());
    for (const auto& node : args.nodes->items) {
      storage.push_back(node.metadata.name);
    }
  }
  return storage;
}

std::string describe(const PluginStatus& status) {
  std::string out;
  if (!status.plugin().empty())
    out = status.plugin() + ": ";
  return out + status.message();
}

// A victim the cache does not know: only its UID, which is all the reply needs.
std::shared_ptr<const PodInfo> standIn(const std::string& uid) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.uid = uid;
  auto info = std::make_shared<PodInfo>();
  info->uid = uid;
  info->pod = std::move(pod);
  return info;
}

std::shared_ptr<const PodInfo> findByUid(const NodeInfo* node, const std::string& uid) {
  if (node == nullptr || uid.empty())
    return nullptr;
  for (const auto& pod : node->pods()) {
    if (pod->uid == uid)
      return pod;
  }
  return nullptr;
}

}  // namespace

FrameworkService::FrameworkService(Runtime& runtime, ClusterState& cluster, Binder& binder,
                                   std::function<bool()> ready)
    : runtime_(runtime), cluster_(cluster), binder_(binder), ready_(std::move(ready)) {}

bool FrameworkService::ready() const {
  return !ready_ || ready_();
}

ext::ExtenderFilterResult FrameworkService::filter(const ext::ExtenderArgs& args) {
  // The slot only ever holds the view of the latest filter: a filter that keeps none (a failed
  // one, nodes sent as objects, a pod without a UID) must not leave an older cycle's view behind.
  keepSnapshot(std::nullopt);
  auto pod = PodInfo::create(std::make_shared<const api::core::Pod>(args.pod));
  if (!pod.ok()) {
    ext::ExtenderFilterResult out;
    if (args.nodeNames.has_value() || !args.nodes.has_value()) {
      out.nodeNames.emplace();
    } else {
      out.nodes.emplace();
    }
    out.error = pod.status().message();
    return out;
  }
  std::vector<std::string> item_names;
  const std::vector<std::string>& names = candidateNames(args, item_names);
  const bool by_name = args.nodeNames.has_value() || !args.nodes.has_value();
  return filterPod(*pod, names, by_name ? nullptr : &*args.nodes);
}

std::optional<ext::ExtenderFilterResult> FrameworkService::filterKnownPod(
    const wire::ExtenderArgsKey& key) {
  if (key.pod_namespace.empty() || key.pod_name.empty() || key.pod_resource_version.empty()) {
    return std::nullopt;
  }
  std::shared_ptr<const PodInfo> pod = cluster_.informerPod(key.pod_namespace + "/" + key.pod_name);
  // A resourceVersion names one state of one object: the informer's pod is then the body's pod.
  // A pod already bound is left to the full decode (kube-scheduler does not filter those).
  if (pod == nullptr || pod->uid != key.pod_uid ||
      pod->pod->metadata.resourceVersion != key.pod_resource_version ||
      !pod->pod->spec.nodeName.empty()) {
    return std::nullopt;
  }
  keepSnapshot(std::nullopt);
  return filterPod(pod, key.node_names, nullptr);
}

ext::ExtenderFilterResult FrameworkService::filterPod(const std::shared_ptr<const PodInfo>& pod,
                                                      const std::vector<std::string>& names,
                                                      const api::core::NodeList* objects) {
  ext::ExtenderFilterResult out;
  const bool by_name = objects == nullptr;
  if (by_name) {
    out.nodeNames.emplace();
  } else {
    out.nodes.emplace();
  }
  std::vector<std::shared_ptr<const NodeInfo>> infos;
  cluster_.lookupNodes(names, infos);
  std::vector<std::shared_ptr<const NodeInfo>> known;
  known.reserve(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) {
    if (infos[i] != nullptr) {
      known.push_back(std::move(infos[i]));
    } else {
      out.failedNodes[names[i]] = std::string(kNodeNotFound);
    }
  }
  // With every name known, `known` lines up with the request's names: the runtime takes the
  // reply's names from them instead of from each NodeInfo.
  Runtime::FilterResult result =
      runtime_.filter(*pod, known, known.size() == names.size() ? &names : nullptr);
  if (result.error.code() == Code::kError) {
    out.error = "failed to filter pod '" + pod->key + "': " + describe(result.error);
    out.failedNodes.clear();
    return out;
  }
  if (by_name && runtime_.scores() && !pod->uid.empty()) {
    // `known` is in input order and `feasible` a subsequence of it: keep the feasible NodeInfos.
    CycleSnapshot snapshot{pod->uid, pod->pod->metadata.resourceVersion, pod, {}, {}};
    size_t next = 0;
    if (result.feasible.size() == known.size()) {
      snapshot.feasible = std::move(known);  // every node passed: the subsequence is all of it
      next = result.feasible.size();
    } else {
      snapshot.feasible.reserve(result.feasible.size());
      for (auto& info : known) {
        if (next < result.feasible.size() && info->name() == result.feasible[next]) {
          snapshot.feasible.push_back(std::move(info));
          ++next;
        }
      }
    }
    if (next == result.feasible.size()) {
      snapshot.feasible_names = result.feasible;
      keepSnapshot(std::move(snapshot));
    }
  }
  for (auto& [node, status] : result.failed) {
    if (status.code() == Code::kUnschedulableAndUnresolvable) {
      out.failedAndUnresolvableNodes[node] = status.message();
    } else {
      out.failedNodes[node] = status.message();
    }
  }
  if (by_name) {
    out.nodeNames = std::move(result.feasible);
  } else {
    size_t next = 0;
    for (const auto& node : objects->items) {
      if (next < result.feasible.size() && node.metadata.name == result.feasible[next]) {
        out.nodes->items.push_back(node);
        ++next;
      }
    }
  }
  return out;
}

ext::HostPriorityList FrameworkService::prioritize(const ext::ExtenderArgs& args) {
  std::vector<std::string> item_names;
  const std::vector<std::string>& names = candidateNames(args, item_names);
  // Only hosts with a score above 0 are listed: kube-scheduler adds score x weight for each listed
  // host, so an unlisted host and a 0 are the same to it, and with no scoring plugin at work the
  // reply (and kube-scheduler's decoding of it) stays empty rather than one entry per candidate.
  if (!runtime_.scores()) {
    return {};  // no score plugin: every host scores 0, so none is listed
  }
  if (auto snapshot =
          takeSnapshot(args.pod.metadata.uid, args.pod.metadata.resourceVersion, names)) {
    return score(*snapshot->pod, std::move(snapshot->feasible), names);
  }
  auto decoded = PodInfo::create(std::make_shared<const api::core::Pod>(args.pod));
  if (!decoded.ok())
    return {};
  std::vector<std::shared_ptr<const NodeInfo>> infos;
  cluster_.lookupNodes(names, infos);
  return score(**decoded, std::move(infos), names);
}

std::optional<ext::HostPriorityList> FrameworkService::prioritizeKnownPod(
    const wire::ExtenderArgsKey& key) {
  // Without a score plugin nothing is kept for prioritize: the body is decoded (and checked) in
  // full, and prioritize answers [].
  auto snapshot = takeSnapshot(key.pod_uid, key.pod_resource_version, key.node_names);
  if (!snapshot) {
    return std::nullopt;
  }
  return score(*snapshot->pod, std::move(snapshot->feasible), key.node_names);
}

ext::HostPriorityList FrameworkService::score(const PodInfo& pod,
                                              std::vector<std::shared_ptr<const NodeInfo>> infos,
                                              const std::vector<std::string>& names) {
  ext::HostPriorityList out;
  std::vector<std::shared_ptr<const NodeInfo>> known;
  std::vector<size_t> positions;
  known.reserve(infos.size());
  positions.reserve(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) {
    if (infos[i] != nullptr) {
      known.push_back(std::move(infos[i]));
      positions.push_back(i);
    }
  }
  const std::vector<int64_t> scores = runtime_.score(pod, known);
  for (size_t k = 0; k < scores.size() && k < positions.size(); ++k) {
    const int64_t value = framework::toExtenderScore(scores[k]);
    if (value > 0) {
      out.push_back({names[positions[k]], value});
    }
  }
  return out;
}

void FrameworkService::keepSnapshot(std::optional<CycleSnapshot> snapshot) {
  std::lock_guard lock(snapshot_mu_);
  snapshot_ = std::move(snapshot);
}

std::optional<CycleSnapshot> FrameworkService::takeSnapshot(const std::string& uid,
                                                            const std::string& resource_version,
                                                            const std::vector<std::string>& names) {
  std::optional<CycleSnapshot> kept;
  {
    std::lock_guard lock(snapshot_mu_);
    if (!snapshot_ || uid.empty() || snapshot_->pod_uid != uid ||
        snapshot_->resource_version != resource_version) {
      return std::nullopt;
    }
    kept = std::move(snapshot_);
    snapshot_.reset();
  }
  // Usually `names` is exactly what filter kept; another extender's filter may have dropped some.
  const std::vector<std::string>& kept_names = kept->feasible_names;
  if (kept_names == names) {
    return kept;  // the usual case: prioritize asks for exactly what filter kept
  }
  std::vector<std::shared_ptr<const NodeInfo>> aligned;
  std::vector<std::string> aligned_names;
  aligned.reserve(names.size());
  aligned_names.reserve(names.size());
  size_t next = 0;
  for (const auto& name : names) {
    while (next < kept_names.size() && kept_names[next] != name)
      ++next;
    if (next == kept_names.size())
      return std::nullopt;  // not a subsequence: look the names up
    aligned_names.push_back(kept_names[next]);
    aligned.push_back(std::move(kept->feasible[next++]));
  }
  kept->feasible = std::move(aligned);
  kept->feasible_names = std::move(aligned_names);
  return kept;
}

ext::ExtenderBindingResult FrameworkService::bind(const ext::ExtenderBindingArgs& args) {
  ext::ExtenderBindingResult out;
  const std::string key = args.podNamespace + "/" + args.podName;
  auto pod = cluster_.pod(key);
  if (pod == nullptr) {
    // Not delivered by the informer yet: read it (within a quarter of the bind's time, so that
    // the bind itself keeps the rest).
    const auto deadline = std::chrono::steady_clock::now() + runtime_.bindTimeout() / 4;
    auto fetched = binder_.getPod(args.podNamespace, args.podName, deadline);
    if (!fetched.ok()) {
      out.error = "failed to bind pod '" + key +
                  "': the pod is not in koord-extender's cache, and reading it failed: " +
                  fetched.status().message();
      return out;
    }
    auto info = PodInfo::create(std::move(*fetched));
    if (!info.ok()) {
      out.error = "failed to bind pod '" + key + "': " + info.status().message();
      return out;
    }
    pod = std::move(*info);
  }
  if (!args.podUID.empty() && pod->uid != args.podUID) {
    out.error = "failed to bind pod '" + key + "': the cache holds UID '" + pod->uid +
                "', the request names '" + args.podUID + "'";
    return out;
  }
  auto node = cluster_.nodeInfo(args.node);
  if (node == nullptr) {
    out.error = "failed to bind pod '" + key + "' to node '" + args.node +
                "': the node is not in koord-extender's cache";
    return out;
  }
  if (Status assumed = cluster_.assume(pod, args.node); !assumed.isOk()) {
    out.error = assumed.message();
    return out;
  }
  PluginStatus status = runtime_.bind(*pod, *node, binder_);
  if (!status.isSuccess()) {
    cluster_.forget(key);
    out.error = "failed to bind pod '" + key + "' to node '" + args.node + "': " + describe(status);
  }
  return out;
}

ext::ExtenderPreemptionResult FrameworkService::preempt(const ext::ExtenderPreemptionArgs& args) {
  ext::ExtenderPreemptionResult out;
  out.nodeNameToMetaVictims.emplace();
  auto preemptor = PodInfo::create(std::make_shared<const api::core::Pod>(args.pod));
  if (!preemptor.ok())
    return out;
  std::map<std::string, std::vector<std::shared_ptr<const PodInfo>>> candidates;
  std::map<std::string, int64_t> violations;
  if (args.nodeNameToMetaVictims) {
    for (const auto& [name, victims] : *args.nodeNameToMetaVictims) {
      auto node = cluster_.nodeInfo(name);
      auto& list = candidates[name];
      for (const auto& meta : victims.pods) {
        auto found = findByUid(node.get(), meta.uid);
        list.push_back(found != nullptr ? found : standIn(meta.uid));
      }
      violations[name] = victims.numPDBViolations;
    }
  } else if (args.nodeNameToVictims) {
    for (const auto& [name, victims] : *args.nodeNameToVictims) {
      auto node = cluster_.nodeInfo(name);
      auto& list = candidates[name];
      for (const auto& victim : victims.pods) {
        auto found = findByUid(node.get(), victim.metadata.uid);
        if (found == nullptr) {
          auto made = PodInfo::create(std::make_shared<const api::core::Pod>(victim));
          found = made.ok() ? std::move(made).value() : standIn(victim.metadata.uid);
        }
        list.push_back(std::move(found));
      }
      violations[name] = victims.numPDBViolations;
    }
  }
  for (auto& [name, victims] : runtime_.preempt(**preemptor, candidates)) {
    ext::MetaVictims meta;
    meta.numPDBViolations = violations[name];
    for (const auto& victim : victims)
      meta.pods.push_back({victim->uid});
    out.nodeNameToMetaVictims->emplace(name, std::move(meta));
  }
  return out;
}

}  // namespace koord::extender::server
