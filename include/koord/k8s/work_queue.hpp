// WorkQueue: the controller work queue, after client-go's workqueue (Typed + delaying queue).
//
// Items are keys (usually "namespace/name"). Guarantees:
// - An item is queued at most once however often it is added before a worker takes it.
// - An item is held by at most one worker: while it is being processed (between get() and
//   done()), adding it again marks it dirty, and it is queued again when done() is called.
// - addAfter() adds an item once `delay` has passed on the queue's Clock; an item waiting twice
//   keeps its earlier time. As in client-go, an immediate add() (or a delay <= 0) does not cancel
//   a pending delayed add of the same item: the item comes back when that delay passes.
//
// Thread safety: every method is thread-safe. The Clock must outlive the queue.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "koord/common/clock.hpp"

namespace koord::k8s {

class WorkQueue {
 public:
  explicit WorkQueue(const Clock& clock);
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues `item` unless it is already queued; marks it dirty when it is being processed. Ignored
  // after shutdown.
  void add(const std::string& item);
  // Adds `item` once `delay` has passed (at once when delay <= 0). Ignored after shutdown.
  void addAfter(const std::string& item, Clock::Duration delay);

  // Blocks until an item is ready and hands it to the caller, who must call done(item) when
  // finished. Returns std::nullopt once the queue is shut down and holds no ready item (items
  // queued before shutDown() are still handed out; delayed ones are dropped).
  [[nodiscard]] std::optional<std::string> get();
  // Marks `item` as processed; requeues it when it was added while being processed.
  void done(const std::string& item);

  // Items ready to be handed out (neither delayed nor being processed).
  [[nodiscard]] size_t len() const;
  // Items waiting for their addAfter() delay.
  [[nodiscard]] size_t waitingLen() const;

  // Stops accepting items and wakes every blocked get(). Does not wait for workers.
  void shutDown();
  // As shutDown(), then blocks until every item handed out has been marked done(). Must not be
  // called from a worker that holds an item.
  void shutDownWithDrain();
  [[nodiscard]] bool shuttingDown() const;

 private:
  void addLocked(const std::string& item);
  void promoteReadyLocked();

  const Clock& clock_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  std::unordered_set<std::string> dirty_;
  std::unordered_set<std::string> processing_;
  // Delayed items by ready time, and each delayed item's entry (one per item).
  std::multimap<Clock::TimePoint, std::string> waiting_;
  std::unordered_map<std::string, std::multimap<Clock::TimePoint, std::string>::iterator>
      waiting_entries_;
  // Bumped on every change a blocked get() must look at.
  uint64_t generation_ = 0;
  bool shutting_down_ = false;
};

}  // namespace koord::k8s
