// ThreadPool: a fixed set of worker threads for data-parallel loops (the extender's filter and
// score over many nodes).
//
//   ThreadPool pool(1);  // one worker; the caller of parallelFor() is the second thread
//   Status s = pool.parallelFor(chunks, [&](size_t i) { work(i); });
//
// Contracts:
// - parallelFor() calls fn(i) exactly once for every i in [0, n), on the workers and on the calling
//   thread (the caller helps, so a pool with 0 workers runs everything inline), and returns once
//   every call has returned. The order of the calls is unspecified.
// - An exception thrown by fn never escapes: the remaining indices still run and parallelFor()
//   returns kInternal naming the first exception's what().
// - Thread-safe: many threads may call parallelFor() at once; their loops share the workers.
//   fn must not call parallelFor() on the same pool (the caller helps, so it would not deadlock,
//   but it gains nothing).
// - The destructor joins the workers; no parallelFor() may be running then.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "koord/common/status.hpp"

namespace koord {

class ThreadPool {
 public:
  // `workers` threads (negative counts as 0).
  explicit ThreadPool(int workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  [[nodiscard]] Status parallelFor(size_t n, const std::function<void(size_t)>& fn);

  [[nodiscard]] size_t workers() const { return threads_.size(); }

 private:
  struct Job;
  void workerLoop();
  // Claims and runs indices of `job` until none are left; records the first exception.
  static void runIndices(Job& job);

  std::mutex mu_;
  std::condition_variable work_cv_;  // a job was queued, or stopping_
  std::condition_variable done_cv_;  // a worker left a job
  std::deque<Job*> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace koord
