// Clock: the monotonic time source behind every timeout, backoff and delayed action, so tests
// drive time with FakeClock instead of sleeping.
//
// Contract: now() is thread-safe and never goes backwards. waitUntil() is the one blocking
// primitive: code that waits for "a condition or a deadline" calls it instead of
// std::condition_variable::wait_until, so that a FakeClock can wake it when time is advanced.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace koord {

class Clock {
 public:
  using Duration = std::chrono::steady_clock::duration;
  using TimePoint = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;

  [[nodiscard]] virtual TimePoint now() const = 0;

  // Blocks until pred() holds or now() reaches `deadline`, and returns pred(). `lock` holds the
  // mutex that guards pred's state and that notifiers of `cv` take; it is released while waiting
  // (a FakeClock also releases it briefly on entry and exit). Callers notify `cv` after changing
  // pred's state, as with std::condition_variable.
  virtual bool waitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                         TimePoint deadline, const std::function<bool()>& pred) const = 0;

  // Blocks the calling thread until now() reaches `deadline`.
  void sleepUntil(TimePoint deadline) const;
};

// std::chrono::steady_clock.
class RealClock final : public Clock {
 public:
  [[nodiscard]] TimePoint now() const override;
  bool waitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 TimePoint deadline, const std::function<bool()>& pred) const override;
};

// A clock that only moves when told to. advance() wakes every waitUntil() whose deadline it
// reaches (and every other waiter, which re-checks its predicate). Thread-safe.
class FakeClock final : public Clock {
 public:
  // Starts at an arbitrary fixed point (not the epoch), so that now() - a small duration is valid.
  FakeClock();
  explicit FakeClock(TimePoint start);

  [[nodiscard]] TimePoint now() const override;
  bool waitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 TimePoint deadline, const std::function<bool()>& pred) const override;

  // Moves time forward by `d` (negative values are ignored) and wakes the waiters. The caller
  // must not hold a mutex that a waiter passed to waitUntil().
  void advance(Duration d);
  // Moves time to `t` when it is later than now(), and wakes the waiters.
  void setTime(TimePoint t);
  // How many threads are blocked in waitUntil() or sleepUntil() now; lets a test know that a
  // worker has reached its wait before it advances time.
  [[nodiscard]] size_t waiterCount() const;

 private:
  struct Waiter {
    std::mutex* mutex;
    std::condition_variable* cv;
  };
  void wakeAll();

  std::atomic<int64_t> now_ns_;  // time_since_epoch in nanoseconds
  // Guards waiters_. Lock order: waiters_mu_ before a waiter's mutex; a waiter never holds its
  // own mutex while taking waiters_mu_.
  mutable std::mutex waiters_mu_;
  mutable std::vector<Waiter> waiters_;
};

}  // namespace koord
