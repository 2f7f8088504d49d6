// RemovePodsHavingTooManyRestarts: the community's toomanyrestarts_test.go table, plus order and
// options.
#include "manager/descheduler/plugins/pod_lifecycle/too_many_restarts.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "test/unit/manager/descheduler_pod_lifecycle/plugin_harness.hpp"

namespace koord::manager::descheduler::pod_lifecycle {
namespace too_many_restarts_test_detail {

using testing::Harness;
using testing::Json;
using testing::makeNode;
using testing::makePod;
using testing::restarts;
using testing::waiting;
namespace core = api::core;

// pod-i restarts 5i in its init container and 10i in each of its two containers. pod-6 (a
// DaemonSet's), pod-7 (local storage) and pod-8 (a mirror pod) are refused by the evictor's
// filter; CPU-consumer-1/2 run on n4 and n5.
std::vector<core::Pod> initPods(const std::function<void(core::Pod&)>& apply = {}) {
  std::vector<core::Pod> pods;
  for (int32_t i = 0; i <= 9; ++i) {
    core::Pod pod = makePod("pod-" + std::to_string(i), "n1");
    testing::setInitStatuses(pod, Json::array({restarts(5 * i)}));
    pod.status.containerStatuses = Json::array({restarts(10 * i), restarts(10 * i)});
    if (apply)
      apply(pod);
    pods.push_back(pod);
  }
  pods.push_back(makePod("CPU-consumer-1", "n4"));
  pods.push_back(makePod("CPU-consumer-2", "n5"));
  return pods;
}

bool defaultEvictorFilter(const core::Pod& pod) {
  return pod.metadata.name != "pod-6" && pod.metadata.name != "pod-7" &&
         pod.metadata.name != "pod-8";
}

Json args(int32_t threshold, bool init) {
  return {{"podRestartThreshold", threshold}, {"includingInitContainers", init}};
}

struct Case {
  std::string description;
  Json args;
  std::vector<core::Pod> pods;
  std::vector<std::string> nodes;
  size_t expected;
  std::optional<size_t> max_per_node = std::nullopt;
  std::optional<size_t> max_per_namespace = std::nullopt;
  bool no_other_node_fits = false;  // nodeFit: the other node is tainted/unschedulable/full
};

TEST(RemovePodsHavingTooManyRestartsTest, CommunityTable) {
  auto crash_loop = [](core::Pod& p) {
    Json statuses = p.status.containerStatuses;
    statuses[0]["state"] = waiting("CrashLoopBackOff")["state"];
    p.status.containerStatuses = statuses;
  };
  auto init_crash_loop = [](core::Pod& p) {
    testing::setInitStatuses(p, Json::array({waiting("CrashLoopBackOff")}));
  };
  std::vector<Case> cases = {
      {"all under the threshold", args(10000, true), initPods(), {"n1"}, 0},
      {"some above threshold 1", args(1, true), initPods(), {"n1"}, 6},
      {"threshold 25 with init containers", args(25, true), initPods(), {"n1"}, 6},
      {"threshold 25 without init containers", args(25, false), initPods(), {"n1"}, 5},
      {"threshold 20 with init containers", args(20, true), initPods(), {"n1"}, 6},
      {"threshold 20 without init containers", args(20, false), initPods(), {"n1"}, 6},
      {"threshold 126 with init containers", args(5 * 25 + 1, true), initPods(), {"n1"}, 1},
      {"threshold 101 without init containers", args(5 * 20 + 1, false), initPods(), {"n1"}, 1},
      {"maxPodsToEvictPerNode=3", args(1, true), initPods(), {"n1"}, 3, 3},
      {"maxNoOfPodsToEvictPerNamespace=3", args(1, true), initPods(), {"n1"}, 3, std::nullopt, 3},
      {"the only other node is tainted",
       args(1, true),
       initPods(),
       {"n1", "n2"},
       0,
       3,
       std::nullopt,
       true},
      {"the only other node is unschedulable",
       args(1, true),
       initPods(),
       {"n1", "n3"},
       0,
       3,
       std::nullopt,
       true},
      {"the only other node lacks CPU",
       args(1, true),
       initPods(),
       {"n1", "n4"},
       0,
       3,
       std::nullopt,
       true},
      {"the other node has enough CPU", args(1, true), initPods(), {"n1", "n5"}, 3, 3},
      {"CrashLoopBackOff pods with states=CrashLoopBackOff",
       {{"podRestartThreshold", 1}, {"states", {"CrashLoopBackOff"}}},
       initPods(crash_loop),
       {"n1", "n5"},
       3,
       3},
      {"no CrashLoopBackOff with states=CrashLoopBackOff",
       {{"podRestartThreshold", 1}, {"states", {"CrashLoopBackOff"}}},
       initPods(),
       {"n1", "n5"},
       0,
       3},
      {"running pods with states=Running",
       {{"podRestartThreshold", 1}, {"states", {"Running"}}},
       initPods([](core::Pod& p) { p.status.phase = "Running"; }),
       {"n1"},
       3,
       3},
      {"pending pods with states=Running",
       {{"podRestartThreshold", 1}, {"states", {"Running"}}},
       initPods([](core::Pod& p) { p.status.phase = "Pending"; }),
       {"n1"},
       0,
       3},
      {"init CrashLoopBackOff with includingInitContainers",
       {{"podRestartThreshold", 1},
        {"states", {"CrashLoopBackOff"}},
        {"includingInitContainers", true}},
       initPods(init_crash_loop),
       {"n1"},
       3,
       3},
      {"init CrashLoopBackOff without includingInitContainers",
       {{"podRestartThreshold", 1}, {"states", {"CrashLoopBackOff"}}},
       initPods(init_crash_loop),
       {"n1"},
       0,
       3},
  };
  for (Case& c : cases) {
    SCOPED_TRACE(c.description);
    std::vector<core::Node> nodes;
    for (const auto& name : c.nodes)
      nodes.push_back(makeNode(name));
    Harness harness(std::move(nodes), std::move(c.pods));
    harness.evictor.filter_fn = defaultEvictorFilter;
    harness.evictor.max_per_node = c.max_per_node;
    harness.evictor.max_per_namespace = c.max_per_namespace;
    if (c.no_other_node_fits) {
      harness.evictor.pre_eviction_fn = [](const core::Pod&) { return false; };
    }
    Status st = harness.run(createRemovePodsHavingTooManyRestarts, c.args);
    ASSERT_TRUE(st.isOk()) << st.toString();
    EXPECT_EQ(harness.evictor.evicted.size(), c.expected);
  }
}

TEST(RemovePodsHavingTooManyRestartsTest, MostRestartsFirstUnderANodeLimit) {
  Harness harness({makeNode("n1")}, initPods());
  harness.evictor.filter_fn = defaultEvictorFilter;
  harness.evictor.max_per_node = 3;
  ASSERT_TRUE(harness.run(createRemovePodsHavingTooManyRestarts, args(1, true)).isOk());
  EXPECT_EQ(harness.evictor.evicted, (std::vector<std::string>{"pod-9", "pod-5", "pod-4"}));
  for (const auto& options : harness.evictor.options) {
    EXPECT_EQ(options.plugin, "RemovePodsHavingTooManyRestarts");
    EXPECT_EQ(options.reason, "");
  }
}

TEST(RemovePodsHavingTooManyRestartsTest, TotalRestartsCountInitContainersOnlyWhenAsked) {
  core::Pod pod = makePod("p", "n1");
  testing::setInitStatuses(pod, Json::array({restarts(5)}));
  pod.status.containerStatuses = Json::array({restarts(10), restarts(10)});
  EXPECT_EQ(podTotalRestarts(pod, false), 20);
  EXPECT_EQ(podTotalRestarts(pod, true), 25);
}

// toomanyrestarts validation_test.go, plus strict decoding.
TEST(RemovePodsHavingTooManyRestartsArgsTest, Validation) {
  EXPECT_TRUE(decodeRemovePodsHavingTooManyRestartsArgs(
                  Json{{"podRestartThreshold", 1}, {"states", {"Running"}}})
                  .ok());
  EXPECT_EQ(decodeRemovePodsHavingTooManyRestartsArgs(Json{{"podRestartThreshold", 0}})
                .status()
                .message(),
            "RemovePodsHavingTooManyRestartsArgs.podRestartThreshold: invalid "
            "PodsHavingTooManyRestarts threshold");
  EXPECT_EQ(decodeRemovePodsHavingTooManyRestartsArgs(
                Json{{"podRestartThreshold", 1}, {"states", {"Failed"}}})
                .status()
                .message(),
            "RemovePodsHavingTooManyRestartsArgs.states: states must be one of [CrashLoopBackOff "
            "Running]");
  EXPECT_TRUE(decodeRemovePodsHavingTooManyRestartsArgs(
                  Json{{"podRestartThreshold", 1}, {"states", {"CrashLoopBackOff"}}})
                  .ok());
  EXPECT_EQ(decodeRemovePodsHavingTooManyRestartsArgs(
                Json{{"podRestartThreshold", 0}, {"states", {"Failed"}}})
                .status()
                .message(),
            "[RemovePodsHavingTooManyRestartsArgs.podRestartThreshold: invalid "
            "PodsHavingTooManyRestarts threshold, RemovePodsHavingTooManyRestartsArgs.states: "
            "states must be one of [CrashLoopBackOff Running]]");
  // No args at all: the threshold stays 0, which validation refuses.
  EXPECT_FALSE(decodeRemovePodsHavingTooManyRestartsArgs(nullptr).ok());
}

TEST(RemovePodsHavingTooManyRestartsArgsTest, StrictDecoding) {
  EXPECT_EQ(decodeRemovePodsHavingTooManyRestartsArgs(
                Json{{"podRestartThreshold", 1}, {"podRestartThresholds", 1}})
                .status()
                .message(),
            "RemovePodsHavingTooManyRestartsArgs.podRestartThresholds: unknown field");
  auto too_big =
      decodeRemovePodsHavingTooManyRestartsArgs(Json{{"podRestartThreshold", int64_t{1} << 40}});
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().message().rfind(
                "RemovePodsHavingTooManyRestartsArgs.podRestartThreshold: ", 0),
            0U);
  auto wrong = decodeRemovePodsHavingTooManyRestartsArgs(
      Json{{"podRestartThreshold", 1}, {"includingInitContainers", "yes"}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message().rfind(
                "RemovePodsHavingTooManyRestartsArgs.includingInitContainers: ", 0),
            0U);
  auto ok = decodeRemovePodsHavingTooManyRestartsArgs(
      Json{{"apiVersion", "descheduler/v1alpha2"},
           {"kind", "RemovePodsHavingTooManyRestartsArgs"},
           {"podRestartThreshold", 3},
           {"includingInitContainers", true}});
  ASSERT_TRUE(ok.ok()) << ok.status().toString();
  EXPECT_EQ(ok->podRestartThreshold, 3);
  EXPECT_TRUE(ok->includingInitContainers);
}

}  // namespace too_many_restarts_test_detail
}  // namespace koord::manager::descheduler::pod_lifecycle
