// Koordinator's load anomaly detector (pkg/descheduler/utils/anomaly BasicDetector) and the cache
// of detectors by node that LowNodeLoad keeps across passes (a go-cache with a TTL).
//
// A detector starts OK. Each mark(false) while OK counts one more consecutive abnormality; when
// the count exceeds `abnormalities` it turns Anomaly for `timeout` (refreshed by every later
// mark(false)); counts restart at each state change. While Anomaly, consecutive normalities
// beyond `normalities`, or the timeout passing, turn it OK. reset() turns it OK; on an OK
// detector it does nothing (its counts stay). Times are passed in (the pass's now).
// Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace koord::manager::descheduler::lownodeload {

using TimePoint = std::chrono::system_clock::time_point;

enum class AnomalyState { kOK, kAnomaly };

struct AnomalyCounter {
  uint32_t total_detects = 0;
  uint32_t total_normalities = 0;
  uint32_t total_abnormalities = 0;
  uint32_t consecutive_normalities = 0;
  uint32_t consecutive_abnormalities = 0;
};

class AnomalyDetector {
 public:
  // timeout <= 0 means 60s, as Koordinator.
  AnomalyDetector(std::chrono::nanoseconds timeout, uint32_t abnormalities, uint32_t normalities);

  // Records one observation and returns the state after it.
  AnomalyState mark(bool normal, TimePoint now);
  [[nodiscard]] AnomalyState state(TimePoint now);
  void reset();
  [[nodiscard]] const AnomalyCounter& counter() const { return counter_; }

 private:
  AnomalyState current(TimePoint now);
  void setState(AnomalyState state, TimePoint now);
  void newGeneration(TimePoint now);

  std::chrono::nanoseconds timeout_;
  uint32_t abnormalities_;
  uint32_t normalities_;
  AnomalyState state_ = AnomalyState::kOK;
  AnomalyCounter counter_;
  std::optional<TimePoint> expiration_;
};

// Detectors by node name; an entry is forgotten `ttl` after it was last stored (ttl <= 0: never).
class DetectorCache {
 public:
  explicit DetectorCache(std::chrono::nanoseconds ttl) : ttl_(ttl) {}

  // The live detector of `node`, or nullptr.
  [[nodiscard]] AnomalyDetector* find(const std::string& node, TimePoint now);
  // Stores `detector` for `node` and restarts its TTL.
  void store(const std::string& node, const AnomalyDetector& detector, TimePoint now);

 private:
  struct Entry {
    AnomalyDetector detector;
    std::optional<TimePoint> expires;
  };
  std::chrono::nanoseconds ttl_;
  std::map<std::string, Entry> entries_;
};

}  // namespace koord::manager::descheduler::lownodeload
