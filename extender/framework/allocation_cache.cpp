#include "extender/framework/allocation_cache.hpp"

namespace koord::extender::framework {

void AllocationCache::add(Allocation allocation) {
  std::lock_guard lock(mu_);
  expireLocked();
  allocation.deadline = clock_.now() + timeout_;
  std::pair<std::string, std::string> key{allocation.pod_id, allocation.plugin};
  entries_.insert_or_assign(std::move(key), std::move(allocation));
  count_.store(entries_.size(), std::memory_order_release);
}

void AllocationCache::release(std::string_view pod_id, std::string_view plugin) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(std::pair<std::string, std::string>(pod_id, plugin));
  if (it != entries_.end())
    entries_.erase(it);
  count_.store(entries_.size(), std::memory_order_release);
}

void AllocationCache::confirm(std::string_view pod_id) {
  if (empty() || pod_id.empty())
    return;
  std::lock_guard lock(mu_);
  auto it = entries_.lower_bound(std::pair<std::string, std::string>(pod_id, ""));
  while (it != entries_.end() && it->first.first == pod_id)
    it = entries_.erase(it);
  count_.store(entries_.size(), std::memory_order_release);
}

std::vector<AllocationCache::Allocation> AllocationCache::onNode(std::string_view plugin,
                                                                 std::string_view node) const {
  std::vector<Allocation> out;
  if (empty())
    return out;
  std::lock_guard lock(mu_);
  expireLocked();
  for (const auto& [key, allocation] : entries_) {
    if (allocation.plugin == plugin && allocation.node == node)
      out.push_back(allocation);
  }
  return out;
}

std::vector<AllocationCache::Allocation> AllocationCache::of(std::string_view plugin) const {
  std::vector<Allocation> out;
  if (empty())
    return out;
  std::lock_guard lock(mu_);
  expireLocked();
  for (const auto& [key, allocation] : entries_) {
    if (allocation.plugin == plugin)
      out.push_back(allocation);
  }
  return out;
}

size_t AllocationCache::size() const {
  std::lock_guard lock(mu_);
  expireLocked();
  return entries_.size();
}

void AllocationCache::expireLocked() const {
  const Clock::TimePoint now = clock_.now();
  for (auto it = entries_.begin(); it != entries_.end();)
    it = it->second.deadline <= now ? entries_.erase(it) : std::next(it);
  count_.store(entries_.size(), std::memory_order_release);
}

}  // namespace koord::extender::framework
