// Dispatcher: the handler thread pool plus a deadline timer (private to koord_http).
//
// Thread-safe. Tasks run on the pool threads in submission order; timer callbacks run on the timer
// thread and must be quick. Threads start when first needed: a pool thread when a task finds no
// idle one (up to the pool's size, and they stay), the timer thread on the first schedule().
// shutdown() drops queued tasks and pending timers, waits for running tasks and joins every thread;
// it must not be called from a pool or timer thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace koord::http::detail {

class Dispatcher {
 public:
  using Clock = std::chrono::steady_clock;

  Dispatcher() = default;
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;
  ~Dispatcher() { shutdown(); }

  // Sets the pool's size: at most `threads` pool threads. Called once, before submit().
  void start(std::size_t threads);
  // False (and the task is dropped) once shut down, or when no pool thread could be started.
  bool submit(std::function<void()> task);
  // Calls `callback` at `deadline` unless shut down first.
  void schedule(Clock::time_point deadline, std::function<void()> callback);
  void shutdown();

 private:
  void runWorker();
  void runTimer();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable timer_cv_;
  bool stopping_ = false;
  std::deque<std::function<void()>> queue_;
  std::multimap<Clock::time_point, std::function<void()>> timers_;
  std::vector<std::thread> workers_;
  std::size_t max_workers_ = 0;
  std::size_t idle_workers_ = 0;  // waiting for a task
  std::thread timer_;
};

}  // namespace koord::http::detail
