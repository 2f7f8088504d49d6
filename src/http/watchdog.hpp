// Watchdog: calls a callback at its deadline unless it is disarmed first; one thread serves every
// deadline (private to koord_http).
//
// Thread-safe. Callbacks run on the watchdog's thread while it holds its lock, so they must be
// quick and must not call arm() or disarm(); in exchange, once disarm() returns the callback is
// neither running nor going to run, so what it refers to may be destroyed. The thread starts with
// the first arm() and is joined by the destructor (pending callbacks are dropped).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace koord::http::detail {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  using Ticket = std::pair<Clock::time_point, uint64_t>;

  Watchdog() = default;
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();

  // Calls `callback` once at `deadline` (soon after, on the watchdog thread) unless disarmed.
  [[nodiscard]] Ticket arm(Clock::time_point deadline, std::function<void()> callback);
  // Cancels the callback unless it has run; either way it is not running when this returns.
  void disarm(const Ticket& ticket);

 private:
  void run();

  // With nothing armed the thread still wakes this often, so that arming a deadline later than
  // that (every real request timeout) never has to wake it.
  static constexpr std::chrono::seconds kIdleWake{1};

  std::mutex mu_;
  std::condition_variable cv_;
  // When the thread wakes next (it may wake earlier, spuriously); arm() notifies only for an
  // earlier deadline. The maximum until the thread first waits, so that arming notifies.
  Clock::time_point wake_at_ = Clock::time_point::max();
  std::map<Ticket, std::function<void()>> pending_;
  uint64_t next_id_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace koord::http::detail
