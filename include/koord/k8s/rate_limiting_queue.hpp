// RateLimitingQueue: a WorkQueue whose failed items come back after a per-item backoff, after
// client-go's workqueue.RateLimitingInterface and ItemExponentialFailureRateLimiter.
//
// A worker that fails an item calls addRateLimited(item) (and done(item)); one that succeeds
// calls forget(item) so the next failure starts from the base delay again.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "koord/common/clock.hpp"
#include "koord/k8s/work_queue.hpp"

namespace koord::k8s {

// Decides how long an item waits before it is retried. Implementations are thread-safe.
class ItemRateLimiter {
 public:
  virtual ~ItemRateLimiter() = default;
  // The delay before the item's next retry; counts one failure.
  virtual Clock::Duration when(const std::string& item) = 0;
  // Clears the item's failure history.
  virtual void forget(const std::string& item) = 0;
  // Failures counted since the last forget().
  [[nodiscard]] virtual int numRequeues(const std::string& item) const = 0;
};

// base * 2^failures, capped at `max`; client-go's default is 5 ms and 1000 s.
class ItemExponentialFailureRateLimiter final : public ItemRateLimiter {
 public:
  static constexpr std::chrono::milliseconds kDefaultBase{5};
  static constexpr std::chrono::seconds kDefaultMax{1000};

  explicit ItemExponentialFailureRateLimiter(Clock::Duration base = kDefaultBase,
                                             Clock::Duration max = kDefaultMax);

  Clock::Duration when(const std::string& item) override;
  void forget(const std::string& item) override;
  [[nodiscard]] int numRequeues(const std::string& item) const override;

 private:
  const Clock::Duration base_;
  const Clock::Duration max_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, int> failures_;
};

class RateLimitingQueue : public WorkQueue {
 public:
  // `limiter` defaults to ItemExponentialFailureRateLimiter with client-go's defaults.
  explicit RateLimitingQueue(const Clock& clock, std::unique_ptr<ItemRateLimiter> limiter = {});

  // Adds `item` after the limiter's delay for it (one more failure counted).
  void addRateLimited(const std::string& item);
  // Ends rate limiting for `item` (does not remove it from the queue).
  void forget(const std::string& item);
  // How many times `item` was re-queued through addRateLimited() since it was last forgotten.
  [[nodiscard]] int numRequeues(const std::string& item) const;

 private:
  std::unique_ptr<ItemRateLimiter> limiter_;
};

}  // namespace koord::k8s
