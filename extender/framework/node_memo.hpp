// NodeMemo<T>: what a plugin derives from a Node object (a parsed annotation, a topology), computed
// once per object instead of once per filter call.
//
// The informer replaces a Node object when the node changes and never mutates one, so a value
// computed from an object stays right for as long as that object is the node's current one; a
// NodeInfo rebuilt for a pod change keeps the same Node object, so its memo survives. Entries are
// keyed by the object's address and hold a weak_ptr to tell a live object from a new one at a
// reused address; entries of objects that are gone are swept once the table has doubled since the
// last sweep, so the table stays within about twice the number of live Node objects.
//
// Thread-safe: filters run in parallel. Lookups take a shared lock; the first computation for an
// object takes the exclusive lock (two threads may both compute it; the first stored value wins).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <utility>

#include "koord/api/core/node.hpp"

namespace koord::extender::framework {

template <typename T>
class NodeMemo {
 public:
  // The value of compute(*node) for this Node object, computed at most once per object (barring a
  // race between the first two callers). `node` must not be null.
  template <typename Compute>
  T get(const std::shared_ptr<const api::core::Node>& node, Compute&& compute) const {
    {
      std::shared_lock lock(mu_);
      auto it = entries_.find(node.get());
      if (it != entries_.end() && !it->second.node.owner_before(node) &&
          !node.owner_before(it->second.node)) {
        return it->second.value;
      }
    }
    T value = std::forward<Compute>(compute)(*node);
    std::unique_lock lock(mu_);
    if (entries_.size() >= sweep_at_) {
      sweep();
    }
    entries_.insert_or_assign(node.get(), Entry{node, value});
    return value;
  }

  [[nodiscard]] std::size_t size() const {
    std::shared_lock lock(mu_);
    return entries_.size();
  }

 private:
  struct Entry {
    std::weak_ptr<const api::core::Node> node;
    T value;
  };
  static constexpr std::size_t kMinSweep = 1024;

  // Drops the entries of Node objects that no longer exist. Called with the exclusive lock held.
  void sweep() const {
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second.node.expired() ? entries_.erase(it) : std::next(it);
    }
    sweep_at_ = std::max(kMinSweep, entries_.size() * 2);
  }

  mutable std::shared_mutex mu_;
  mutable std::unordered_map<const api::core::Node*, Entry> entries_;
  mutable std::size_t sweep_at_ = kMinSweep;
};

}  // namespace koord::extender::framework
