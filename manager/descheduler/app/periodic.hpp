// PeriodicRunnable: a controller::Runnable that calls `body` now and then every `interval` until
// stopped (wait.NonSlidingUntil: the interval runs from the start of one call to the next; a call
// that takes longer is followed at once). An interval of zero calls `body` once per run() and then
// waits for the stop. `body` gets the stop token and should return soon after it is requested.
// run() may be called again after it returned (a replica that leads again).
#pragma once

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>

#include "manager/controller/manager.hpp"

namespace koord::manager::descheduler::app {

class PeriodicRunnable final : public controller::Runnable {
 public:
  PeriodicRunnable(std::string name, std::chrono::nanoseconds interval,
                   std::function<void(std::stop_token)> body);

  [[nodiscard]] std::string name() const override { return name_; }
  void run(std::stop_token stop) override;

 private:
  std::string name_;
  std::chrono::nanoseconds interval_;
  std::function<void(std::stop_token)> body_;
};

// Blocks until `stop` is requested or `timeout` passes; true when stopped.
bool sleepUnlessStopped(const std::stop_token& stop, std::chrono::nanoseconds timeout);

}  // namespace koord::manager::descheduler::app
