#include "watchdog.hpp"

#include "koord/common/thread_name.hpp"

namespace koord::http::detail {

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

Watchdog::Ticket Watchdog::arm(Clock::time_point deadline, std::function<void()> callback) {
  bool earliest = false;
  Ticket ticket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!thread_.joinable()) {
      thread_ = std::thread([this] {
        nameThisThread("koord-watchdog");
        run();
      });
    }
    ticket = Ticket(deadline, next_id_++);
    // Only a deadline before the thread's next wake-up needs to wake it: with one request timeout
    // for all, deadlines arrive in order and a busy server arms without waking anyone.
    earliest = deadline < wake_at_;
    pending_.emplace(ticket, std::move(callback));
  }
  if (earliest) {
    cv_.notify_one();
  }
  return ticket;
}

void Watchdog::disarm(const Ticket& ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_.erase(ticket);
}

void Watchdog::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    const Clock::time_point now = Clock::now();
    if (pending_.empty()) {
      wake_at_ = now + kIdleWake;
      cv_.wait_until(lock, wake_at_);
      continue;
    }
    const Clock::time_point next = pending_.begin()->first.first;
    if (now < next) {
      wake_at_ = next;
      cv_.wait_until(lock, next);
      continue;
    }
    auto expired = pending_.extract(pending_.begin());
    expired.mapped()();
  }
}

}  // namespace koord::http::detail
