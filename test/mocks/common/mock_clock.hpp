// gmock of koord::Clock, for tests that script what the clock answers. Most tests want
// koord::FakeClock (include/koord/common/clock.hpp) instead, which advances deterministically.
#pragma once

#include <gmock/gmock.h>

#include "koord/common/clock.hpp"

namespace koord::testing {

class MockClock : public Clock {
 public:
  MOCK_METHOD(TimePoint, now, (), (const, override));
  MOCK_METHOD(bool, waitUntil,
              (std::unique_lock<std::mutex> & lock, std::condition_variable& cv, TimePoint deadline,
               const std::function<bool()>& pred),
              (const, override));
};

}  // namespace koord::testing
