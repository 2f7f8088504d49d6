// AllocationCache: what binds in flight have taken before the informers show it, one cache for
// every plugin (reservation capacity today; cpusets, GPU minors and quota usage next). Between a
// plugin's reserve() and the moment the pod informer delivers the pod bound (with the annotations
// its preBind wrote, from which the plugins rebuild their accounting), another bind must not take
// the same thing: the plugin records it here and reads it back in filter and reserve.
//
// An allocation is keyed by (pod ID, plugin), the ID being the pod's UID, or its
// "namespace/name" when it has none (the simulator's YAML pods; podId()): the node, what it was
// taken from (`target`: a reservation's UID, a quota's name, ...), the resources, and a
// plugin-defined `detail` (a cpuset, GPU minors). It is released by its plugin (unreserve), for
// every plugin at once when the informer confirms the pod (ClusterState calls confirm() when it
// sees the pod bound or deleted), or when `timeout` has passed since it was added (a confirmation
// that never comes).
//
// Thread safety: every method is thread-safe; empty() is a lock-free fast path for the common case
// of no bind in flight.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "extender/framework/pod_info.hpp"
#include "extender/framework/resource.hpp"
#include "koord/common/clock.hpp"

namespace koord::extender::framework {

class AllocationCache {
 public:
  struct Allocation {
    std::string pod_id;   // podId(pod)
    std::string pod_key;  // "namespace/name"
    std::string plugin;
    std::string node;
    std::string target;  // what it was taken from; may be empty
    Resource resources;
    std::string detail;           // the plugin's own; may be empty
    Clock::TimePoint deadline{};  // set by add(): now + timeout
  };

  explicit AllocationCache(const Clock& clock,
                           std::chrono::seconds timeout = std::chrono::minutes(2))
      : clock_(clock), timeout_(timeout) {}

  // The key of a pod's allocations: its UID, or "namespace/name" when it has none.
  [[nodiscard]] static std::string_view podId(const PodInfo& pod) {
    return pod.uid.empty() ? std::string_view(pod.key) : std::string_view(pod.uid);
  }

  // Records `allocation` (pod_id and plugin must not be empty), replacing that pod's earlier one
  // for the same plugin.
  void add(Allocation allocation);
  // Releases the pod's allocation for `plugin` (no-op when there is none).
  void release(std::string_view pod_id, std::string_view plugin);
  // The informer shows the pod bound, or deleted: releases its allocations for every plugin.
  void confirm(std::string_view pod_id);
  // The live allocations of `plugin` on `node` (expired ones are dropped first).
  [[nodiscard]] std::vector<Allocation> onNode(std::string_view plugin,
                                               std::string_view node) const;
  // The live allocations of `plugin` anywhere.
  [[nodiscard]] std::vector<Allocation> of(std::string_view plugin) const;
  // True when nothing is held (possibly expired entries aside); lock-free.
  [[nodiscard]] bool empty() const { return count_.load(std::memory_order_acquire) == 0; }
  [[nodiscard]] size_t size() const;

 private:
  void expireLocked() const;

  const Clock& clock_;
  const std::chrono::seconds timeout_;
  mutable std::mutex mu_;
  // (pod ID, plugin) -> allocation.
  mutable std::map<std::pair<std::string, std::string>, Allocation, std::less<>> entries_;
  mutable std::atomic<size_t> count_{0};
};

}  // namespace koord::extender::framework
