#include "dispatcher.hpp"

#include <system_error>

#include "koord/common/thread_name.hpp"

namespace koord::http::detail {

void Dispatcher::start(std::size_t threads) {
  std::lock_guard<std::mutex> lock(mu_);
  max_workers_ = threads;
}

bool Dispatcher::submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) {
      return false;
    }
    queue_.push_back(std::move(task));
    // More queued tasks than idle threads to take them: one more thread, while the pool has room.
    if (queue_.size() > idle_workers_ && workers_.size() < max_workers_) {
      try {
        workers_.emplace_back([this] {
          nameThisThread("koord-handler");
          runWorker();
        });
      } catch (const std::system_error&) {
        if (workers_.empty()) {
          queue_.pop_back();  // no thread would ever run it
          return false;
        }
      }
    }
  }
  work_cv_.notify_one();
  return true;
}

void Dispatcher::schedule(Clock::time_point deadline, std::function<void()> callback) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) {
      return;
    }
    timers_.emplace(deadline, std::move(callback));
    if (!timer_.joinable()) {
      timer_ = std::thread([this] {
        nameThisThread("koord-timer");
        runTimer();
      });
    }
  }
  timer_cv_.notify_one();
}

void Dispatcher::shutdown() {
  std::deque<std::function<void()>> dropped_tasks;
  std::multimap<Clock::time_point, std::function<void()>> dropped_timers;
  std::vector<std::thread> workers;
  std::thread timer;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    dropped_tasks.swap(queue_);
    dropped_timers.swap(timers_);
    workers.swap(workers_);
    timer.swap(timer_);
  }
  work_cv_.notify_all();
  timer_cv_.notify_all();
  for (std::thread& worker : workers) {
    worker.join();
  }
  if (timer.joinable()) {
    timer.join();
  }
  // The dropped functions are destroyed here, outside the lock.
}

void Dispatcher::runWorker() {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ++idle_workers_;
      work_cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      --idle_workers_;
      if (stopping_) {
        return;
      }
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void Dispatcher::runTimer() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (timers_.empty()) {
      timer_cv_.wait(lock);
      continue;
    }
    const auto first = timers_.begin();
    if (Clock::now() < first->first) {
      timer_cv_.wait_until(lock, first->first);
      continue;
    }
    std::function<void()> callback = std::move(first->second);
    timers_.erase(first);
    lock.unlock();
    callback();
    callback = nullptr;
    lock.lock();
  }
}

}  // namespace koord::http::detail
