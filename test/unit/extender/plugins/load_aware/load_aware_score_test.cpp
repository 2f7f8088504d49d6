// LoadAwareScheduling's score, after Koordinator's load_aware_test.go TestScore (each case named
// after the Go case; Koordinator's current plugin scores 0 when the NodeMetric has no
// status.nodeMetric, so the cases that score an idle node give it an empty one), and the burst
// that the estimate of pods placed since the last report prevents.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "load_aware_test_util.hpp"

namespace koord::extender::plugins::load_aware {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using testing::bigPod;
using testing::freshMetric;
using testing::Harness;
using testing::makeMetric;
using testing::MetricInput;
using testing::podInfo;
using testing::PodInput;
using testing::testNode;
using testing::testNow;

struct ScoreCase {
  std::string name = "";
  std::string args = "{}";
  std::optional<MetricInput> metric = std::nullopt;
  std::vector<PodInput> assigned = {};  // on the node
  PodInput pod = bigPod("test-pod-1");
  int64_t want = 0;
};

void runScoreCases(const std::vector<ScoreCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Harness h(api::Json::parse(c.args));
    if (c.metric)
      h.setMetrics({makeMetric(*c.metric)});
    else
      h.setMetrics({makeMetric(MetricInput{.node = "other-node", .update_time = h.now()})});
    std::vector<std::shared_ptr<const framework::PodInfo>> pods;
    for (const auto& p : c.assigned)
      pods.push_back(podInfo(p));
    auto node = extender::testing::nodeInfo(testNode(), pods);
    EXPECT_EQ(h.score(*podInfo(c.pod), *node), c.want);
  }
}

PodInput assigned(std::string name, WallTime scheduled) {
  PodInput in = bigPod(std::move(name));
  in.scheduled = scheduled;
  return in;
}

TEST(LoadAwareScoreTest, KoordinatorsScoreTable) {
  const std::string p95 =
      R"({"aggregated": {"scoreAggregationType": "p95", "scoreAggregatedDuration": "5m"}})";
  MetricInput aggregated = freshMetric({{"cpu", "0"}, {"memory", "0"}});
  aggregated.aggregated = {{"5m0s",
                            {{"p95", {{"cpu", "32"}, {"memory", "10Gi"}}},
                             {"p99", {{"cpu", "50"}, {"memory", "70Gi"}}}}}};
  MetricInput reported_assigned = freshMetric({{"cpu", "0"}, {"memory", "0"}});
  reported_assigned.pods = {{"assigned-pod-1", {{"cpu", "1"}, {"memory", "1Gi"}}, ""}};
  MetricInput before_update = freshMetric({{"cpu", "32"}, {"memory", "10Gi"}});
  before_update.update_time = testNow() - seconds(10);
  MetricInput prod = freshMetric({});
  prod.pods = {{"assign-prod-pod-1", {{"cpu", "30"}, {"memory", "100Gi"}}, "koord-prod"}};
  PodInput prod_pod = bigPod("prod-pod-1");
  prod_pod.priority = api::kPriorityProdValueMax;
  prod_pod.requests = {{"cpu", "16000"}, {"memory", "32Gi"}};
  prod_pod.limits = prod_pod.requests;
  PodInput assigned_prod = assigned("assign-prod-pod-1", testNow());
  assigned_prod.priority = api::kPriorityProdValueMax;
  PodInput batch_pod{.name = "test-pod-1", .priority = api::kPriorityBatchValueMin};
  batch_pod.requests = {{"kubernetes.io/batch-cpu", "16000"},
                        {"kubernetes.io/batch-memory", "32Gi"}};
  batch_pod.limits = batch_pod.requests;
  PodInput burstable = bigPod("test-pod-1");
  burstable.requests = {{"cpu", "8"}, {"memory", "16Gi"}};
  runScoreCases({
      {.name = "score node with expired nodeMetric",
       .metric = MetricInput{.update_time = testNow() - seconds(180), .node_metric = false},
       .want = 0},
      // 13600m of 96 cpu: 85; 22.4Gi of 512Gi: 95.
      {.name = "score empty node", .metric = freshMetric({}), .want = 90},
      {.name = "score node missing NodeMetrics", .want = 0},
      {.name = "score a NodeMetric without status.nodeMetric",
       .metric = MetricInput{.update_time = testNow(), .node_metric = false},
       .want = 0},
      // 45.6 cpu: 52; 32.4Gi: 93.
      {.name = "score load node",
       .metric = freshMetric({{"cpu", "32"}, {"memory", "10Gi"}}),
       .want = 72},
      {.name = "score load node with p95", .args = p95, .metric = aggregated, .want = 72},
      {.name = "score load node with p95 but have not reported usage",
       .args = p95,
       .metric = freshMetric({{"cpu", "0"}, {"memory", "0"}}),
       .want = 90},
      // No p95 over 5m: the node counts the estimates of its pods (27.2 cpu: 71; 44.8Gi: 91).
      {.name = "score load node with p95 but have not reported usage and have assigned pods",
       .args = p95,
       .metric = reported_assigned,
       .assigned = {assigned("assigned-pod-1", testNow() - minutes(10))},
       .want = 81},
      // 59.2 cpu: 38; 54.8Gi: 89.
      {.name = "score load node with just assigned pod",
       .metric = freshMetric({{"cpu", "32"}, {"memory", "10Gi"}}),
       .assigned = {assigned("assigned-pod-1", testNow())},
       .want = 63},
      {.name = "score load node with just assigned pod where after updateTime",
       .metric = before_update,
       .assigned = {assigned("assigned-pod-1", testNow())},
       .want = 63},
      {.name = "score load node with just assigned pod where before updateTime",
       .metric = freshMetric({{"cpu", "32"}, {"memory", "10Gi"}}),
       .assigned = {assigned("assigned-pod-1", testNow() - seconds(10))},
       .want = 63},
      {.name = "score batch Pod", .metric = freshMetric({}), .pod = batch_pod, .want = 90},
      // cpu over capacity: 0; 122.4Gi (the reported 100Gi + the pod's 22.4Gi): 76.
      {.name = "score prod Pod",
       .args = R"({"scoreAccordingProdUsage": true})",
       .metric = prod,
       .assigned = {assigned_prod},
       .pod = prod_pod,
       .want = 38},
      // Koordinator's table reads 88 here, from an earlier estimator that took the limit
      // unscaled; the current one scales it (13600m: 85; 22.4Gi: 95).
      {.name = "score request less than limit",
       .metric = freshMetric({}),
       .pod = burstable,
       .want = 90},
      // 250m: 99; 200Mi: 99.
      {.name = "score empty pod",
       .metric = freshMetric({}),
       .pod = PodInput{.name = "test-pod-1"},
       .want = 99},
  });
}

TEST(LoadAwareScoreTest, AssignedPodsAlreadyReportedAreNotEstimatedAgain) {
  MetricInput metric = freshMetric({{"cpu", "32"}, {"memory", "10Gi"}});
  metric.pods = {{"assigned-pod-1", {{"cpu", "1"}, {"memory", "1Gi"}}, ""}};
  runScoreCases({
      // Scheduled 10 minutes before a report that shows it: its usage is in nodeUsage.
      {.name = "reported",
       .metric = metric,
       .assigned = {assigned("assigned-pod-1", testNow() - minutes(10))},
       .want = 72},
      // Scheduled within the report interval: estimated beyond what it reports (12.6 cpu more).
      {.name = "within the report interval",
       .metric = metric,
       .assigned = {assigned("assigned-pod-1", testNow() - seconds(30))},
       .want = 64},
      // Forced by estimatedSecondsAfterPodScheduled while starting.
      {.name = "forced for 15 minutes after scheduling",
       .args = R"({"estimatedSecondsAfterPodScheduled": 900})",
       .metric = metric,
       .assigned = {assigned("assigned-pod-1", testNow() - minutes(10))},
       .want = 64},
  });
}

TEST(LoadAwareScoreTest, DominantResourceWeight) {
  const MetricInput load = freshMetric({{"cpu", "32"}, {"memory", "10Gi"}});  // cpu 52, memory 93
  runScoreCases({
      {.name = "(52 + 93 + 1 * 52) / 3",
       .args = R"({"dominantResourceWeight": 1, "resourceWeights": {"cpu": 1, "memory": 1}})",
       .metric = load,
       .want = 65},
      // resourceWeights take no default with a dominant weight.
      {.name = "dominant weight alone",
       .args = R"({"dominantResourceWeight": 2})",
       .metric = load,
       .want = 52},
      {.name = "weights 3 cpu, 1 memory",
       .args = R"({"resourceWeights": {"cpu": 3, "memory": 1}})",
       .metric = load,
       .want = 62},
  });
}

TEST(LoadAwareScoreTest, ScoresAggregatedUsageOfTheLongestDurationWhenNoneIsGiven) {
  MetricInput metric = freshMetric({{"cpu", "0"}, {"memory", "0"}});
  metric.aggregated = {{"5m0s", {{"p95", {{"cpu", "80"}, {"memory", "10Gi"}}}}},
                       {"30m0s", {{"p95", {{"cpu", "32"}, {"memory", "10Gi"}}}}}};
  runScoreCases({{.name = "p95 over 30m",
                  .args = R"({"aggregated": {"scoreAggregationType": "p95"}})",
                  .metric = metric,
                  .want = 72}});
}

// Pods placed on an idle node since its last report count at their estimate, so that a burst of
// pods does not all go to the node that looked idlest.
TEST(LoadAwareScoreTest, ABurstSpreadsOverEquallyIdleNodes) {
  Harness h;
  h.setMetrics({makeMetric(MetricInput{.node = "node-a",
                                       .update_time = testNow(),
                                       .node_usage = {{"cpu", "8"}, {"memory", "32Gi"}}}),
                makeMetric(MetricInput{.node = "node-b",
                                       .update_time = testNow(),
                                       .node_usage = {{"cpu", "8"}, {"memory", "32Gi"}}})});
  std::map<std::string, std::vector<std::shared_ptr<const framework::PodInfo>>> placed;
  std::vector<std::string> order;
  for (int i = 0; i < 4; ++i) {
    auto pod = podInfo(bigPod("burst-" + std::to_string(i)));
    std::string best;
    int64_t best_score = -1;
    for (const std::string name : {"node-a", "node-b"}) {
      auto node = extender::testing::nodeInfo(testNode(name), placed[name]);
      const int64_t s = h.score(*pod, *node);
      if (s > best_score) {
        best_score = s;
        best = name;
      }
    }
    order.push_back(best);
    placed[best].push_back(pod);  // the informer (or the assume cache) shows it there
  }
  EXPECT_EQ(order, (std::vector<std::string>{"node-a", "node-b", "node-a", "node-b"}));
}

// The same burst against a usage threshold: an idle node takes pods only until their estimates
// reach the threshold, then refuses until a report shows what they really use.
TEST(LoadAwareScoreTest, ABurstStopsAtTheThresholdUntilTheNextReport) {
  Harness h;
  MetricInput metric{.update_time = testNow(), .node_usage = {{"cpu", "40"}}};
  h.setMetrics({makeMetric(metric)});
  std::vector<std::shared_ptr<const framework::PodInfo>> pods;
  auto first = podInfo(bigPod("burst-0"));
  // 40 + 13.6 cpu: 56%.
  EXPECT_TRUE(h.filter(*first, *extender::testing::nodeInfo(testNode(), pods)).isSuccess());
  pods.push_back(first);
  auto second = podInfo(bigPod("burst-1"));
  // 40 + 13.6 + 13.6 cpu: 70%, over 65.
  auto status = h.filter(*second, *extender::testing::nodeInfo(testNode(), pods));
  EXPECT_EQ(status.code(), framework::Code::kUnschedulable);
  EXPECT_EQ(status.message(), "node(s) cpu usage exceed threshold");
  // Two minutes later koordlet reports the first pod at 2 cpu: 42 + 13.6 cpu is 58%.
  h.setNow(testNow() + minutes(2));
  metric.update_time = h.now();
  metric.node_usage = {{"cpu", "42"}};
  metric.pods = {{"burst-0", {{"cpu", "2"}}, ""}};
  h.setMetrics({makeMetric(metric)});
  EXPECT_TRUE(h.filter(*second, *extender::testing::nodeInfo(testNode(), pods)).isSuccess());
}

TEST(LoadAwareScoreTest, ReserveCountsTheBindInFlightUntilTheNodeShowsThePod) {
  Harness h;
  h.setMetrics({makeMetric(freshMetric({{"cpu", "32"}, {"memory", "10Gi"}}))});
  auto node = extender::testing::nodeInfo(testNode());
  auto incoming = podInfo(bigPod("incoming"));
  EXPECT_EQ(h.score(*incoming, *node), 72);

  auto in_flight = podInfo(bigPod("in-flight"));
  framework::CycleState state;
  ASSERT_TRUE(h.plugin().reserve(state, *in_flight, *node).isSuccess());
  EXPECT_EQ(h.allocations().onNode(kName, "test-node-1").size(), 1u);
  // As "score load node with just assigned pod".
  EXPECT_EQ(h.score(*incoming, *node), 63);
  // Once the node shows it (assumed, or bound), it is counted once.
  auto shown = extender::testing::nodeInfo(testNode(), {in_flight});
  EXPECT_EQ(h.score(*incoming, *shown), 63);
  // The in-flight pod itself is not counted twice when it is the one being scored (a retried
  // bind).
  EXPECT_EQ(h.score(*in_flight, *node), 72);

  h.plugin().unreserve(state, *in_flight, "test-node-1");
  h.plugin().unreserve(state, *in_flight, "test-node-1");  // idempotent
  EXPECT_EQ(h.allocations().onNode(kName, "test-node-1").size(), 0u);
  EXPECT_EQ(h.score(*incoming, *node), 72);
}

TEST(LoadAwareScoreTest, ReservePodsOfReservationsAreNotRecorded) {
  Harness h;
  PodInput reserve_pod = bigPod("reservation-1");
  reserve_pod.annotations = {{"scheduling.koordinator.sh/reserve-pod", "true"}};
  framework::CycleState state;
  auto node = extender::testing::nodeInfo(testNode());
  ASSERT_TRUE(h.plugin().reserve(state, *podInfo(reserve_pod), *node).isSuccess());
  EXPECT_TRUE(h.allocations().empty());
}

TEST(LoadAwareScoreTest, ShippedArgsScoreWithoutFiltering) {
  Harness h(api::Json::parse(R"({"filterExpiredNodeMetrics": false,
      "nodeMetricExpirationSeconds": 300, "usageThresholds": {"cpu": 0, "memory": 0},
      "estimatedScalingFactors": {"cpu": 85, "memory": 70}})"));
  MetricInput metric = freshMetric({{"cpu", "95"}, {"memory", "10Gi"}});
  metric.update_time = testNow() - seconds(299);
  h.setMetrics({makeMetric(metric)});
  auto node = extender::testing::nodeInfo(testNode());
  auto pod = podInfo(bigPod("p"));
  EXPECT_TRUE(h.filter(*pod, *node).isSuccess());
  EXPECT_EQ(h.score(*pod, *node), 46);  // cpu over capacity: 0; memory 93
  h.setNow(testNow() + seconds(1));     // 300 s old: expired, scored 0 but not filtered
  EXPECT_TRUE(h.filter(*pod, *node).isSuccess());
  EXPECT_EQ(h.score(*pod, *node), 0);
}

}  // namespace
}  // namespace koord::extender::plugins::load_aware
