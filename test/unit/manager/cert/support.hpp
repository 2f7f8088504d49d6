// What the webhook certificate tests share: a fixed wall time to start from and a real-time poll.
#pragma once

#include <chrono>
#include <thread>

#include "manager/cert/certificates.hpp"

namespace koord::manager::cert::testing {

// 2027-01-01T00:00:00Z.
inline const WallTime kTestStart = std::chrono::system_clock::from_time_t(1798761600);

// Polls `pred` in real time for up to 10 s.
template <class Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

}  // namespace koord::manager::cert::testing
