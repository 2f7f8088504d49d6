// RemoveFailedPods: the community's failedpods_test.go table, plus eviction options, limits and
// args decoding.
#include "manager/descheduler/plugins/pod_lifecycle/remove_failed_pods.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "test/unit/manager/descheduler_pod_lifecycle/plugin_harness.hpp"

namespace koord::manager::descheduler::pod_lifecycle {
namespace remove_failed_pods_test_detail {

using testing::Harness;
using testing::Json;
using testing::makeNode;
using testing::makePod;
using testing::setInitStatuses;
using testing::terminated;
using testing::waiting;
namespace core = api::core;

// newPodStatus of the Go test: a state makes the pod Failed.
core::Pod failedPod(const std::string& name, const std::string& node, const std::string& reason,
                    const std::string& phase, const Json& init_state, const Json& state) {
  core::Pod pod = makePod(name, node);
  pod.status.reason = reason;
  pod.status.phase = phase;
  if (!init_state.is_null()) {
    setInitStatuses(pod, Json::array({init_state}));
    pod.status.phase = "Failed";
  }
  if (!state.is_null()) {
    pod.status.containerStatuses = Json::array({state});
    pod.status.phase = "Failed";
  }
  return pod;
}

// The Go helper createRemoveFailedPodsArgs; minPodLifetimeSeconds nil there means no age check,
// which is 0 here (our factory applies the 3600 default).
Json args(bool init, const std::vector<std::string>& reasons,
          const std::vector<int32_t>& exit_codes, const std::vector<std::string>& exclude_kinds,
          std::optional<uint64_t> min_age = 0) {
  Json a = {{"includingInitContainers", init}};
  if (!reasons.empty())
    a["reasons"] = reasons;
  if (!exit_codes.empty())
    a["exitCodes"] = exit_codes;
  if (!exclude_kinds.empty())
    a["excludeOwnerKinds"] = exclude_kinds;
  if (min_age)
    a["minPodLifetimeSeconds"] = *min_age;
  return a;
}

struct Case {
  std::string description;
  Json args;
  std::vector<std::string> nodes;
  std::vector<core::Pod> pods;
  size_t expected;
  bool refuse_pre_eviction = false;  // nodeFit finds no other node
  bool refuse_filter = false;        // DefaultEvictor refuses (e.g. terminating)
};

std::vector<Case> communityCases() {
  const Json none;
  const Json node_affinity = terminated("NodeAffinity");
  const Json config_error = terminated("CreateContainerConfigError");
  std::vector<Case> cases;
  cases.push_back({"0 failures, 0 evictions", args(false, {}, {}, {}), {"node1"}, {}, 0});
  cases.push_back({"1 container terminated with reason NodeAffinity, 1 eviction",
                   args(false, {}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, node_affinity)},
                   1});
  cases.push_back({"1 container terminated with exitCode 1, 1 eviction",
                   args(false, {}, {1}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("", 1))},
                   1});
  cases.push_back({"exitCode 1 and reason NodeAffinity, 1 eviction",
                   args(false, {}, {1}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("NodeAffinity", 1))},
                   1});
  cases.push_back({"exitCode 1, expected exitCode 2, 0 eviction",
                   args(false, {}, {2}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("", 1))},
                   0});
  cases.push_back({"exitCodes 1 and 2, expected 1-3, 2 evictions",
                   args(false, {}, {1, 2, 3}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("", 1)),
                    failedPod("p2", "node1", "", "", none, terminated("", 2))},
                   2});
  cases.push_back({"exitCodes 1 and 2, expected 1, 1 eviction",
                   args(false, {}, {1}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("", 1)),
                    failedPod("p2", "node1", "", "", none, terminated("", 2))},
                   1});
  cases.push_back({"1 init container terminated with reason NodeAffinity, 1 eviction",
                   args(true, {}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", node_affinity, none)},
                   1});
  cases.push_back({"1 init container terminated with exitCode 1, 1 eviction",
                   args(true, {}, {1}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("", 1))},
                   1});
  cases.push_back({"1 init container terminated with exitCode 2, expected 1, 0 eviction",
                   args(true, {}, {1}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, terminated("", 2))},
                   0});
  cases.push_back({"1 init container waiting with CreateContainerConfigError, 1 eviction",
                   args(true, {}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", waiting("CreateContainerConfigError"), none)},
                   1});
  cases.push_back({"2 init containers CreateContainerConfigError, 2 nodes, 2 evictions",
                   args(true, {}, {}, {}),
                   {"node1", "node2"},
                   {failedPod("p1", "node1", "", "", config_error, none),
                    failedPod("p2", "node2", "", "", config_error, none)},
                   2});
  cases.push_back({"reason=CreateContainerConfigError matches its container, 1 eviction",
                   args(false, {"CreateContainerConfigError"}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, config_error)},
                   1});
  cases.push_back({"reason=CreateContainerConfigError+NodeAffinity, 1 eviction",
                   args(false, {"CreateContainerConfigError", "NodeAffinity"}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, config_error)},
                   1});
  cases.push_back({"reason=CreateContainerConfigError, container NodeAffinity, 0 eviction",
                   args(false, {"CreateContainerConfigError"}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, node_affinity)},
                   0});
  cases.push_back({"init containers not included, init waiting reason does not count, 0 eviction",
                   args(false, {"CreateContainerConfigError"}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", waiting("CreateContainerConfigError"), none)},
                   0});
  cases.push_back({"lifetime 1 hour, pod created now, 0 eviction",
                   args(false, {}, {}, {}, 3600),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", none, node_affinity)},
                   0});
  cases.push_back({"nodeFit: the only other node is unschedulable, 0 eviction",
                   args(false, {}, {}, {}),
                   {"node1", "node2"},
                   {failedPod("p1", "node1", "", "", none, node_affinity)},
                   0,
                   true});
  cases.push_back({"nodeFit: the only other node lacks resources, 0 eviction",
                   args(false, {"CreateContainerConfigError"}, {}, {}),
                   {"node1", "node2"},
                   {failedPod("p1", "node1", "", "", none, config_error)},
                   0,
                   true});
  cases.push_back({"excluded owner kind ReplicaSet, 0 eviction",
                   args(true, {}, {}, {"ReplicaSet"}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", node_affinity, none)},
                   0});
  cases.push_back({"excluded owner kind DaemonSet, ReplicaSet pod, 1 eviction",
                   args(true, {}, {}, {"DaemonSet"}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", node_affinity, none)},
                   1});
  cases.push_back({"pod in termination (the evictor refuses it), 0 eviction",
                   args(true, {}, {}, {"DaemonSet"}),
                   {"node1"},
                   {failedPod("p1", "node1", "", "", node_affinity, none)},
                   0,
                   false,
                   true});
  cases.push_back({"status reason Shutdown, nodeFit with no other node, 0 evictions",
                   args(false, {}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "Shutdown", "Failed", none, none)},
                   0,
                   true});
  cases.push_back({"reason=Shutdown matches the pod's status reason, 2 evictions",
                   args(false, {"Shutdown"}, {}, {}),
                   {"node1"},
                   {failedPod("p1", "node1", "Shutdown", "Failed", none, none),
                    failedPod("p2", "node1", "Shutdown", "Failed", none, none)},
                   2});
  return cases;
}

TEST(RemoveFailedPodsTest, CommunityTable) {
  for (Case& c : communityCases()) {
    SCOPED_TRACE(c.description);
    std::vector<core::Node> nodes;
    for (const auto& name : c.nodes)
      nodes.push_back(makeNode(name));
    Harness harness(std::move(nodes), std::move(c.pods));
    if (c.refuse_pre_eviction)
      harness.evictor.pre_eviction_fn = [](const core::Pod&) { return false; };
    if (c.refuse_filter)
      harness.evictor.filter_fn = [](const core::Pod&) { return false; };
    Status st = harness.run(createRemoveFailedPods, c.args);
    ASSERT_TRUE(st.isOk()) << st.toString();
    EXPECT_EQ(harness.evictor.evicted.size(), c.expected);
  }
}

TEST(RemoveFailedPodsTest, OnlyFailedPodsAreCandidatesAndOptionsNameThePlugin) {
  core::Pod running = makePod("running", "node1");
  running.status.phase = "Running";
  running.status.containerStatuses = Json::array({terminated("Error", 1)});
  core::Pod failed = makePod("failed", "node1");
  failed.status.phase = "Failed";
  Harness harness({makeNode("node1")}, {running, failed});
  ASSERT_TRUE(harness.run(createRemoveFailedPods, Json{{"minPodLifetimeSeconds", 0}}).isOk());
  EXPECT_EQ(harness.evictor.evicted, std::vector<std::string>{"failed"});
  ASSERT_EQ(harness.evictor.options.size(), 1U);
  EXPECT_EQ(harness.evictor.options[0].plugin, "RemoveFailedPods");
  EXPECT_EQ(harness.evictor.options[0].reason, "");
}

TEST(RemoveFailedPodsTest, DefaultMinimumLifetimeIsOneHour) {
  core::Pod young = makePod("young", "node1");
  young.status.phase = "Failed";
  young.metadata.creationTimestamp = testing::secondsAgo(3599);
  core::Pod old = makePod("old", "node1");
  old.status.phase = "Failed";
  old.metadata.creationTimestamp = testing::secondsAgo(3600);
  Harness harness({makeNode("node1")}, {young, old});
  ASSERT_TRUE(harness.run(createRemoveFailedPods, nullptr).isOk());
  EXPECT_EQ(harness.evictor.evicted, std::vector<std::string>{"old"});
}

TEST(RemoveFailedPodsTest, NamespacesAndLabelSelectorNarrowTheCandidates) {
  std::vector<core::Pod> pods;
  for (const char* name : {"a", "b", "c"}) {
    core::Pod pod = makePod(name, "node1");
    pod.status.phase = "Failed";
    pods.push_back(pod);
  }
  pods[1].metadata.namespace_ = "kube-system";
  pods[2].metadata.labels["app"] = "skip";
  Harness harness({makeNode("node1")}, pods);
  Json a = {
      {"minPodLifetimeSeconds", 0},
      {"namespaces", {{"exclude", {"kube-system"}}}},
      {"labelSelector",
       {{"matchExpressions", {{{"key", "app"}, {"operator", "NotIn"}, {"values", {"skip"}}}}}}}};
  ASSERT_TRUE(harness.run(createRemoveFailedPods, a).isOk());
  EXPECT_EQ(harness.evictor.evicted, std::vector<std::string>{"a"});
}

TEST(RemoveFailedPodsTest, NodeLimitMovesOnToTheNextNode) {
  std::vector<core::Pod> pods;
  for (const auto& [name, node] : std::vector<std::pair<std::string, std::string>>{
           {"a1", "node1"}, {"a2", "node1"}, {"b1", "node2"}}) {
    core::Pod pod = makePod(name, node);
    pod.status.phase = "Failed";
    pods.push_back(pod);
  }
  Harness harness({makeNode("node1"), makeNode("node2")}, pods);
  harness.evictor.max_per_node = 1;
  ASSERT_TRUE(harness.run(createRemoveFailedPods, Json{{"minPodLifetimeSeconds", 0}}).isOk());
  EXPECT_EQ(harness.evictor.evicted, (std::vector<std::string>{"a1", "b1"}));
}

// failedpods validation_test.go, plus strict decoding.
TEST(RemoveFailedPodsArgsTest, Validation) {
  auto ok = decodeRemoveFailedPodsArgs(Json{{"namespaces", {{"include", {"default"}}}},
                                            {"excludeOwnerKinds", {"Job"}},
                                            {"reasons", {"ReasonDoesNotMatch"}},
                                            {"minPodLifetimeSeconds", 3600}});
  ASSERT_TRUE(ok.ok()) << ok.status().toString();
  EXPECT_EQ(ok->minPodLifetimeSeconds, 3600U);

  auto both = decodeRemoveFailedPodsArgs(
      Json{{"namespaces", {{"include", {"default"}}, {"exclude", {"kube-system"}}}}});
  EXPECT_EQ(both.status().message(),
            "RemoveFailedPodsArgs.namespaces: only one of Include/Exclude namespaces can be set");

  EXPECT_TRUE(decodeRemoveFailedPodsArgs(
                  Json{{"labelSelector", {{"matchLabels", {{"role.kubernetes.io/node", ""}}}}}})
                  .ok());
  auto bad_selector = decodeRemoveFailedPodsArgs(
      Json{{"labelSelector", {{"matchExpressions", {{{"operator", "In"}}}}}}});
  ASSERT_FALSE(bad_selector.ok());
  EXPECT_EQ(bad_selector.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad_selector.status().message().rfind(
                "RemoveFailedPodsArgs.labelSelector: failed to get label selectors from "
                "strategy's params: ",
                0),
            0U)
      << bad_selector.status().message();
}

TEST(RemoveFailedPodsArgsTest, StrictDecoding) {
  auto defaults = decodeRemoveFailedPodsArgs(
      Json{{"apiVersion", "descheduler/v1alpha2"}, {"kind", "RemoveFailedPodsArgs"}});
  ASSERT_TRUE(defaults.ok()) << defaults.status().toString();
  EXPECT_EQ(defaults->minPodLifetimeSeconds, 3600U);
  EXPECT_FALSE(defaults->includingInitContainers);

  EXPECT_EQ(decodeRemoveFailedPodsArgs(Json{{"reason", {"x"}}}).status().message(),
            "RemoveFailedPodsArgs.reason: unknown field");
  auto wrong_type = decodeRemoveFailedPodsArgs(Json{{"exitCodes", {"1"}}});
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.status().message().rfind("RemoveFailedPodsArgs.exitCodes[0]: ", 0), 0U)
      << wrong_type.status().message();
  auto negative = decodeRemoveFailedPodsArgs(Json{{"minPodLifetimeSeconds", -1}});
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.status().message().rfind("RemoveFailedPodsArgs.minPodLifetimeSeconds: ", 0),
            0U);
  EXPECT_FALSE(decodeRemoveFailedPodsArgs(Json::array()).ok());
  EXPECT_EQ(
      decodeRemoveFailedPodsArgs(Json{{"namespaces", {{"includes", {"a"}}}}}).status().message(),
      "RemoveFailedPodsArgs.namespaces.includes: unknown field");
}

}  // namespace remove_failed_pods_test_detail
}  // namespace koord::manager::descheduler::pod_lifecycle
