#include "extender/framework/cluster_state.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

#include "extender/framework/name_index.hpp"
#include "koord/api/core/pod_helpers.hpp"

namespace koord::extender::framework {
namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// noexcept, so that the tables do not cache each key's hash in their nodes: a lookup then reads one
// cache line of the node (the key, and NodeEntry::info next to it) instead of two.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// `info` first: it sits right after the key in the table's node, where every lookup reads.
struct NodeEntry {
  std::shared_ptr<const NodeInfo> info;                        // nullptr while `node` is
  std::shared_ptr<const api::core::Node> node;                 // nullptr: pods wait for their node
  std::map<std::string, std::shared_ptr<const PodInfo>> pods;  // bound and assumed, by key
  // info's data of the first node data sources (NodeInfo::data), fetched with `info` by
  // lookupNodes so that a plugin reading it does not wait for a second miss.
  std::array<const void*, 2> data_hints{};
};

struct PodRecord {
  std::shared_ptr<const PodInfo> informer;  // the latest informer version; may be null
  std::string bound_node;                   // informer's spec.nodeName
  std::shared_ptr<const PodInfo> assumed;   // set while assumed
  std::string assumed_node;
  Clock::TimePoint deadline;
};

int64_t nanos(Clock::TimePoint t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

struct ClusterState::State {
  // Every node entry is also in node_index: insert with nodeEntry(), erase with eraseNode().
  StringMap<NodeEntry> nodes;
  NameIndex<StringMap<NodeEntry>::value_type> node_index;
  StringMap<PodRecord> pods;
  // The node data sources, by slot, and their types.
  std::vector<std::unique_ptr<NodeDataSource>> sources;
  std::vector<std::type_index> source_types;
  // The assumed pods, earliest deadline first: (deadline, key) of every record whose `assumed` is
  // set. Expiry and the next deadline read its front, so neither walks all assumed pods.
  std::set<std::pair<Clock::TimePoint, std::string>> assumed_by_deadline;
  int64_t generation = 0;

  // Takes `record` (of pod `key`) out of assumed_by_deadline; nothing when it is not assumed.
  void unlistAssumed(const std::string& key, const PodRecord& record) {
    if (record.assumed != nullptr)
      assumed_by_deadline.erase({record.deadline, key});
  }

  // Where a record's pod counts now: (node, info), or ("", nullptr).
  static std::pair<std::string, std::shared_ptr<const PodInfo>> placement(const PodRecord& r) {
    if (!r.bound_node.empty())
      return {r.bound_node, r.informer};
    if (r.assumed != nullptr)
      return {r.assumed_node, r.assumed};
    return {"", nullptr};
  }

  // The entry of node `name`, made (and indexed) when absent.
  NodeEntry& nodeEntry(const std::string& name) {
    auto [it, inserted] = nodes.try_emplace(name);
    if (inserted)
      node_index.insert(&*it);
    return it->second;
  }

  void eraseNode(StringMap<NodeEntry>::iterator it) {
    node_index.erase(it->first);
    nodes.erase(it);
  }

  void rebuild(const std::string& name) {
    auto it = nodes.find(name);
    if (it == nodes.end())
      return;
    NodeEntry& entry = it->second;
    if (entry.node == nullptr) {
      if (entry.info != nullptr) {
        for (size_t slot = 0; slot < sources.size(); ++slot)
          sources[slot]->replaced(entry.info->data(slot), nullptr);
      }
      entry.info = nullptr;
      entry.data_hints = {};
      ++generation;
      if (entry.pods.empty())
        eraseNode(it);
      return;
    }
    std::vector<std::shared_ptr<const PodInfo>> on_node;
    on_node.reserve(entry.pods.size());
    for (const auto& [key, pod] : entry.pods)
      on_node.push_back(pod);
    auto info = build(entry.node, std::move(on_node));
    info->setGeneration(++generation);
    for (size_t slot = 0; slot < sources.size(); ++slot) {
      sources[slot]->replaced(entry.info != nullptr ? entry.info->data(slot) : nullptr,
                              info->data(slot));
    }
    for (size_t slot = 0; slot < entry.data_hints.size(); ++slot)
      entry.data_hints[slot] = info->data(slot);
    entry.info = std::move(info);
  }

  // A NodeInfo of `node` and `on_node` with every source's data.
  std::shared_ptr<NodeInfo> build(std::shared_ptr<const api::core::Node> node,
                                  std::vector<std::shared_ptr<const PodInfo>> on_node) const {
    auto info = std::make_shared<NodeInfo>(std::move(node), std::move(on_node));
    if (!sources.empty()) {
      std::vector<std::shared_ptr<const void>> data;
      data.reserve(sources.size());
      for (const auto& source : sources)
        data.push_back(source->build(*info));
      info->setData(std::move(data));
    }
    return info;
  }

  // Moves the pod `key` from placement `before` to its record's current placement.
  void replace(const std::string& key,
               const std::pair<std::string, std::shared_ptr<const PodInfo>>& before,
               const PodRecord* after_record) {
    auto after = after_record != nullptr ? placement(*after_record)
                                         : std::pair<std::string, std::shared_ptr<const PodInfo>>{};
    if (before.first == after.first && before.second == after.second)
      return;
    if (!before.first.empty()) {
      auto it = nodes.find(before.first);
      if (it != nodes.end())
        it->second.pods.erase(key);
    }
    if (!after.first.empty()) {
      nodeEntry(after.first).pods[key] = after.second;
    }
    if (!before.first.empty())
      rebuild(before.first);
    if (!after.first.empty() && after.first != before.first)
      rebuild(after.first);
  }

  void dropAssumed(const std::string& key) {
    auto it = pods.find(key);
    if (it == pods.end() || it->second.assumed == nullptr)
      return;
    auto before = placement(it->second);
    unlistAssumed(key, it->second);
    it->second.assumed = nullptr;
    it->second.assumed_node.clear();
    if (it->second.informer == nullptr) {
      pods.erase(it);
      replace(key, before, nullptr);
    } else {
      replace(key, before, &it->second);
    }
  }

  int64_t earliestDeadline() const {
    return assumed_by_deadline.empty() ? kNever : nanos(assumed_by_deadline.begin()->first);
  }

  void expire(Clock::TimePoint now) {
    while (!assumed_by_deadline.empty() && assumed_by_deadline.begin()->first <= now) {
      const std::string key = assumed_by_deadline.begin()->second;
      assumed_by_deadline.erase(assumed_by_deadline.begin());  // first, so the loop always ends
      dropAssumed(key);
    }
  }
};

ClusterState::ClusterState(const Clock& clock, std::chrono::seconds assume_ttl,
                           AllocationCache* allocations)
    : clock_(clock),
      assume_ttl_(assume_ttl),
      allocations_(allocations),
      state_(std::make_unique<State>()),
      next_expiry_ns_(kNever) {}

ClusterState::~ClusterState() = default;

void ClusterState::expireIfDue() const {
  const auto now = clock_.now();
  if (nanos(now) < next_expiry_ns_.load(std::memory_order_acquire))
    return;
  std::unique_lock lock(mu_);
  state_->expire(now);
  next_expiry_ns_.store(state_->earliestDeadline(), std::memory_order_release);
}

void ClusterState::upsertNode(std::shared_ptr<const api::core::Node> node) {
  if (node == nullptr)
    return;
  std::unique_lock lock(mu_);
  const std::string name = node->metadata.name;
  state_->nodeEntry(name).node = std::move(node);
  state_->rebuild(name);
}

void ClusterState::removeNode(const std::string& name) {
  std::unique_lock lock(mu_);
  auto it = state_->nodes.find(name);
  if (it == state_->nodes.end())
    return;
  it->second.node = nullptr;
  state_->rebuild(name);
}

Status ClusterState::upsertPod(std::shared_ptr<const api::core::Pod> pod) {
  if (pod != nullptr && api::core::isPodTerminal(*pod)) {
    removePod(pod->metadata.namespace_ + "/" + pod->metadata.name);
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(auto info, PodInfo::create(std::move(pod)));
  std::unique_lock lock(mu_);
  State& s = *state_;
  PodRecord& record = s.pods[info->key];
  const auto before = State::placement(record);
  record.bound_node = info->pod->spec.nodeName;
  record.informer = std::move(info);
  const std::string key = record.informer->key;
  if (!record.bound_node.empty() && record.assumed != nullptr) {
    s.unlistAssumed(key, record);
    record.assumed = nullptr;  // confirmed by the informer
    record.assumed_node.clear();
    next_expiry_ns_.store(s.earliestDeadline(), std::memory_order_release);
  }
  s.replace(key, before, &record);
  if (allocations_ != nullptr && !record.bound_node.empty())
    allocations_->confirm(AllocationCache::podId(*record.informer));
  return Status::ok();
}

void ClusterState::removePod(const std::string& key) {
  std::unique_lock lock(mu_);
  State& s = *state_;
  auto it = s.pods.find(key);
  if (it == s.pods.end())
    return;
  const auto before = State::placement(it->second);
  s.unlistAssumed(key, it->second);
  if (allocations_ != nullptr) {
    const auto& info = it->second.informer != nullptr ? it->second.informer : it->second.assumed;
    if (info != nullptr)
      allocations_->confirm(AllocationCache::podId(*info));
  }
  s.pods.erase(it);
  s.replace(key, before, nullptr);
  next_expiry_ns_.store(s.earliestDeadline(), std::memory_order_release);
}

NodeDataSource& ClusterState::addNodeDataSource(std::type_index type,
                                                std::unique_ptr<NodeDataSource> source) {
  std::unique_lock lock(mu_);
  State& s = *state_;
  for (size_t slot = 0; slot < s.source_types.size(); ++slot) {
    if (s.source_types[slot] == type)
      return *s.sources[slot];
  }
  source->slot_ = s.sources.size();
  s.sources.push_back(std::move(source));
  s.source_types.push_back(type);
  std::vector<std::string> names;
  names.reserve(s.nodes.size());
  for (const auto& [name, entry] : s.nodes)
    names.push_back(name);
  for (const auto& name : names)
    s.rebuild(name);
  return *s.sources.back();
}

const NodeDataSource* ClusterState::findNodeData(std::type_index type) const {
  std::shared_lock lock(mu_);
  const State& s = *state_;
  for (size_t slot = 0; slot < s.source_types.size(); ++slot) {
    if (s.source_types[slot] == type)
      return s.sources[slot].get();
  }
  return nullptr;
}

void ClusterState::refresh(const std::vector<std::string>& nodes) {
  std::unique_lock lock(mu_);
  for (const auto& name : nodes)
    state_->rebuild(name);
  ++state_->generation;
}

std::shared_ptr<const NodeInfo> ClusterState::buildNodeInfo(
    std::shared_ptr<const api::core::Node> node,
    std::vector<std::shared_ptr<const PodInfo>> pods) const {
  std::unique_lock lock(mu_);
  return state_->build(std::move(node), std::move(pods));
}

int64_t ClusterState::generation() const {
  std::shared_lock lock(mu_);
  return state_->generation;
}

Status ClusterState::assume(std::shared_ptr<const PodInfo> pod, const std::string& node) {
  if (pod == nullptr) {
    return Status::invalidArgument("failed to assume pod '': no pod given");
  }
  std::unique_lock lock(mu_);
  State& s = *state_;
  s.expire(clock_.now());
  auto node_it = s.nodes.find(node);
  if (node_it == s.nodes.end() || node_it->second.node == nullptr) {
    return Status::notFound("failed to assume pod '" + pod->key + "' on node '" + node +
                            "': the node is not in the cache");
  }
  PodRecord& record = s.pods[pod->key];
  if (!record.bound_node.empty()) {
    return Status::alreadyExists("failed to assume pod '" + pod->key +
                                 "': it is already bound to node '" + record.bound_node + "'");
  }
  if (record.assumed != nullptr) {
    return Status::alreadyExists("failed to assume pod '" + pod->key +
                                 "': it is already assumed on node '" + record.assumed_node + "'");
  }
  const auto before = State::placement(record);
  const std::string key = pod->key;
  record.assumed = std::move(pod);
  record.assumed_node = node;
  record.deadline = clock_.now() + assume_ttl_;
  s.assumed_by_deadline.emplace(record.deadline, key);
  s.replace(key, before, &record);
  next_expiry_ns_.store(s.earliestDeadline(), std::memory_order_release);
  return Status::ok();
}

void ClusterState::forget(const std::string& pod_key) {
  std::unique_lock lock(mu_);
  state_->dropAssumed(pod_key);
  next_expiry_ns_.store(state_->earliestDeadline(), std::memory_order_release);
}

bool ClusterState::isAssumed(std::string_view pod_key) const {
  expireIfDue();
  std::shared_lock lock(mu_);
  auto it = state_->pods.find(pod_key);
  return it != state_->pods.end() && it->second.assumed != nullptr;
}

std::shared_ptr<const NodeInfo> ClusterState::nodeInfo(std::string_view name) const {
  expireIfDue();
  std::shared_lock lock(mu_);
  auto it = state_->nodes.find(name);
  return it == state_->nodes.end() ? nullptr : it->second.info;
}

std::vector<std::shared_ptr<const NodeInfo>> ClusterState::nodeInfos() const {
  expireIfDue();
  std::vector<std::shared_ptr<const NodeInfo>> out;
  {
    std::shared_lock lock(mu_);
    out.reserve(state_->nodes.size());
    for (const auto& [name, entry] : state_->nodes) {
      if (entry.info != nullptr)
        out.push_back(entry.info);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
  return out;
}

std::shared_ptr<const PodInfo> ClusterState::pod(std::string_view key) const {
  expireIfDue();
  std::shared_lock lock(mu_);
  auto it = state_->pods.find(key);
  if (it == state_->pods.end())
    return nullptr;
  return it->second.informer != nullptr ? it->second.informer : it->second.assumed;
}

std::shared_ptr<const PodInfo> ClusterState::informerPod(std::string_view key) const {
  std::shared_lock lock(mu_);
  auto it = state_->pods.find(key);
  return it == state_->pods.end() ? nullptr : it->second.informer;
}

void ClusterState::lookupNodes(const std::vector<std::string>& names,
                               std::vector<std::shared_ptr<const NodeInfo>>& out) const {
  expireIfDue();
  out.clear();
  out.resize(names.size());
  std::shared_lock lock(mu_);
  using Entry = StringMap<NodeEntry>::value_type;
  state_->node_index.findAll(
      names,
      [&out](size_t i, const Entry* entry) {
        if (entry != nullptr)
          out[i] = entry->second.info;
      },
      [](const Entry& entry) {
        // The NodeInfo and, just before it (make_shared), its reference count; the data the
        // first node data sources keep for it.
        __builtin_prefetch(entry.second.info.get());
        for (const void* data : entry.second.data_hints) {
          if (data != nullptr)
            __builtin_prefetch(data);
        }
      });
}

size_t ClusterState::nodeCount() const {
  std::shared_lock lock(mu_);
  size_t n = 0;
  for (const auto& [name, entry] : state_->nodes)
    n += entry.info != nullptr ? 1 : 0;
  return n;
}

}  // namespace koord::extender::framework
