#include "manager/descheduler/plugins/lownodeload/anomaly_detector.hpp"

namespace koord::manager::descheduler::lownodeload {

AnomalyDetector::AnomalyDetector(std::chrono::nanoseconds timeout, uint32_t abnormalities,
                                 uint32_t normalities)
    : timeout_(timeout > std::chrono::nanoseconds::zero() ? timeout : std::chrono::seconds(60)),
      abnormalities_(abnormalities),
      normalities_(normalities) {}

AnomalyState AnomalyDetector::mark(bool normal, TimePoint now) {
  const AnomalyState state = current(now);
  ++counter_.total_detects;
  if (normal) {
    ++counter_.total_normalities;
    ++counter_.consecutive_normalities;
    counter_.consecutive_abnormalities = 0;
    if (state == AnomalyState::kAnomaly && counter_.consecutive_normalities > normalities_) {
      setState(AnomalyState::kOK, now);
    }
  } else {
    ++counter_.total_abnormalities;
    ++counter_.consecutive_abnormalities;
    counter_.consecutive_normalities = 0;
    if (state == AnomalyState::kOK) {
      if (counter_.consecutive_abnormalities > abnormalities_) {
        setState(AnomalyState::kAnomaly, now);
      }
    } else {
      // Koordinator re-sets the same state, which changes nothing.
      setState(AnomalyState::kAnomaly, now);
    }
  }
  return current(now);
}

AnomalyState AnomalyDetector::state(TimePoint now) {
  return current(now);
}

void AnomalyDetector::reset() {
  setState(AnomalyState::kOK, TimePoint{});
}

AnomalyState AnomalyDetector::current(TimePoint now) {
  if (state_ == AnomalyState::kOK) {
    if (expiration_ && *expiration_ < now) {
      newGeneration(now);
    }
  } else if ((expiration_ && *expiration_ < now) ||
             counter_.consecutive_normalities > normalities_) {
    setState(AnomalyState::kOK, now);
  }
  return state_;
}

void AnomalyDetector::setState(AnomalyState state, TimePoint now) {
  if (state_ == state) {
    return;
  }
  state_ = state;
  newGeneration(now);
}

void AnomalyDetector::newGeneration(TimePoint now) {
  counter_ = AnomalyCounter{};
  if (state_ == AnomalyState::kAnomaly) {
    expiration_ = now + std::chrono::duration_cast<std::chrono::system_clock::duration>(timeout_);
  } else {
    expiration_.reset();
  }
}

AnomalyDetector* DetectorCache::find(const std::string& node, TimePoint now) {
  auto it = entries_.find(node);
  if (it == entries_.end()) {
    return nullptr;
  }
  if (it->second.expires && now > *it->second.expires) {
    entries_.erase(it);
    return nullptr;
  }
  return &it->second.detector;
}

void DetectorCache::store(const std::string& node, const AnomalyDetector& detector, TimePoint now) {
  std::optional<TimePoint> expires;
  if (ttl_ > std::chrono::nanoseconds::zero()) {
    expires = now + std::chrono::duration_cast<std::chrono::system_clock::duration>(ttl_);
  }
  entries_.insert_or_assign(node, Entry{detector, expires});
}

}  // namespace koord::manager::descheduler::lownodeload
