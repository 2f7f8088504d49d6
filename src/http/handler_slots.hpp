// HandlerSlots: a counting semaphore that bounds how many handlers run at once, whose waits give up
// at a deadline or when aborted (private to koord_http). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace koord::http::detail {

class HandlerSlots {
 public:
  using Clock = std::chrono::steady_clock;

  explicit HandlerSlots(std::size_t slots) : free_(slots) {}

  // Takes a slot, waiting until one is free; false (and no slot taken) when `deadline` passes
  // first or abort() was called.
  [[nodiscard]] bool acquire(Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_until(lock, deadline, [this] { return free_ > 0 || aborted_; }) || aborted_) {
      return false;
    }
    --free_;
    return true;
  }

  // Returns a slot taken by acquire().
  void release() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++free_;
    }
    cv_.notify_one();
  }

  // Makes every current and later acquire() fail.
  void abort() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      aborted_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t free_;
  bool aborted_ = false;
};

}  // namespace koord::http::detail
