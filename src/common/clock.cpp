#include "koord/common/clock.hpp"

#include <algorithm>

namespace koord {

namespace {

int64_t toNanos(Clock::TimePoint t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

void Clock::sleepUntil(TimePoint deadline) const {
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  while (now() < deadline) {
    waitUntil(lock, cv, deadline, [] { return false; });
  }
}

Clock::TimePoint RealClock::now() const {
  return std::chrono::steady_clock::now();
}

bool RealClock::waitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                          TimePoint deadline, const std::function<bool()>& pred) const {
  return cv.wait_until(lock, deadline, pred);
}

FakeClock::FakeClock() : FakeClock(TimePoint(std::chrono::hours(24 * 365))) {}

FakeClock::FakeClock(TimePoint start) : now_ns_(toNanos(start)) {}

Clock::TimePoint FakeClock::now() const {
  return TimePoint(std::chrono::duration_cast<Duration>(std::chrono::nanoseconds(now_ns_.load())));
}

bool FakeClock::waitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                          TimePoint deadline, const std::function<bool()>& pred) const {
  if (pred() || now() >= deadline) {
    return pred();
  }
  // Registering needs waiters_mu_, which advance() holds while it takes the waiter's mutex, so
  // the caller's lock is dropped around it. The predicate is checked again under the lock after
  // registering, and advance() notifies under that same lock, so no wake-up is lost.
  const Waiter self{lock.mutex(), &cv};
  lock.unlock();
  {
    std::lock_guard<std::mutex> guard(waiters_mu_);
    waiters_.push_back(self);
  }
  lock.lock();
  while (!pred() && now() < deadline) {
    cv.wait(lock);
  }
  lock.unlock();
  {
    std::lock_guard<std::mutex> guard(waiters_mu_);
    auto it = std::find_if(waiters_.begin(), waiters_.end(), [&](const Waiter& w) {
      return w.mutex == self.mutex && w.cv == self.cv;
    });
    waiters_.erase(it);
  }
  lock.lock();
  return pred();
}

void FakeClock::advance(Duration d) {
  if (d > Duration::zero()) {
    now_ns_.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  }
  wakeAll();
}

void FakeClock::setTime(TimePoint t) {
  const int64_t target = toNanos(t);
  int64_t current = now_ns_.load();
  while (current < target && !now_ns_.compare_exchange_weak(current, target)) {
  }
  wakeAll();
}

size_t FakeClock::waiterCount() const {
  std::lock_guard<std::mutex> guard(waiters_mu_);
  return waiters_.size();
}

void FakeClock::wakeAll() {
  std::lock_guard<std::mutex> guard(waiters_mu_);
  for (const Waiter& w : waiters_) {
    std::lock_guard<std::mutex> waiter_guard(*w.mutex);
    w.cv->notify_all();
  }
}

}  // namespace koord
