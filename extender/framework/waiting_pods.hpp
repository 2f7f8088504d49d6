// WaitingPods: the pods whose bind is held by a Permit plugin (kWait), after the Kubernetes
// framework's waitingPodsMap. A gang plugin's permit() for the member that completes the gang
// calls allow() on the members that wait; a plugin that gives a gang up calls reject().
//
// A plugin reaches the runtime's WaitingPods from the CycleState of its permit() call:
// waitingPodsOf(state) (the runtime writes it before the first permit()).
//
// Thread safety: every method is thread-safe; allow()/reject() may be called from any thread,
// including from inside another pod's permit().
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "extender/framework/cycle_state.hpp"
#include "extender/framework/pod_info.hpp"

namespace koord::extender::framework {

class WaitingPods {
 public:
  // Lets the pod with key `pod_key` ("namespace/name") pass plugin `plugin`'s wait; the bind
  // goes on once every waiting plugin allowed it. False when the pod does not wait (any more).
  bool allow(const std::string& pod_key, const std::string& plugin);
  // Fails the pod's bind with kUnschedulable `reason`, tagged with `plugin`. False when the pod
  // does not wait.
  bool reject(const std::string& pod_key, const std::string& plugin, const std::string& reason);
  // The keys of the pods that wait now, sorted.
  [[nodiscard]] std::vector<std::string> keys() const;
  // The waiting pods' PodInfos, for plugins that look for their gang's members.
  [[nodiscard]] std::vector<std::shared_ptr<const PodInfo>> pods() const;

  // Runtime side. One entry per pod; false when the key already waits.
  struct Entry {
    std::shared_ptr<const PodInfo> pod;
    std::set<std::string> pending;  // plugins that have not allowed yet
    bool rejected = false;
    std::string reject_plugin;
    std::string reject_reason;
  };
  bool add(std::shared_ptr<const PodInfo> pod, std::set<std::string> pending);
  // Blocks (through `wait`, which is given the lock, the condition variable and the predicate)
  // until the entry is allowed or rejected, or `wait` returns false (the timeout); then removes
  // the entry and returns it.
  Entry waitAndRemove(
      const std::string& pod_key,
      const std::function<bool(std::unique_lock<std::mutex>&, std::condition_variable&,
                               const std::function<bool()>&)>& wait);

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Entry, std::less<>> entries_;
};

// The CycleState key under which the runtime stores its WaitingPods during bind.
inline constexpr std::string_view kWaitingPodsStateKey = "framework/waitingPods";

// The runtime's WaitingPods from a bind's CycleState; nullptr outside bind.
[[nodiscard]] WaitingPods* waitingPodsOf(const CycleState& state);
// Runtime side: makes waitingPodsOf(state) return `pods`.
void setWaitingPods(CycleState& state, WaitingPods* pods);

}  // namespace koord::extender::framework
