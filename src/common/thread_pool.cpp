#include "koord/common/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>

#include "koord/common/thread_name.hpp"

namespace koord {

struct ThreadPool::Job {
  const std::function<void(size_t)>* fn = nullptr;
  size_t n = 0;
  std::atomic<size_t> next{0};
  int active = 0;  // workers inside runIndices(); guarded by the pool's mu_
  std::atomic<bool> failed{false};
  std::mutex error_mu;
  std::string error;  // the first exception's message; guarded by error_mu
};

ThreadPool::ThreadPool(int workers) {
  threads_.reserve(static_cast<size_t>(std::max(workers, 0)));
  for (int i = 0; i < workers; ++i) {
    threads_.emplace_back([this] {
      nameThisThread("koord-pool");
      workerLoop();
    });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) {
    t.join();
  }
}

void ThreadPool::runIndices(Job& job) {
  for (size_t i = job.next.fetch_add(1, std::memory_order_relaxed); i < job.n;
       i = job.next.fetch_add(1, std::memory_order_relaxed)) {
    try {
      (*job.fn)(i);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(job.error_mu);
      if (!job.failed.exchange(true)) {
        job.error = e.what();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(job.error_mu);
      if (!job.failed.exchange(true)) {
        job.error = "unknown exception";
      }
    }
  }
}

void ThreadPool::workerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) {
      return;
    }
    Job* job = queue_.front();
    if (job->next.load(std::memory_order_relaxed) >= job->n) {
      queue_.pop_front();
      continue;
    }
    ++job->active;
    lock.unlock();
    runIndices(*job);
    lock.lock();
    --job->active;
    if (!queue_.empty() && queue_.front() == job) {
      queue_.pop_front();
    }
    done_cv_.notify_all();
  }
}

Status ThreadPool::parallelFor(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) {
    return Status::ok();
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  const bool share = n > 1 && !threads_.empty();
  if (share) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(&job);
    }
    if (n == 2 || threads_.size() == 1) {
      work_cv_.notify_one();
    } else {
      work_cv_.notify_all();
    }
  }
  runIndices(job);
  if (share) {
    std::unique_lock<std::mutex> lock(mu_);
    auto it = std::find(queue_.begin(), queue_.end(), &job);
    if (it != queue_.end()) {
      queue_.erase(it);
    }
    done_cv_.wait(lock, [&job] { return job.active == 0; });
  }
  if (job.failed.load()) {
    return Status::internal("failed to run parallel task: " + job.error);
  }
  return Status::ok();
}

}  // namespace koord
