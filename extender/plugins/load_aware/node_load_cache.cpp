#include "extender/plugins/load_aware/node_load_cache.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace koord::extender::plugins::load_aware {

namespace {

bool samePods(const std::vector<std::shared_ptr<const framework::PodInfo>>& a,
              const std::vector<std::shared_ptr<const framework::PodInfo>>& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(),
                    [](const auto& x, const auto& y) { return x.get() == y.get(); });
}

bool sameNode(const void* entry_node, const std::weak_ptr<const api::core::Node>& alive,
              const framework::NodeInfo& node) {
  return entry_node == node.nodePtr().get() && !alive.expired();
}

}  // namespace

NodeLoadCache::NodeLoadCache(const LoadAwareArgs& args, const Estimator& estimator,
                             const ResourceNames& names, const UsageProfile& base_profile)
    : args_(args), estimator_(estimator), names_(names), base_profile_(base_profile) {}

std::shared_ptr<const NodeState> NodeLoadCache::get(
    const framework::NodeInfo& node, const framework::Lister<api::slo::NodeMetric>* metrics,
    WallTime now) const {
  const uint64_t changes = metrics != nullptr ? metrics->changes() : 0;
  std::shared_ptr<const Entry> old;
  {
    std::shared_lock lock(mu_);
    // By the Node object first (a pointer hash), by name when the object is new to the cache.
    auto by_node = by_node_.find(node.nodePtr().get());
    if (by_node != by_node_.end()) {
      old = by_node->second;
    } else {
      auto it = entries_.find(node.name());
      if (it != entries_.end())
        old = it->second;
    }
  }
  // While the lister's count has not moved, its answer for the node has not either.
  std::shared_ptr<const api::slo::NodeMetric> metric;
  if (old != nullptr && old->metric_changes == changes)
    metric = old->state->metric;
  else if (metrics != nullptr)
    metric = metrics->get(node.name());
  if (old != nullptr && metric == old->state->metric &&
      sameNode(old->node, old->node_alive, node) &&
      (metric == nullptr || samePods(old->pods, node.pods())))
    return old->state;
  auto entry = build(node, old, std::move(metric), changes, now);
  auto state = entry->state;
  store(node.name(), std::move(entry));
  return state;
}

std::shared_ptr<const NodeLoadCache::Entry> NodeLoadCache::build(
    const framework::NodeInfo& node, const std::shared_ptr<const Entry>& old,
    std::shared_ptr<const api::slo::NodeMetric> metric, uint64_t changes, WallTime now) const {
  auto entry = std::make_shared<Entry>();
  entry->node = node.nodePtr().get();
  entry->node_alive = node.nodePtr();
  entry->metric_changes = changes;
  auto state = std::make_shared<NodeState>();
  if (old != nullptr && sameNode(old->node, old->node_alive, node)) {
    state->facts = old->state->facts;
  } else {
    auto facts = std::make_shared<NodeFacts>();
    facts->allocatable = estimator_.allocatable(node.node());
    auto profile = nodeProfile(node.node(), base_profile_, names_);
    if (profile.ok())
      facts->profile = std::move(*profile);
    else
      facts->profile_error = profile.status().message();
    state->facts = std::move(facts);
  }
  state->metric = std::move(metric);
  if (state->metric == nullptr) {
    entry->state = std::move(state);
    return entry;
  }
  const bool same_metric = old != nullptr && old->state->metric == state->metric;
  state->view = same_metric ? old->state->view : MetricView::build(*state->metric, names_);

  // The PodLoads: those of PodInfo objects the previous entry had, the others made now.
  entry->pods = node.pods();
  entry->pod_loads.reserve(entry->pods.size());
  std::unordered_map<const framework::PodInfo*, const PodLoad*> previous;
  if (old != nullptr) {
    for (size_t i = 0; i < old->pods.size(); ++i)
      previous.emplace(old->pods[i].get(), &old->pod_loads[i]);
  }
  for (const auto& pod : entry->pods) {
    auto it = previous.find(pod.get());
    if (it != previous.end())
      entry->pod_loads.push_back(*it->second);
    else
      entry->pod_loads.push_back(podLoad(*pod->pod, estimator_, args_, now));
  }
  state->load = emptyLoad(*state->view, args_.prod_usage_include_sys);
  for (const PodLoad& load : entry->pod_loads)
    state->load.add(load, *state->view);
  entry->state = std::move(state);
  return entry;
}

void NodeLoadCache::store(const std::string& name, std::shared_ptr<const Entry> entry) const {
  std::unique_lock lock(mu_);
  if (entries_.size() >= sweep_at_) {
    for (auto it = entries_.begin(); it != entries_.end();)
      it = it->second->node_alive.expired() ? entries_.erase(it) : std::next(it);
    for (auto it = by_node_.begin(); it != by_node_.end();)
      it = it->second->node_alive.expired() ? by_node_.erase(it) : std::next(it);
    sweep_at_ = std::max<size_t>(1024, entries_.size() * 2);
  }
  if (auto it = entries_.find(name); it != entries_.end() && it->second->node != entry->node)
    by_node_.erase(it->second->node);
  by_node_.insert_or_assign(entry->node, entry);
  entries_.insert_or_assign(name, std::move(entry));
}

size_t NodeLoadCache::size() const {
  std::shared_lock lock(mu_);
  return entries_.size();
}

bool MetricPresence::any(const framework::Lister<api::slo::NodeMetric>* metrics) const {
  if (metrics == nullptr)
    return false;
  std::lock_guard lock(mu_);
  const uint64_t changes = metrics->changes();
  if (scanned_ && changes == changes_)
    return any_;
  const auto all = metrics->list();
  any_ = std::any_of(all.begin(), all.end(), [](const auto& m) { return m != nullptr; });
  changes_ = changes;
  scanned_ = true;
  return any_;
}

}  // namespace koord::extender::plugins::load_aware
