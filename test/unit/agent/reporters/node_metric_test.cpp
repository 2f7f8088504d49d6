#include "agent/reporters/node_metric.hpp"

#include <gtest/gtest.h>

#include "koord/api/well_known.hpp"

namespace koord::agent::reporters {
namespace {

using metriccache::MetricKind;
using std::chrono::seconds;

constexpr metriccache::TimePoint kNow{seconds(1'800'000'000)};

// Fills the node series with one sample a second over the last `span`: cpu = 1 + (i % 4) cores,
// memory = 2 GiB, and a system of a quarter of that.
void fillNode(metriccache::MetricCache& cache, seconds span) {
  for (int64_t i = span.count(); i >= 0; --i) {
    const auto t = kNow - seconds(i);
    const double cpu = 1.0 + static_cast<double>(i % 4);
    ASSERT_TRUE(cache.append(MetricKind::NodeCpu, "", t, cpu).isOk());
    ASSERT_TRUE(cache.append(MetricKind::NodeMemory, "", t, 2.0 * (1LL << 30)).isOk());
    ASSERT_TRUE(cache.append(MetricKind::SystemCpu, "", t, cpu / 4).isOk());
    ASSERT_TRUE(cache.append(MetricKind::SystemMemory, "", t, 0.5 * (1LL << 30)).isOk());
  }
}

api::slo::NodeMetricSpec specWith(std::vector<std::string> durations) {
  api::slo::NodeMetricSpec spec;
  api::slo::NodeMetricCollectPolicy policy;
  policy.aggregateDurationSeconds = 60;
  policy.reportIntervalSeconds = 10;  // below the minimum of 30
  policy.nodeAggregatePolicy = api::slo::AggregatePolicy{std::move(durations), {}};
  spec.metricCollectPolicy = policy;
  return spec;
}

TEST(NodeMetricPolicy, DefaultsAndMinimums) {
  EffectiveCollectPolicy defaults = effectivePolicy({});
  EXPECT_EQ(defaults.aggregate_duration, seconds(300));
  EXPECT_EQ(defaults.report_interval, seconds(60));
  EXPECT_TRUE(defaults.aggregate_durations.empty());
  EffectiveCollectPolicy policy = effectivePolicy(specWith({"5m", "bogus", "1h"}));
  EXPECT_EQ(policy.aggregate_duration, seconds(60));
  EXPECT_EQ(policy.report_interval, seconds(30));
  EXPECT_EQ(policy.aggregate_durations, (std::vector<seconds>{seconds(300), seconds(3600)}));
  EXPECT_EQ(policy.aggregate_duration_texts, (std::vector<std::string>{"5m", "1h"}));
}

TEST(NodeMetricStatus, NodeAndSystemUsageAreTheWindowAverage) {
  metriccache::MetricCache cache;
  fillNode(cache, seconds(599));
  auto status = buildNodeMetricStatus(cache, effectivePolicy(specWith({})), {}, kNow);
  ASSERT_TRUE(status.nodeMetric.has_value());
  // Samples of the last 60 s (61 of them, both ends included) average 2.48 cores.
  EXPECT_EQ(status.nodeMetric->nodeUsage.resources.at("cpu").toString(), "2475m");
  EXPECT_EQ(status.nodeMetric->nodeUsage.resources.at("memory").toString(), "2Gi");
  EXPECT_EQ(status.nodeMetric->systemUsage.resources.at("memory").toString(), "512Mi");
  EXPECT_EQ(status.updateTime.value_or(""), "2027-01-15T08:00:00Z");
}

TEST(NodeMetricStatus, AggregatedUsagesOnlyForDurationsTheCacheCovers) {
  metriccache::MetricCache cache;
  fillNode(cache, seconds(600));  // ten minutes of samples
  auto status =
      buildNodeMetricStatus(cache, effectivePolicy(specWith({"5m", "20m", "30m"})), {}, kNow);
  ASSERT_TRUE(status.nodeMetric.has_value());
  // 20m is covered by half (10 of 20 minutes); 30m is not.
  ASSERT_EQ(status.nodeMetric->aggregatedNodeUsages.size(), 2U);
  const api::slo::AggregatedUsage& five = status.nodeMetric->aggregatedNodeUsages[0];
  EXPECT_EQ(five.duration, "5m");
  EXPECT_EQ(five.usage.at("p99").resources.at("cpu").toString(), "4");
  EXPECT_EQ(five.usage.at("p50").resources.at("cpu").toString(), "2");
  EXPECT_EQ(status.nodeMetric->aggregatedNodeUsages[1].duration, "20m");
  ASSERT_EQ(status.nodeMetric->aggregatedSystemUsages.size(), 2U);
  EXPECT_EQ(
      status.nodeMetric->aggregatedSystemUsages[0].usage.at("p99").resources.at("cpu").toString(),
      "1");
}

TEST(NodeMetricStatus, PodsWithSamplesAreReportedWithPriorityAndQos) {
  metriccache::MetricCache cache;
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(cache.append(MetricKind::PodCpu, "uid-be", kNow - seconds(i), 0.5).isOk());
    ASSERT_TRUE(
        cache.append(MetricKind::PodMemory, "uid-be", kNow - seconds(i), 256.0 * (1 << 20)).isOk());
  }
  auto be = std::make_shared<api::core::Pod>();
  be->metadata.namespace_ = "batch";
  be->metadata.name = "spark-1";
  be->metadata.uid = "uid-be";
  be->metadata.labels[std::string(api::kLabelPodQoS)] = "BE";
  be->spec.priority = 5500;
  auto silent = std::make_shared<api::core::Pod>();
  silent->metadata.name = "no-samples";
  silent->metadata.uid = "uid-none";
  auto status = buildNodeMetricStatus(cache, effectivePolicy({}), {be, silent}, kNow);
  ASSERT_EQ(status.podsMetric.size(), 1U);
  EXPECT_EQ(status.podsMetric[0].namespace_, "batch");
  EXPECT_EQ(status.podsMetric[0].name, "spark-1");
  EXPECT_EQ(status.podsMetric[0].qos, "BE");
  EXPECT_EQ(status.podsMetric[0].priority, "koord-batch");
  EXPECT_EQ(status.podsMetric[0].podUsage.resources.at("cpu").toString(), "500m");
  EXPECT_EQ(status.podsMetric[0].podUsage.resources.at("memory").toString(), "256Mi");
}

}  // namespace
}  // namespace koord::agent::reporters
