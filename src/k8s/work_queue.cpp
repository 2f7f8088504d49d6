#include "koord/k8s/work_queue.hpp"

namespace koord::k8s {

WorkQueue::WorkQueue(const Clock& clock) : clock_(clock) {}

void WorkQueue::add(const std::string& item) {
  std::lock_guard<std::mutex> lock(mu_);
  addLocked(item);
}

void WorkQueue::addLocked(const std::string& item) {
  if (shutting_down_ || dirty_.count(item) != 0) {
    return;
  }
  dirty_.insert(item);
  if (processing_.count(item) != 0) {
    return;
  }
  queue_.push_back(item);
  ++generation_;
  cv_.notify_all();
}

void WorkQueue::addAfter(const std::string& item, Clock::Duration delay) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shutting_down_) {
    return;
  }
  if (delay <= Clock::Duration::zero()) {
    addLocked(item);
    return;
  }
  const Clock::TimePoint now = clock_.now();
  const Clock::TimePoint ready_at =
      delay >= Clock::TimePoint::max() - now ? Clock::TimePoint::max() : now + delay;
  auto existing = waiting_entries_.find(item);
  if (existing != waiting_entries_.end()) {
    if (existing->second->first <= ready_at) {
      return;
    }
    waiting_.erase(existing->second);
    waiting_entries_.erase(existing);
  }
  waiting_entries_.emplace(item, waiting_.emplace(ready_at, item));
  ++generation_;
  cv_.notify_all();
}

void WorkQueue::promoteReadyLocked() {
  if (waiting_.empty()) {
    return;
  }
  const Clock::TimePoint now = clock_.now();
  while (!waiting_.empty() && waiting_.begin()->first <= now) {
    const std::string item = std::move(waiting_.begin()->second);
    waiting_.erase(waiting_.begin());
    waiting_entries_.erase(item);
    addLocked(item);
  }
}

std::optional<std::string> WorkQueue::get() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    promoteReadyLocked();
    if (!queue_.empty()) {
      break;
    }
    if (shutting_down_) {
      return std::nullopt;
    }
    const uint64_t seen = generation_;
    const Clock::TimePoint deadline =
        waiting_.empty() ? Clock::TimePoint::max() : waiting_.begin()->first;
    clock_.waitUntil(lock, cv_, deadline, [&] { return generation_ != seen; });
  }
  std::string item = std::move(queue_.front());
  queue_.pop_front();
  processing_.insert(item);
  dirty_.erase(item);
  return item;
}

void WorkQueue::done(const std::string& item) {
  std::lock_guard<std::mutex> lock(mu_);
  if (processing_.erase(item) == 0) {
    return;
  }
  if (dirty_.count(item) != 0) {
    queue_.push_back(item);
  }
  ++generation_;
  cv_.notify_all();
}

size_t WorkQueue::len() const {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::TimePoint now = clock_.now();
  size_t ready = queue_.size();
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first <= now; ++it) {
    if (dirty_.count(it->second) == 0 && processing_.count(it->second) == 0) {
      ++ready;
    }
  }
  return ready;
}

size_t WorkQueue::waitingLen() const {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::TimePoint now = clock_.now();
  size_t waiting = 0;
  for (auto it = waiting_.upper_bound(now); it != waiting_.end(); ++it) {
    ++waiting;
  }
  return waiting;
}

void WorkQueue::shutDown() {
  std::lock_guard<std::mutex> lock(mu_);
  shutting_down_ = true;
  waiting_.clear();
  waiting_entries_.clear();
  ++generation_;
  cv_.notify_all();
}

void WorkQueue::shutDownWithDrain() {
  shutDown();
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return processing_.empty(); });
}

bool WorkQueue::shuttingDown() const {
  std::lock_guard<std::mutex> lock(mu_);
  return shutting_down_;
}

}  // namespace koord::k8s
