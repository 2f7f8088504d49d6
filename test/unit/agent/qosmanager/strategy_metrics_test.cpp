#include "agent/qosmanager/framework/strategy_metrics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "agent/qosmanager/framework/metric_windows.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::framework {
namespace {

using ::testing::ElementsAre;
using namespace std::chrono_literals;

TEST(StrategyGauge, RegistersPlainAndLabelledGaugesAndIsANoOpWithoutARegistry) {
  metrics::MetricsRegistry registry;
  strategyGauge(&registry, log::Logger(), "koord_test_plain", "help").set(3);
  strategyGauge(&registry, log::Logger(), "koord_test_labelled", "help", {{"variant", "usage"}})
      .set(7);
  EXPECT_THAT(testing::metricLines(registry, "koord_test_labelled"),
              ElementsAre("koord_test_labelled{variant=\"usage\"} 7"));
  EXPECT_NE(registry.serialize().find("koord_test_plain 3"), std::string::npos);
  strategyGauge(nullptr, log::Logger(), "koord_test_none", "help").set(1);  // no crash, no series
  // A name the registry refuses (already a counter) gives a no-op gauge, not an error.
  ASSERT_TRUE(registry.counter("koord_test_taken", "help").ok());
  strategyGauge(&registry, log::Logger(), "koord_test_taken", "help").set(5);
  EXPECT_EQ(registry.serialize().find("koord_test_taken 5"), std::string::npos);
}

TEST(MetricWindowsFresh, ReadsOnlySamplesNoOlderThanTheMaxAge) {
  metriccache::MetricCache cache;
  const metriccache::TimePoint now = metriccache::TimePoint{} + 100s;
  ASSERT_TRUE(cache.append(metriccache::MetricKind::kNodeCpu, "", now - 3s, 1.5).isOk());
  MetricWindows windows(cache, now);
  EXPECT_EQ(windows.fresh(metriccache::MetricKind::kNodeCpu, "", 3s), 1.5);
  EXPECT_EQ(windows.fresh(metriccache::MetricKind::kNodeCpu, "", 2s), std::nullopt);
  EXPECT_EQ(windows.fresh(metriccache::MetricKind::kPodCpu, "uid", 10s), std::nullopt);
}

}  // namespace
}  // namespace koord::agent::qosmanager::framework
