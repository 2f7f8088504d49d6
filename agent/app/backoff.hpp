// ReportBackoff: exponential backoff for one kind of report (1 s doubling to 5 min), on the
// times the caller passes (its injected Clock's). Thread-compatible.
#pragma once

#include <algorithm>
#include <chrono>

#include "koord/common/clock.hpp"

namespace koord::agent::app {

class ReportBackoff {
 public:
  static constexpr std::chrono::milliseconds kMin{1000};
  static constexpr std::chrono::milliseconds kMax{300000};

  // Whether a report may be tried at `now`: always, until one fails.
  [[nodiscard]] bool ready(Clock::TimePoint now) const { return now >= next_; }
  // A report failed at `now`: the next is not ready before now + the doubled delay.
  void failed(Clock::TimePoint now) {
    delay_ = delay_.count() == 0 ? kMin : std::min(delay_ * 2, kMax);
    next_ = now + delay_;
  }
  // A report succeeded: the next failure starts again at kMin.
  void succeeded() { delay_ = std::chrono::milliseconds(0); }

 private:
  std::chrono::milliseconds delay_{0};
  Clock::TimePoint next_{};
};

}  // namespace koord::agent::app
