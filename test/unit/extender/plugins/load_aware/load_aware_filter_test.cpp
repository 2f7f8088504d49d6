// LoadAwareScheduling's filter, after Koordinator's load_aware_test.go
// (TestFilterExpiredNodeMetric, TestFilterUsage): each case is named after the Go case, with the
// semantics of Koordinator's current plugin (the incoming pod's estimate is added; a threshold is
// exceeded above it; the prod usage counts the node's prod pods that koordlet also reports as
// koord-prod).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "load_aware_test_util.hpp"

namespace koord::extender::plugins::load_aware {
namespace {

using framework::Code;
using testing::freshMetric;
using testing::Harness;
using testing::makeMetric;
using testing::MetricInput;
using testing::podInfo;
using testing::PodInput;
using testing::Quantities;
using testing::testNode;

struct FilterCase {
  std::string name = "";
  std::string args = "{}";
  std::optional<MetricInput> metric = std::nullopt;
  std::string annotation = "";      // scheduling.koordinator.sh/usage-thresholds on the node
  std::vector<PodInput> pods = {};  // on the node
  PodInput pod = PodInput{};        // the pod being scheduled (empty: 250m / 200Mi)
  Code want = Code::kSuccess;
  std::string want_reason = "";
};

void runFilterCases(const std::vector<FilterCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Harness h(api::Json::parse(c.args));
    if (c.metric)
      h.setMetrics({makeMetric(*c.metric)});
    else
      h.setMetrics({makeMetric(MetricInput{.node = "other-node", .update_time = h.now()})});
    std::map<std::string, std::string> annotations;
    if (!c.annotation.empty())
      annotations["scheduling.koordinator.sh/usage-thresholds"] = c.annotation;
    std::vector<std::shared_ptr<const framework::PodInfo>> pods;
    for (const auto& p : c.pods)
      pods.push_back(podInfo(p));
    auto node = extender::testing::nodeInfo(testNode("test-node-1", annotations), pods);
    framework::PluginStatus status = h.filter(*podInfo(c.pod), *node);
    EXPECT_EQ(status.code(), c.want) << status.message();
    if (!c.want_reason.empty()) {
      ASSERT_EQ(status.reasons().size(), 1u);
      EXPECT_EQ(status.reasons()[0], c.want_reason);
    }
  }
}

TEST(LoadAwareFilterTest, KoordinatorsFilterExpiredNodeMetricTable) {
  MetricInput healthy;
  healthy.update_time = testing::testNow();
  healthy.node_metric = false;
  MetricInput no_update_time = healthy;
  no_update_time.update_time.reset();
  MetricInput expired = healthy;
  expired.update_time = testing::testNow() - std::chrono::seconds(180);
  runFilterCases({
      {.name = "filter healthy nodeMetrics", .metric = healthy},
      {.name = "filter unhealthy nodeMetric with nil updateTime",
       .metric = no_update_time,
       .want = Code::kUnschedulable,
       .want_reason = "node(s) nodeMetric expired"},
      {.name = "filter unhealthy nodeMetric with expired updateTime",
       .metric = expired,
       .want = Code::kUnschedulable,
       .want_reason = "node(s) nodeMetric expired"},
      {.name = "an expired nodeMetric passes with enableScheduleWhenNodeMetricsExpired",
       .args = R"({"enableScheduleWhenNodeMetricsExpired": true})",
       .metric = expired},
      {.name = "an expired nodeMetric passes with filterExpiredNodeMetrics false",
       .args = R"({"filterExpiredNodeMetrics": false})",
       .metric = expired},
      {.name = "a nodeMetric 179s old is not expired",
       .metric = MetricInput{.update_time = testing::testNow() - std::chrono::seconds(179),
                             .node_metric = false}},
  });
}

TEST(LoadAwareFilterTest, KoordinatorsFilterUsageTable) {
  const std::string no_expiry = R"({"filterExpiredNodeMetrics": false})";
  MetricInput p95 = freshMetric({{"cpu", "30"}, {"memory", "100Gi"}});
  p95.aggregated = {{"5m0s", {{"p95", {{"cpu", "70"}, {"memory", "256Gi"}}}}}};
  MetricInput prod = freshMetric({{"cpu", "63"}, {"memory", "500Gi"}});  // 65.6%, 97.7%
  prod.pods = {{"prod-pod-1", {{"cpu", "30"}, {"memory", "200Gi"}}, "koord-prod"},
               {"prod-pod-2", {{"cpu", "33"}, {"memory", "300Gi"}}, "koord-prod"}};
  std::vector<PodInput> prod_pods = {
      PodInput{.name = "prod-pod-1", .priority = api::kPriorityProdValueMax},
      PodInput{.name = "prod-pod-2", .priority = api::kPriorityProdValueMax}};
  PodInput prod_pod{.name = "prod-pod-3", .priority = api::kPriorityProdValueMax};
  runFilterCases({
      {.name = "filter normal usage",
       .args = no_expiry,
       .metric = freshMetric({{"cpu", "60"}, {"memory", "256Gi"}})},
      {.name = "filter node missing NodeMetrics", .args = no_expiry},
      {.name = "filter exceed cpu usage",
       .args = no_expiry,
       .metric = freshMetric({{"cpu", "70"}, {"memory", "256Gi"}}),
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu usage exceed threshold"},
      {.name = "filter exceed p95 cpu usage",
       .args = R"({"filterExpiredNodeMetrics": false, "aggregated": {
                  "usageThresholds": {"cpu": 60}, "usageAggregationType": "p95",
                  "usageAggregatedDuration": "5m"}})",
       .metric = p95,
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu aggregated usage exceed threshold"},
      {.name = "filter exceed memory usage",
       .args = no_expiry,
       .metric = freshMetric({{"cpu", "30"}, {"memory", "500Gi"}}),
       .want = Code::kUnschedulable,
       .want_reason = "node(s) memory usage exceed threshold"},
      {.name = "filter exceed memory usage by custom usage thresholds",
       .args = no_expiry,
       .metric = freshMetric({{"cpu", "30"}, {"memory", "316Gi"}}),
       .annotation = R"({"usageThresholds":{"memory":60}})",
       .want = Code::kUnschedulable,
       .want_reason = "node(s) memory usage exceed threshold"},
      {.name = "filter exceed p95 cpu usage by custom usage",
       .args = no_expiry,
       .metric = p95,
       .annotation = R"({"aggregatedUsage":{"usageThresholds":{"cpu":60},
                         "usageAggregationType":"p95","usageAggregatedDuration":"5m"}})",
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu aggregated usage exceed threshold"},
      {.name = "disable filter exceed memory usage",
       .args = R"({"filterExpiredNodeMetrics": false, "usageThresholds": {"memory": 0}})",
       .metric = freshMetric({{"cpu", "30"}, {"memory", "500Gi"}})},
      {.name = "prod usage filter is not enabled by default",
       .args = R"({"filterExpiredNodeMetrics": false,
                  "usageThresholds": {"cpu": 100, "memory": 100}})",
       .metric = prod,
       .pods = prod_pods},
      {.name = "filter prod cpu usage",
       .args = R"({"filterExpiredNodeMetrics": false,
                  "usageThresholds": {"cpu": 100, "memory": 100},
                  "prodUsageThresholds": {"cpu": 50, "memory": 100}})",
       .metric = prod,
       .pods = prod_pods,
       .pod = prod_pod,
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu usage exceed threshold"},
      {.name = "filter prod memory usage",
       .args = R"({"filterExpiredNodeMetrics": false,
                  "usageThresholds": {"cpu": 100, "memory": 100},
                  "prodUsageThresholds": {"cpu": 100, "memory": 50}})",
       .metric = prod,
       .pods = prod_pods,
       .pod = prod_pod,
       .want = Code::kUnschedulable,
       .want_reason = "node(s) memory usage exceed threshold"},
      {.name = "filter prod memory usage with custom usage configuration",
       .args = R"({"filterExpiredNodeMetrics": false,
                  "usageThresholds": {"cpu": 100, "memory": 100},
                  "prodUsageThresholds": {"cpu": 100, "memory": 100}})",
       .metric = prod,
       .annotation = R"({"prodUsageThresholds":{"cpu":100,"memory":50}})",
       .pods = prod_pods,
       .pod = prod_pod,
       .want = Code::kUnschedulable,
       .want_reason = "node(s) memory usage exceed threshold"},
  });
}

TEST(LoadAwareFilterTest, ProdThresholdsOnlyCountPodsKoordletReportsAsProd) {
  MetricInput metric = freshMetric({{"cpu", "63"}, {"memory", "10Gi"}});
  // koordlet reports the pod without a band (a stale report): its usage is not prod usage, and
  // its whole estimate counts instead (250m here).
  metric.pods = {{"prod-pod-1", {{"cpu", "60"}}, ""}};
  runFilterCases({
      {.name = "a pod koordlet does not report as prod adds only its estimate",
       .args = R"({"prodUsageThresholds": {"cpu": 50}})",
       .metric = metric,
       .pods = {PodInput{.name = "prod-pod-1", .priority = api::kPriorityProdValueMax}},
       .pod = PodInput{.name = "prod-pod-3", .priority = api::kPriorityProdValueMax}},
      {.name = "a batch pod is held to usageThresholds, not the prod ones",
       .args = R"({"usageThresholds": {"cpu": 60}, "prodUsageThresholds": {"cpu": 100}})",
       .metric = metric,
       .pod = PodInput{.name = "batch", .priority = api::kPriorityBatchValueMin},
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu usage exceed threshold"},
  });
}

TEST(LoadAwareFilterTest, ThresholdsFromTheNodeAnnotation) {
  runFilterCases({
      {.name = "the annotation raises the args' threshold",
       .metric = freshMetric({{"cpu", "70"}}),
       .annotation = R"({"usageThresholds":{"cpu":80}})"},
      {.name = "an annotation without thresholds keeps the args'",
       .metric = freshMetric({{"cpu", "70"}}),
       .annotation = R"({"aggregatedUsage":{"usageThresholds":{"cpu":10}}})",
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu usage exceed threshold"},
      {.name = "an unreadable annotation fails the node, naming it",
       .metric = freshMetric({{"cpu", "1"}}),
       .annotation = R"({"usageThresholds":{"cpu":"high"}})",
       .want = Code::kUnschedulableAndUnresolvable,
       .want_reason = "node(s) failed to parse annotation "
                      "'scheduling.koordinator.sh/usage-thresholds': usageThresholds.cpu: "
                      "expected integer, got string"},
      {.name = "an annotation that is not JSON fails the node",
       .metric = freshMetric({{"cpu", "1"}}),
       .annotation = "{",
       .want = Code::kUnschedulableAndUnresolvable},
  });
}

TEST(LoadAwareFilterTest, UsageIsRoundedAndMayEqualTheThreshold) {
  // 96 cpu: 62.15 + 0.25 = 62.4 cpu is 65.0% (passes at 65); 62.25 + 0.25 is 65.1% (passes:
  // rounds to 65); 62.75 + 0.25 is 65.6% (rounds to 66: fails).
  runFilterCases({
      {.name = "65.0%", .metric = freshMetric({{"cpu", "62150m"}})},
      {.name = "65.1% rounds to 65", .metric = freshMetric({{"cpu", "62250m"}})},
      {.name = "65.6% rounds to 66",
       .metric = freshMetric({{"cpu", "62750m"}}),
       .want = Code::kUnschedulable,
       .want_reason = "node(s) cpu usage exceed threshold"},
  });
}

TEST(LoadAwareFilterTest, DaemonSetPodsPassAnyNode) {
  runFilterCases({
      {.name = "over the threshold",
       .metric = freshMetric({{"cpu", "90"}}),
       .pod = PodInput{.name = "ds-pod", .daemonset = true}},
      {.name = "expired metric",
       .metric = MetricInput{.node_metric = false},
       .pod = PodInput{.name = "ds-pod", .daemonset = true}},
  });
}

TEST(LoadAwareFilterTest, NodeAllocatableFollowsTheRawAllocatableAnnotation) {
  // 60 cpu used: 63% of 96, but 75% of the raw 80.
  Harness h;
  h.setMetrics({makeMetric(freshMetric({{"cpu", "60"}}))});
  auto plain = extender::testing::nodeInfo(testNode());
  EXPECT_TRUE(h.filter(*podInfo(PodInput{}), *plain).isSuccess());
  auto raw = extender::testing::nodeInfo(
      testNode("test-node-1", {{"node.koordinator.sh/raw-allocatable", R"({"cpu":"80"})"}}));
  EXPECT_EQ(h.filter(*podInfo(PodInput{}), *raw).code(), Code::kUnschedulable);
}

TEST(LoadAwareFilterTest, WithoutAnyNodeMetricPreFilterSkipsAndLooksOnce) {
  Harness h;
  framework::CycleState state;
  auto pod = podInfo(PodInput{});
  EXPECT_TRUE(h.plugin().preFilter(state, *pod).isSkip());
  EXPECT_TRUE(h.plugin().preFilter(state, *pod).isSkip());
  // The lister's count did not move: it was listed once, and no node was looked up.
  EXPECT_EQ(h.lister().lists(), 1);
  EXPECT_EQ(h.lister().gets(), 0);
  h.setMetrics({makeMetric(freshMetric({{"cpu", "1"}}))});
  EXPECT_TRUE(h.plugin().preFilter(state, *pod).isSuccess());
  EXPECT_EQ(h.lister().lists(), 2);
}

TEST(LoadAwareFilterTest, ANodeIsLookedUpAgainOnlyWhenTheMetricsMove) {
  Harness h;
  h.setMetrics({makeMetric(freshMetric({{"cpu", "90"}}))});
  auto node = extender::testing::nodeInfo(testNode());
  auto pod = podInfo(PodInput{});
  EXPECT_EQ(h.filter(*pod, *node).code(), Code::kUnschedulable);
  EXPECT_EQ(h.filter(*pod, *node).code(), Code::kUnschedulable);
  EXPECT_EQ(h.lister().gets(), 1);
  // A new report moves the count: the node is read again and passes.
  h.setMetrics({makeMetric(freshMetric({{"cpu", "10"}}))});
  EXPECT_TRUE(h.filter(*pod, *node).isSuccess());
  EXPECT_EQ(h.lister().gets(), 2);
}

// A threshold the node annotation sets on a resource the args do not name counts only when
// supportedResources names it.
TEST(LoadAwareFilterTest, SupportedResourcesAccountResourcesOnlyAnnotationsName) {
  MetricInput metric = freshMetric({{"cpu", "1"}, {"kubernetes.io/batch-cpu", "30000"}});
  auto node = extender::testing::nodeInfo(extender::testing::makeNode(
      "test-node-1", {{"cpu", "96"}, {"memory", "512Gi"}, {"kubernetes.io/batch-cpu", "40000"}},
      {{"scheduling.koordinator.sh/usage-thresholds",
        R"({"usageThresholds":{"kubernetes.io/batch-cpu":50}})"}}));
  PodInput batch{.name = "batch", .priority = api::kPriorityBatchValueMin};
  batch.requests = {{"kubernetes.io/batch-cpu", "1000"}};
  Harness ignored;
  ignored.setMetrics({makeMetric(metric)});
  EXPECT_TRUE(ignored.filter(*podInfo(batch), *node).isSuccess());
  Harness supported(api::Json::parse(R"({"supportedResources": ["kubernetes.io/batch-cpu"]})"));
  supported.setMetrics({makeMetric(metric)});
  // 30000 of 40000: 75%, over 50.
  auto status = supported.filter(*podInfo(batch), *node);
  EXPECT_EQ(status.code(), Code::kUnschedulable);
  EXPECT_EQ(status.message(), "node(s) kubernetes.io/batch-cpu usage exceed threshold");
}

TEST(LoadAwareFilterTest, FactoryWithClockJudgesExpiryAgainstThatClock) {
  extender::testing::EmptyCluster cluster;
  FakeClock clock;
  framework::ObjectStore objects;
  framework::BasicHandle handle(cluster, clock, {}, &objects);
  auto lister = std::make_shared<testing::TestMetricLister>();
  lister->set({makeMetric(MetricInput{.update_time = testing::testNow(), .node_metric = false})});
  objects.set<api::slo::NodeMetric>(lister);
  auto node = extender::testing::nodeInfo(testNode());
  auto pod = podInfo(PodInput{});
  for (const auto& [offset, want] : std::vector<std::pair<std::chrono::seconds, Code>>{
           {std::chrono::seconds(179), Code::kSuccess},
           {std::chrono::seconds(180), Code::kUnschedulable}}) {
    auto plugin =
        factoryWithClock([&, at = offset] { return testing::testNow() + at; })(nullptr, handle);
    ASSERT_TRUE(plugin.ok()) << plugin.status();
    auto* la = dynamic_cast<LoadAwarePlugin*>(plugin->get());
    ASSERT_NE(la, nullptr);
    framework::CycleState state;
    ASSERT_TRUE(la->preFilter(state, *pod).isSuccess());
    EXPECT_EQ(la->filter(state, *pod, *node).code(), want) << offset.count();
  }
}

}  // namespace
}  // namespace koord::extender::plugins::load_aware
