// PodLifeTime: the community's pod_lifetime_test.go tables for the evictor, limits, container
// waiting reasons, pod status reasons, phases and age, plus ordering and options.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/unit/manager/descheduler_pod_lifecycle/pod_lifetime_cases.hpp"

namespace koord::manager::descheduler::pod_lifecycle::pod_lifetime_cases {
namespace pod_lifetime_test_detail {

TEST(PodLifeTimeTest, EvictorAndGenericFiltering) {
  runCases({
      {"terminating pods are refused by the evictor",
       withMax({{"labelSelector", {{"matchLabels", {{"foo", "bar"}}}}}}),
       {pod("p14", kOlder), pod("p15", kOlder)},
       0,
       {},
       [](testing::FakeEvictor& e) { e.filter_fn = [](const core::Pod&) { return false; }; }},
      {"a PVC pod the evictor ignores is not evicted",
       withMax(Json::object()),
       {pod("p11", kOlder)},
       0,
       {},
       refuse("p11")},
      {"a PVC pod the evictor accepts is evicted",
       withMax(Json::object()),
       {pod("p11", kOlder)},
       1},
      {"1 pod matching label selector is evicted",
       withMax({{"labelSelector", {{"matchLabels", {{"foo", "bar"}}}}}}),
       {pod("p12", kOlder, [](core::Pod& p) { p.metadata.labels["foo"] = "bar"; }),
        pod("p13", kOlder, [](core::Pod& p) { p.metadata.labels["foo"] = "bar1"; })},
       1,
       {"p12"}},
  });
}

TEST(PodLifeTimeTest, EvictionLimitsTakeTheOldestFirst) {
  std::vector<core::Pod> two = {pod("p1", secondsAgo(0)), pod("p2", kOlder)};
  runCases({
      {"2 oldest pods without limits",
       withMax(Json::object()),
       {pod("p1", secondsAgo(0)), pod("p2", kOlder), pendingPod("p9", kOlder)},
       2,
       {"p2", "p9"}},
      {"maxPodsToEvictPerNamespace=1",
       withMax(Json::object()),
       two,
       1,
       {"p2"},
       [](testing::FakeEvictor& e) { e.max_per_namespace = 1; }},
      {"maxPodsToEvictTotal=1",
       withMax(Json::object()),
       two,
       1,
       {"p2"},
       [](testing::FakeEvictor& e) {
         e.max_per_namespace = 2;
         e.max_total = 1;
       }},
      {"maxPodsToEvictPerNode=1",
       withMax(Json::object()),
       two,
       1,
       {"p2"},
       [](testing::FakeEvictor& e) { e.max_per_node = 1; }},
  });
}

TEST(PodLifeTimeTest, ContainerWaitingReasons) {
  auto stuck = [](const std::string& name, const std::string& reason) {
    return pod(name, kOlder,
               [&](core::Pod& p) { p.status.containerStatuses = Json::array({waiting(reason)}); });
  };
  auto pending_with = [](const std::string& reason, const char* list) {
    return pendingPod("p9", kOlder, [&](core::Pod& p) {
      Json statuses = Json::array({waiting(reason)});
      if (std::string(list) == "init") {
        testing::setInitStatuses(p, statuses);
      } else if (std::string(list) == "ephemeral") {
        testing::setEphemeralStatuses(p, statuses);
      } else {
        p.status.containerStatuses = statuses;
      }
    });
  };
  std::vector<Case> cases = {
      {"ContainerCreating: 1 of 2",
       withMax({{"states", {"ContainerCreating"}}}),
       {pendingPod("p9", kOlder), stuck("container-creating-stuck", "ContainerCreating")},
       1,
       {"container-creating-stuck"}},
      {"PodInitializing: 1 of 2",
       withMax({{"states", {"PodInitializing"}}}),
       {pendingPod("p9", kOlder), stuck("pod-initializing-stuck", "PodInitializing")},
       1,
       {"pod-initializing-stuck"}},
      {"init CreateContainerError without includingInitContainers",
       withMax({{"states", {"CreateContainerError"}}}),
       {pending_with("CreateContainerError", "init")},
       0},
      {"init CreateContainerError with includingInitContainers",
       withMax({{"states", {"CreateContainerError"}}, {"includingInitContainers", true}}),
       {pending_with("CreateContainerError", "init")},
       1},
      {"ephemeral CreateContainerError without includingEphemeralContainers",
       withMax({{"states", {"CreateContainerError"}}}),
       {pending_with("CreateContainerError", "ephemeral")},
       0},
      {"ephemeral CreateContainerError with includingEphemeralContainers",
       withMax({{"states", {"CreateContainerError"}}, {"includingEphemeralContainers", true}}),
       {pending_with("CreateContainerError", "ephemeral")},
       1},
      {"ImagePullBackOff is ignored when states is ContainerCreating",
       withMax({{"states", {"ContainerCreating"}}}),
       {pending_with("ImagePullBackOff", "")},
       0},
  };
  for (const char* reason : {"ImagePullBackOff", "CrashLoopBackOff", "CreateContainerConfigError",
                             "ErrImagePull", "CreateContainerError", "InvalidImageName"}) {
    cases.push_back({std::string("container waiting ") + reason,
                     withMax({{"states", {reason}}}),
                     {pending_with(reason, "")},
                     1});
  }
  runCases(cases);
}

TEST(PodLifeTimeTest, PodStatusReasonsAndPhases) {
  std::vector<Case> cases;
  for (const char* reason : {"NodeLost", "NodeAffinity", "Shutdown", "UnexpectedAdmissionError"}) {
    cases.push_back({std::string("status reason ") + reason,
                     withMax({{"states", {reason}}}),
                     {pendingPod("p9", kOlder, [&](core::Pod& p) { p.status.reason = reason; })},
                     1});
  }
  cases.push_back({"Pending selects 1 of 2 old pods",
                   withMax({{"states", {"Pending"}}}),
                   {pendingPod("p9", kOlder),
                    pod("p10", kOlder, [](core::Pod& p) { p.status.phase = "Running"; })},
                   1,
                   {"p9"}});
  for (const char* phase : {"Succeeded", "Failed", "Unknown"}) {
    cases.push_back({std::string("phase ") + phase,
                     withMax({{"states", {phase}}}),
                     {pod("p16", kOlder, [&](core::Pod& p) { p.status.phase = phase; })},
                     1});
  }
  runCases(cases);
}

TEST(PodLifeTimeTest, AgeThreshold) {
  runCases({
      {"1 new and 1 very old: the old one",
       withMax(Json::object()),
       {pod("p1", secondsAgo(0)), pod("p2", kOlder)},
       1,
       {"p2"}},
      {"2 new: none",
       withMax(Json::object()),
       {pod("p3", secondsAgo(0)), pod("p4", secondsAgo(0))},
       0},
      {"created 605 seconds ago: evicted",
       withMax(Json::object()),
       {pod("p5", secondsAgo(0)), pod("p6", secondsAgo(605))},
       1,
       {"p6"}},
      {"created 595 seconds ago: kept",
       withMax(Json::object()),
       {pod("p7", secondsAgo(0)), pod("p8", secondsAgo(595))},
       0},
      {"exactly 600 seconds is not older than 600",
       withMax(Json::object()),
       {pod("p8", secondsAgo(600))},
       0},
      {"created in the future: kept", withMax(Json::object()), {pod("p8", secondsAgo(-30))}, 0},
  });
}

TEST(PodLifeTimeTest, OldestFirstAcrossNodesWithTheOptionsNamingThePlugin) {
  core::Pod a = makePod("a", "n1");
  a.metadata.creationTimestamp = secondsAgo(1000);
  core::Pod b = makePod("b", "n2");
  b.metadata.creationTimestamp = secondsAgo(3000);
  core::Pod c = makePod("c", "n1");
  c.metadata.creationTimestamp = secondsAgo(2000);
  Harness harness({makeNode("n1"), makeNode("n2")}, {a, b, c});
  ASSERT_TRUE(harness.run(createPodLifeTime, Json{{"maxPodLifeTimeSeconds", 600}}).isOk());
  EXPECT_EQ(harness.evictor.evicted, (std::vector<std::string>{"b", "c", "a"}));
  for (const auto& options : harness.evictor.options) {
    EXPECT_EQ(options.plugin, "PodLifeTime");
    EXPECT_EQ(options.reason, "");
  }
}

TEST(PodLifeTimeTest, ANodeAtItsLimitIsSkippedButOthersContinue) {
  core::Pod a = makePod("a", "n1");
  a.metadata.creationTimestamp = secondsAgo(4000);
  core::Pod b = makePod("b", "n1");
  b.metadata.creationTimestamp = secondsAgo(3000);
  core::Pod c = makePod("c", "n2");
  c.metadata.creationTimestamp = secondsAgo(2000);
  Harness harness({makeNode("n1"), makeNode("n2")}, {a, b, c});
  harness.evictor.max_per_node = 1;
  ASSERT_TRUE(harness.run(createPodLifeTime, Json{{"maxPodLifeTimeSeconds", 600}}).isOk());
  EXPECT_EQ(harness.evictor.evicted, (std::vector<std::string>{"a", "c"}));
}

}  // namespace pod_lifetime_test_detail
}  // namespace koord::manager::descheduler::pod_lifecycle::pod_lifetime_cases
