#include "agent/reporters/node_metric.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"

namespace koord::agent::reporters {
namespace {

using metriccache::MetricKind;
using std::chrono::seconds;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

constexpr metriccache::TimePoint kNow{seconds(1'800'000'000)};

// Fills the node series with one sample a second over the last `span`: cpu = 1 + (i % 4) cores,
// memory = 2 GiB, and a system of a quarter of that.
void fillNode(metriccache::MetricCache& cache, seconds span) {
  for (int64_t i = span.count(); i >= 0; --i) {
    const auto t = kNow - seconds(i);
    const double cpu = 1.0 + static_cast<double>(i % 4);
    ASSERT_TRUE(cache.append(MetricKind::kNodeCpu, "", t, cpu).isOk());
    ASSERT_TRUE(cache.append(MetricKind::kNodeMemory, "", t, 2.0 * (1LL << 30)).isOk());
    ASSERT_TRUE(cache.append(MetricKind::kSystemCpu, "", t, cpu / 4).isOk());
    ASSERT_TRUE(cache.append(MetricKind::kSystemMemory, "", t, 0.5 * (1LL << 30)).isOk());
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
    ASSERT_TRUE(cache.append(MetricKind::kPodCpu, "uid-be", kNow - seconds(i), 0.5).isOk());
    ASSERT_TRUE(cache.append(MetricKind::kPodMemory, "uid-be", kNow - seconds(i), 256.0 * (1 << 20))
                    .isOk());
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

api::slo::NodeMetricSpec specWithSeconds(std::optional<int64_t> aggregate,
                                         std::optional<int64_t> report) {
  api::slo::NodeMetricSpec spec;
  api::slo::NodeMetricCollectPolicy policy;
  policy.aggregateDurationSeconds = aggregate;
  policy.reportIntervalSeconds = report;
  spec.metricCollectPolicy = policy;
  return spec;
}

// issue 31: reportIntervalSeconds 9223372036854775807 overflowed the daemon's next-report time
// point and made it write the status every loop (every second).
TEST(NodeMetricPolicy, OverflowingReportIntervalIsHeldToADay) {
  for (int64_t value : {kInt64Max, kInt64Max / 1000, int64_t{86401}}) {
    EffectiveCollectPolicy policy = effectivePolicy(specWithSeconds(std::nullopt, value));
    // As the daemon computes its next report.
    const Clock::TimePoint now = RealClock().now();
    const Clock::TimePoint next = now + policy.report_interval;
    EXPECT_GE(next - now, seconds(30)) << value;
    EXPECT_EQ(policy.report_interval, seconds(86400)) << value;
    ASSERT_EQ(policy.corrections.size(), 1U);
    EXPECT_EQ(policy.corrections[0],
              "spec.metricCollectPolicy.reportIntervalSeconds: " + std::to_string(value) +
                  " is above the maximum of 86400; used 86400");
  }
  for (int64_t value : {kInt64Min, int64_t{-1}, int64_t{0}, int64_t{29}}) {
    EffectiveCollectPolicy policy = effectivePolicy(specWithSeconds(std::nullopt, value));
    EXPECT_EQ(policy.report_interval, seconds(30)) << value;
    ASSERT_EQ(policy.corrections.size(), 1U);
    EXPECT_NE(policy.corrections[0].find("below the minimum of 30; used 30"), std::string::npos);
  }
  EXPECT_TRUE(effectivePolicy(specWithSeconds(300, 60)).corrections.empty());
}

// issue 31: aggregateDurationSeconds 9223372036854775807 put the window's start after its end and
// reported an empty nodeUsage.
TEST(NodeMetricStatus, OverflowingAggregateDurationStillReportsNodeUsage) {
  metriccache::MetricCache cache;
  fillNode(cache, seconds(599));
  for (int64_t value : {kInt64Max, kInt64Min, int64_t{86400}}) {
    EffectiveCollectPolicy policy = effectivePolicy(specWithSeconds(value, std::nullopt));
    auto status = buildNodeMetricStatus(cache, policy, {}, kNow);
    ASSERT_TRUE(status.nodeMetric.has_value());
    ASSERT_EQ(status.nodeMetric->nodeUsage.resources.count("cpu"), 1U) << value;
    EXPECT_EQ(status.nodeMetric->nodeUsage.resources.at("memory").toString(), "2Gi");
    EXPECT_GE(policy.aggregate_duration, seconds(60)) << value;
    EXPECT_LE(policy.aggregate_duration, seconds(3600)) << value;
    ASSERT_EQ(policy.corrections.size(), 1U);
    EXPECT_NE(policy.corrections[0].find("spec.metricCollectPolicy.aggregateDurationSeconds: " +
                                         std::to_string(value)),
              std::string::npos);
  }
  // The bound is the cache's retention, when the agent is told it.
  CollectPolicyLimits limits;
  limits.retention = seconds(7200);
  EXPECT_EQ(effectivePolicy(specWithSeconds(kInt64Max, std::nullopt), limits).aggregate_duration,
            seconds(7200));
}

TEST(NodeMetricPolicy, DurationsAreHeldToTheRetentionDeduplicatedAndCapped) {
  EffectiveCollectPolicy policy =
      effectivePolicy(specWith({"5m", "2h", "300s", "bogus", "3h", "0", "500ms", "10m"}));
  EXPECT_EQ(policy.aggregate_durations,
            (std::vector<seconds>{seconds(300), seconds(3600), seconds(600)}));
  EXPECT_EQ(policy.aggregate_duration_texts, (std::vector<std::string>{"5m", "1h0m0s", "10m"}));
  ASSERT_EQ(policy.corrections.size(), 2U);  // reportIntervalSeconds 10, and the durations
  const std::string& durations = policy.corrections[1];
  EXPECT_EQ(durations.rfind("spec.metricCollectPolicy.nodeAggregatePolicy.durations: 8 given, "
                            "used [\"5m\", \"1h0m0s\", \"10m\"]: ",
                            0),
            0U)
      << durations;
  for (const char* part : {"\"2h\" is longer than the 1h0m0s of samples the agent keeps",
                           "\"bogus\" is not a duration of 1s or more, dropped", "\"500ms\" is not",
                           "2 duplicates dropped"}) {
    EXPECT_NE(durations.find(part), std::string::npos) << part << " in " << durations;
  }
}

TEST(NodeMetricPolicy, CorrectionsQuoteLongValuesAsValidUtf8) {
  std::string long_text;
  for (int i = 0; i < 40; ++i) {
    long_text += "\u00e9";  // two bytes each
  }
  EffectiveCollectPolicy policy = effectivePolicy(specWith({long_text}));
  ASSERT_EQ(policy.corrections.size(), 2U);
  EXPECT_NO_THROW((void)api::Json(policy.corrections[1]).dump()) << policy.corrections[1];
  EXPECT_NE(policy.corrections[1].find("\u00e9...\" is not a duration"), std::string::npos)
      << policy.corrections[1];
}

// issue 31: 3,000 aggregation durations made a status too large for etcd (each one two
// aggregated usages of five percentiles), retried forever.
TEST(NodeMetricStatus, ThousandsOfDurationsGiveABoundedStatus) {
  std::vector<std::string> durations;
  for (int i = 1; i <= 3000; ++i) {
    durations.push_back(std::to_string(60 + i) + "s");
  }
  EffectiveCollectPolicy policy = effectivePolicy(specWith(durations));
  metriccache::MetricCache cache;
  fillNode(cache, seconds(3599));
  auto status = buildNodeMetricStatus(cache, policy, {}, kNow);
  ASSERT_TRUE(status.nodeMetric.has_value());
  EXPECT_LT(api::slo::toJson(status).dump().size(), 16U * 1024);
  EXPECT_EQ(status.nodeMetric->aggregatedNodeUsages.size(), kMaxAggregateDurations);
  EXPECT_EQ(status.nodeMetric->aggregatedSystemUsages.size(), kMaxAggregateDurations);

  EXPECT_EQ(policy.aggregate_durations.size(), kMaxAggregateDurations);
  EXPECT_EQ(policy.aggregate_duration_texts.front(), "61s");
  ASSERT_EQ(policy.corrections.size(), 2U);
  EXPECT_NE(policy.corrections[1].find("2992 beyond the first 8 distinct durations dropped "
                                       "(\"69s\", \"70s\", \"71s\", ...)"),
            std::string::npos)
      << policy.corrections[1];
  EXPECT_LT(policy.corrections[1].size(), 1024U);
}

TEST(NodeMetricPolicy, CorrectionsAreProblemsOnTheNodeMetric) {
  api::slo::NodeMetric metric;
  metric.metadata.name = "node-a";
  metric.metadata.uid = "nm-uid";
  metric.spec = specWithSeconds(kInt64Max, kInt64Max);
  auto problems = collectPolicyProblems(metric, effectivePolicy(metric.spec));
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_EQ(problems[0].object.kind, "NodeMetric");
  EXPECT_EQ(problems[0].object.apiVersion, "slo.koordinator.sh/v1alpha1");
  EXPECT_EQ(problems[0].object.name, "node-a");
  EXPECT_EQ(problems[0].object.uid, "nm-uid");
  EXPECT_EQ(problems[0].reason, "InvalidMetricCollectPolicy");
  EXPECT_EQ(problems[0].message,
            "spec.metricCollectPolicy.aggregateDurationSeconds: 9223372036854775807 is above the "
            "maximum of 3600; used 3600");
}

api::slo::PodMetricInfo podMetric(int i, const std::string& priority) {
  api::slo::PodMetricInfo metric;
  metric.namespace_ = "team-" + std::to_string(i % 7);
  metric.name = std::string(200, 'p') + "-" + std::to_string(i);
  metric.priority = priority;
  metric.qos = "LS";
  metric.podUsage.resources["cpu"] = resource::Quantity::fromMilli(1500);
  metric.podUsage.resources["memory"] = resource::Quantity::fromInt(1LL << 30);
  return metric;
}

TEST(NodeMetricStatus, FitLeavesOutLowPriorityPodsFirst) {
  api::slo::NodeMetricStatus status;
  status.nodeMetric = api::slo::NodeMetricInfo{};
  for (int i = 0; i < 4000; ++i) {
    status.podsMetric.push_back(podMetric(i, i % 2 == 0 ? "koord-prod" : "koord-batch"));
  }
  ASSERT_GT(api::slo::toJson(status).dump().size(), kMaxNodeMetricStatusBytes);
  auto fit = fitNodeMetricStatus(status);
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_LE(fit->bytes, kMaxNodeMetricStatusBytes);
  EXPECT_EQ(fit->bytes, api::slo::toJson(status).dump().size());
  EXPECT_GT(fit->dropped_pods, 2000U);  // every batch pod, then some prod pods
  EXPECT_EQ(status.podsMetric.size(), 4000U - fit->dropped_pods);
  EXPECT_FALSE(fit->dropped_aggregates);
  for (const auto& metric : status.podsMetric) {
    EXPECT_EQ(metric.priority, "koord-prod");
  }
  // The first prod pods are kept, in order.
  EXPECT_EQ(status.podsMetric[1].name, std::string(200, 'p') + "-2");

  // Within the budget nothing changes.
  api::slo::NodeMetricStatus small;
  small.updateTime = "2027-01-15T08:00:00Z";
  small.nodeMetric = api::slo::NodeMetricInfo{};
  small.podsMetric.push_back(podMetric(1, "koord-batch"));
  const api::slo::NodeMetricStatus before = small;
  auto unchanged = fitNodeMetricStatus(small);
  ASSERT_TRUE(unchanged.ok());
  EXPECT_EQ(unchanged->dropped_pods, 0U);
  EXPECT_EQ(small, before);

  // A budget nothing fits in: not written at all.
  auto never = fitNodeMetricStatus(small, 8);
  EXPECT_EQ(never.status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace koord::agent::reporters
