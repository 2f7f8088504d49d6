#include "extender/framework/waiting_pods.hpp"

#include <utility>

namespace koord::extender::framework {
namespace {

struct WaitingPodsState final : StateData {
  explicit WaitingPodsState(WaitingPods* p) : pods(p) {}
  WaitingPods* pods;
};

}  // namespace

bool WaitingPods::allow(const std::string& pod_key, const std::string& plugin) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(pod_key);
    if (it == entries_.end())
      return false;
    it->second.pending.erase(plugin);
  }
  cv_.notify_all();
  return true;
}

bool WaitingPods::reject(const std::string& pod_key, const std::string& plugin,
                         const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(pod_key);
    if (it == entries_.end())
      return false;
    if (!it->second.rejected) {
      it->second.rejected = true;
      it->second.reject_plugin = plugin;
      it->second.reject_reason = reason;
    }
  }
  cv_.notify_all();
  return true;
}

std::vector<std::string> WaitingPods::keys() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [key, entry] : entries_)
    out.push_back(key);
  return out;
}

std::vector<std::shared_ptr<const PodInfo>> WaitingPods::pods() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const PodInfo>> out;
  for (const auto& [key, entry] : entries_)
    out.push_back(entry.pod);
  return out;
}

bool WaitingPods::add(std::shared_ptr<const PodInfo> pod, std::set<std::string> pending) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = pod->key;
  Entry entry;
  entry.pod = std::move(pod);
  entry.pending = std::move(pending);
  return entries_.emplace(std::move(key), std::move(entry)).second;
}

WaitingPods::Entry WaitingPods::waitAndRemove(
    const std::string& pod_key,
    const std::function<bool(std::unique_lock<std::mutex>&, std::condition_variable&,
                             const std::function<bool()>&)>& wait) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = entries_.find(pod_key);
  if (it == entries_.end())
    return {};
  const std::function<bool()> done = [this, &pod_key] {
    auto found = entries_.find(pod_key);
    return found->second.rejected || found->second.pending.empty();
  };
  wait(lock, cv_, done);
  it = entries_.find(pod_key);
  Entry out = std::move(it->second);
  entries_.erase(it);
  return out;
}

WaitingPods* waitingPodsOf(const CycleState& state) {
  const auto* data = state.read<WaitingPodsState>(std::string(kWaitingPodsStateKey));
  return data == nullptr ? nullptr : data->pods;
}

void setWaitingPods(CycleState& state, WaitingPods* pods) {
  state.write(std::string(kWaitingPodsStateKey), std::make_unique<WaitingPodsState>(pods));
}

}  // namespace koord::extender::framework
