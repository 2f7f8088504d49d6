// Koordinator's BasicDetector (basic_detector_test.go) and the detector cache's TTL.
#include "manager/descheduler/plugins/lownodeload/anomaly_detector.hpp"

#include <gtest/gtest.h>

namespace koord::manager::descheduler::lownodeload {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr TimePoint kStart{std::chrono::hours(1000)};

TEST(AnomalyDetectorTest, AnomalyAfterMoreThanTheConsecutiveAbnormalities) {
  AnomalyDetector detector(minutes(1), 2, 3);
  EXPECT_EQ(detector.mark(false, kStart), AnomalyState::kOK);
  EXPECT_EQ(detector.mark(false, kStart), AnomalyState::kOK);
  EXPECT_EQ(detector.mark(false, kStart), AnomalyState::kAnomaly);
  EXPECT_EQ(detector.counter().consecutive_abnormalities, 0U);  // a new generation
}

TEST(AnomalyDetectorTest, NormalityInBetweenRestartsTheCount) {
  AnomalyDetector detector(minutes(1), 2, 3);
  detector.mark(false, kStart);
  detector.mark(false, kStart);
  detector.mark(true, kStart);
  EXPECT_EQ(detector.mark(false, kStart), AnomalyState::kOK);
  EXPECT_EQ(detector.counter().consecutive_abnormalities, 1U);
}

TEST(AnomalyDetectorTest, AnomalyEndsAfterTimeoutOrNormalities) {
  AnomalyDetector timed(minutes(1), 1, 3);
  timed.mark(false, kStart);
  EXPECT_EQ(timed.mark(false, kStart), AnomalyState::kAnomaly);
  EXPECT_EQ(timed.state(kStart + seconds(60)), AnomalyState::kAnomaly);
  EXPECT_EQ(timed.state(kStart + seconds(61)), AnomalyState::kOK);

  AnomalyDetector healed(minutes(1), 1, 2);
  healed.mark(false, kStart);
  healed.mark(false, kStart);
  EXPECT_EQ(healed.mark(true, kStart), AnomalyState::kAnomaly);
  EXPECT_EQ(healed.mark(true, kStart), AnomalyState::kAnomaly);
  EXPECT_EQ(healed.mark(true, kStart), AnomalyState::kOK);
}

TEST(AnomalyDetectorTest, ResetEndsAnomalyButKeepsAnOkCount) {
  AnomalyDetector detector(minutes(1), 1, 3);
  detector.mark(false, kStart);
  detector.reset();  // OK already: the count stays
  EXPECT_EQ(detector.counter().consecutive_abnormalities, 1U);
  EXPECT_EQ(detector.mark(false, kStart), AnomalyState::kAnomaly);
  detector.reset();
  EXPECT_EQ(detector.state(kStart), AnomalyState::kOK);
}

TEST(DetectorCacheTest, EntriesExpireAfterTheTtl) {
  DetectorCache cache(minutes(5));
  cache.store("n1", AnomalyDetector(minutes(1), 5, 3), kStart);
  EXPECT_NE(cache.find("n1", kStart + minutes(5)), nullptr);
  EXPECT_EQ(cache.find("n1", kStart + minutes(5) + seconds(1)), nullptr);
  EXPECT_EQ(cache.find("n2", kStart), nullptr);
}

}  // namespace
}  // namespace koord::manager::descheduler::lownodeload
