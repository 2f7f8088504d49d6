#include "manager/descheduler/app/periodic.hpp"

#include <condition_variable>
#include <mutex>
#include <utility>

namespace koord::manager::descheduler::app {

bool sleepUnlessStopped(const std::stop_token& stop, std::chrono::nanoseconds timeout) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  if (timeout <= std::chrono::nanoseconds::zero()) {
    cv.wait(lock, stop, [] { return false; });
  } else {
    cv.wait_for(lock, stop, timeout, [] { return false; });
  }
  return stop.stop_requested();
}

PeriodicRunnable::PeriodicRunnable(std::string name, std::chrono::nanoseconds interval,
                                   std::function<void(std::stop_token)> body)
    : name_(std::move(name)), interval_(interval), body_(std::move(body)) {}

void PeriodicRunnable::run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    const auto started = std::chrono::steady_clock::now();
    body_(stop);
    if (interval_ <= std::chrono::nanoseconds::zero()) {
      sleepUnlessStopped(stop, std::chrono::nanoseconds::zero());
      return;
    }
    const auto next = started + interval_;
    const auto left = next - std::chrono::steady_clock::now();
    if (left > std::chrono::nanoseconds::zero() && sleepUnlessStopped(stop, left)) {
      return;
    }
  }
}

}  // namespace koord::manager::descheduler::app
