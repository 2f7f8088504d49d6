// The assign-cache arithmetic (node_load.hpp, metric_view.hpp), after Koordinator's
// pod_assign_cache_test.go: TestShouldEstimatePodDeadline and TestNodeMetric.
#include "extender/plugins/load_aware/node_load.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "load_aware_test_util.hpp"

namespace koord::extender::plugins::load_aware {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using testing::makeMetric;
using testing::MetricInput;
using testing::PodInput;
using testing::testNow;

LoadAwareArgs argsFrom(const std::string& json) {
  auto args = decodeArgs(api::Json::parse(json), "LoadAwareScheduling");
  EXPECT_TRUE(args.ok()) << args.status();
  return args.ok() ? *args : LoadAwareArgs{};
}

TEST(NodeLoadTest, KoordinatorsShouldEstimatePodDeadlineTable) {
  const WallTime now = testNow();
  const WallTime timestamp = now - minutes(1);
  PodInput scheduled{.name = "pod", .scheduled = timestamp};
  PodInput scheduled_and_initialized = scheduled;
  scheduled_and_initialized.initialized = now - seconds(30);
  PodInput initialized{.name = "pod", .initialized = timestamp};
  auto not_initialized = testing::makePod(PodInput{.name = "pod"});
  api::core::PodCondition condition;
  condition.type = "Initialized";
  condition.status = "False";
  condition.lastTransitionTime = testing::rfc3339(timestamp);
  not_initialized->status.conditions.push_back(condition);
  PodInput scheduled_annotated = scheduled;
  scheduled_annotated.annotations = {
      {"scheduling.koordinator.sh/load-estimated-seconds-after-pod-scheduled", "180"}};
  PodInput scheduled_zero = scheduled;
  scheduled_zero.annotations = {
      {"scheduling.koordinator.sh/load-estimated-seconds-after-pod-scheduled", "0"}};
  PodInput initialized_annotated = initialized;
  initialized_annotated.annotations = {
      {"scheduling.koordinator.sh/load-estimated-seconds-after-initialized", "180"}};

  struct Case {
    std::string name;
    std::string args;
    std::shared_ptr<api::core::Pod> pod;
    std::optional<WallTime> want;
  };
  const std::vector<Case> cases = {
      {"disabled", "{}", testing::makePod(scheduled), std::nullopt},
      {"enabled for pod scheduled", R"({"estimatedSecondsAfterPodScheduled": 180})",
       testing::makePod(scheduled), now + minutes(2)},
      {"disabled pod scheduled when pod initialized",
       R"({"estimatedSecondsAfterPodScheduled": 180, "estimatedSecondsAfterInitialized": 10})",
       testing::makePod(scheduled_and_initialized), now - seconds(20)},
      {"enabled for pod initialized", R"({"estimatedSecondsAfterInitialized": 180})",
       testing::makePod(initialized), now + minutes(2)},
      {"disabled for pod initialized when condition is not satisfied",
       R"({"estimatedSecondsAfterInitialized": 180})", not_initialized, std::nullopt},
      {"after pod scheduled from metadata", R"({"allowCustomizeEstimation": true})",
       testing::makePod(scheduled_annotated), now + minutes(2)},
      {"after initialized from metadata", R"({"allowCustomizeEstimation": true})",
       testing::makePod(initialized_annotated), now + minutes(2)},
      {"metadata is ignored without allowCustomizeEstimation", "{}",
       testing::makePod(scheduled_annotated), std::nullopt},
      {"metadata 0 turns the args' estimation off",
       R"({"allowCustomizeEstimation": true, "estimatedSecondsAfterPodScheduled": 180})",
       testing::makePod(scheduled_zero), std::nullopt},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const LoadAwareArgs args = argsFrom(c.args);
    Estimator estimator(args, ResourceNames::fromArgs(args));
    // A pod without a PodScheduled time is taken as placed when first seen (here a minute ago).
    const PodLoad load = podLoad(*c.pod, estimator, args, timestamp);
    EXPECT_EQ(load.timestamp, timestamp);
    EXPECT_EQ(load.deadline, c.want);
  }
}

TEST(NodeLoadTest, KoordinatorsNodeMetricTableDisableEstimator) {
  const LoadAwareArgs args = argsFrom("{}");
  const ResourceNames names = ResourceNames::fromArgs(args);
  Estimator estimator(args, names);
  MetricInput in;
  in.node_usage = {{"cpu", "72"}, {"memory", "280Gi"}};
  in.pods = {{"invalid", {}, ""},
             {"prod-1", {{"cpu", "50"}, {"memory", "200Gi"}}, "koord-prod"},
             {"mid-1", {{"cpu", "20"}, {"memory", "75Gi"}}, "koord-mid"}};
  auto view = MetricView::build(*makeMetric(in), names);
  EXPECT_EQ(view->pod_usages.size(), 2u);  // "invalid" reports no usage

  PodInput prod{.name = "prod-1", .requests = {{"cpu", "40"}, {"memory", "160Gi"}}};
  PodInput mid{.name = "mid-1",
               .requests = {{"kubernetes.io/mid-cpu", "4k"}, {"kubernetes.io/mid-memory", "8Gi"}},
               .priority = api::kPriorityMidValueDefault};
  NodeLoad load = emptyLoad(*view, args.prod_usage_include_sys);
  for (const auto& pod : {prod, mid})
    load.add(podLoad(*testing::makePod(pod), estimator, args, testNow()), *view);
  EXPECT_EQ(load.prod_usage,
            names.fromList(testing::resourceList({{"cpu", "50"}, {"memory", "200Gi"}})));
}

TEST(NodeLoadTest, KoordinatorsNodeMetricTableEnableProdUsageIncludeSys) {
  const LoadAwareArgs args = argsFrom(R"({"prodUsageIncludeSys": true})");
  const ResourceNames names = ResourceNames::fromArgs(args);
  MetricInput in;
  in.update_time = testNow();
  in.report_interval_seconds = 180;
  in.node_usage = {{"cpu", "2"}, {"memory", "4Gi"}};
  in.system_usage = {{"cpu", "2"}, {"memory", "4Gi"}};
  in.aggregated = {
      {"1m0s",
       {{"avg", {{"cpu", "1"}, {"memory", "2Gi"}}}, {"p90", {{"cpu", "2"}, {"memory", "4Gi"}}}}},
      {"1h0m0s",
       {{"avg", {{"cpu", "500m"}, {"memory", "1Gi"}}},
        {"p90", {{"cpu", "1500m"}, {"memory", "3Gi"}}}}}};
  auto view = MetricView::build(*makeMetric(in), names);
  auto vec = [&](const testing::Quantities& q) { return names.fromList(testing::resourceList(q)); };
  EXPECT_EQ(view->update_time, testNow());
  EXPECT_EQ(view->report_interval, seconds(180));
  EXPECT_EQ(view->node_usage, vec({{"cpu", "2"}, {"memory", "4Gi"}}));
  EXPECT_EQ(emptyLoad(*view, true).prod_usage, vec({{"cpu", "2"}, {"memory", "4Gi"}}));
  EXPECT_EQ(emptyLoad(*view, false).prod_usage, vec({}));
  using Key = std::pair<std::string, int64_t>;
  const int64_t m = std::chrono::nanoseconds(minutes(1)).count();
  const int64_t h = std::chrono::nanoseconds(minutes(60)).count();
  EXPECT_EQ(view->aggregated, (std::map<Key, ResourceVector>{
                                  {{"avg", 0}, vec({{"cpu", "500m"}, {"memory", "1Gi"}})},
                                  {{"p90", 0}, vec({{"cpu", "1500m"}, {"memory", "3Gi"}})},
                                  {{"avg", m}, vec({{"cpu", "1"}, {"memory", "2Gi"}})},
                                  {{"p90", m}, vec({{"cpu", "2"}, {"memory", "4Gi"}})},
                                  {{"avg", h}, vec({{"cpu", "500m"}, {"memory", "1Gi"}})},
                                  {{"p90", h}, vec({{"cpu", "1500m"}, {"memory", "3Gi"}})},
                              }));
  // Without an aggregated usage of the duration asked for, there is no such usage; with
  // duration 0 and none of the type, nodeUsage stands in.
  EXPECT_EQ(view->aggregatedUsage("p90", minutes(5)), nullptr);
  ASSERT_NE(view->aggregatedUsage("p99", std::chrono::nanoseconds(0)), nullptr);
  EXPECT_EQ(*view->aggregatedUsage("p99", std::chrono::nanoseconds(0)), view->node_usage);
}

TEST(NodeLoadTest, DeltaCountsOnlyWhatTheEstimateExceedsTheReportedUsage) {
  const LoadAwareArgs args = argsFrom("{}");
  const ResourceNames names = ResourceNames::fromArgs(args);
  Estimator estimator(args, names);
  MetricInput in;
  in.update_time = testNow();
  in.node_usage = {{"cpu", "10"}, {"memory", "10Gi"}};
  in.pods = {{"busy", {{"cpu", "20"}, {"memory", "1Gi"}}, ""}};
  auto view = MetricView::build(*makeMetric(in), names);
  NodeLoad load = emptyLoad(*view, false);
  // Placed 10 s ago, within the report interval: estimated 13600m / 22.4Gi (24051816858),
  // reported 20 / 1Gi.
  load.add(
      podLoad(*testing::makePod(testing::bigPod("busy")), estimator, args, testNow() - seconds(10)),
      *view);
  EXPECT_EQ(load.node_delta[0], 0);
  EXPECT_EQ(load.node_delta[1], 24051816858 - testing::kGi);
  EXPECT_EQ(load.node_estimated[0], 13600);
  const ResourceVector existing =
      existingUsage(load, *view, false, "", std::chrono::nanoseconds(0));
  EXPECT_EQ(existing[0], 10000);
  EXPECT_EQ(existing[1], 10 * testing::kGi + 24051816858 - testing::kGi);
}

}  // namespace
}  // namespace koord::extender::plugins::load_aware
