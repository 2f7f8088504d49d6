#include "agent/reporters/problem_events.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <mutex>
#include <set>

#include "agent/reporters/node_metric.hpp"
#include "agent/reporters/node_topology.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"
#include "mocks/k8s/mock_client.hpp"

namespace koord::agent::reporters {
namespace {

using ::testing::_;
using ::testing::NiceMock;

struct Emitted {
  api::core::ObjectReference object;
  k8s::EventType type;
  std::string reason;
  std::string message;
};

ObjectProblem problem(const std::string& pod, const std::string& message) {
  api::core::ObjectMeta meta;
  meta.namespace_ = "default";
  meta.name = pod;
  meta.uid = "uid-" + pod;
  return {objectReference("Pod", "v1", meta), "InvalidCPUSet", message};
}

TEST(ProblemEvents, EachProblemOnceUntilItGoesAway) {
  std::vector<Emitted> emitted;
  ProblemEvents events(
      [&emitted](const api::core::ObjectReference& object, k8s::EventType type, std::string reason,
                 std::string message) {
        emitted.push_back({object, type, std::move(reason), std::move(message)});
      },
      log::Logger());
  EXPECT_EQ(events.report("cpuset", {problem("a", "bad"), problem("b", "bad")}), 2U);
  EXPECT_EQ(events.report("cpuset", {problem("a", "bad"), problem("b", "bad")}), 0U);
  // Another source keeps its own rounds.
  EXPECT_EQ(events.report("policy", {problem("a", "bad")}), 1U);
  // b's problem changed; a's went away.
  EXPECT_EQ(events.report("cpuset", {problem("b", "worse")}), 1U);
  // a's came back.
  EXPECT_EQ(events.report("cpuset", {problem("a", "bad"), problem("b", "worse")}), 1U);
  ASSERT_EQ(emitted.size(), 5U);
  EXPECT_EQ(emitted[0].object.name, "a");
  EXPECT_EQ(emitted[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(emitted[0].reason, "InvalidCPUSet");
  EXPECT_EQ(emitted[3].message, "worse");
}

// The daemon's path: problems -> ProblemEvents -> EventRecorder -> the API server's events.
class RecordedEventsTest : public ::testing::Test {
 protected:
  RecordedEventsTest() {
    ON_CALL(client_, createEvent(_, _))
        .WillByDefault(
            [this](const std::string&, const api::core::Event& event) -> Result<api::Json> {
              std::lock_guard<std::mutex> lock(mu_);
              created_.push_back(event);
              return api::core::toJson(event);
            });
    // Nothing is recorded twice: no repeat folded into an existing Event either.
    EXPECT_CALL(client_, patch(_, _, _, _, _, _)).Times(0);
  }

  ProblemEvents::Sink sink() {
    return [this](const api::core::ObjectReference& object, k8s::EventType type, std::string reason,
                  std::string message) {
      recorder_.event(object, type, std::move(reason), std::move(message));
    };
  }

  std::vector<api::core::Event> flushed() {
    EXPECT_TRUE(recorder_.shutdown(std::chrono::seconds(10)).isOk());
    std::lock_guard<std::mutex> lock(mu_);
    return created_;
  }

  NiceMock<k8s::testing::MockClient> client_;
  RealClock clock_;
  k8s::EventRecorder recorder_{client_, "koord-agent", "node-a", clock_};
  std::mutex mu_;
  std::vector<api::core::Event> created_;
};

std::shared_ptr<const api::core::Pod> lsrPod(const std::string& name, const std::string& cpuset) {
  auto out = std::make_shared<api::core::Pod>();
  out->metadata.namespace_ = "default";
  out->metadata.name = name;
  out->metadata.uid = "uid-" + name;
  out->metadata.labels[std::string(api::kLabelPodQoS)] = "LSR";
  out->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"cpuset":")" + cpuset + R"("})";
  out->status.phase = "Running";
  return out;
}

// issue 31: two pods with hostile cpusets on a 2-CPU node, over five report loops: one Event
// each, and the pool keeps a CPU every time.
TEST_F(RecordedEventsTest, HostileCpusetIsOneEventPerPod) {
  NodeTopologyInputs in;
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-a";
  node->metadata.uid = "node-uid";
  in.node = node;
  in.cpus.cpus = {{0, 0, 0, 0}, {1, 0, 0, 0}};
  in.memory = {{0, 4LL << 30, 2LL << 30}};
  in.pods = {lsrPod("first", "0-8191"), lsrPod("second", "1-4095")};
  ProblemEvents events(sink(), log::Logger());
  for (int loop = 0; loop < 5; ++loop) {
    std::vector<ObjectProblem> problems;
    auto nrt = buildNodeResourceTopology(in, &problems);
    EXPECT_EQ(nrt.metadata.annotations.at(std::string(api::kAnnotationNodeCPUSharedPools)),
              R"([{"cpuset":"0","node":0,"socket":0}])");
    EXPECT_EQ(problems.size(), 2U);
    events.report("cpuset", problems);
  }
  auto created = flushed();
  ASSERT_EQ(created.size(), 2U);
  std::set<std::string> pods;
  for (const api::core::Event& event : created) {
    EXPECT_EQ(event.type, "Warning");
    EXPECT_EQ(event.reason, "InvalidCPUSet");
    EXPECT_EQ(event.involvedObject.kind, "Pod");
    EXPECT_EQ(event.metadata.namespace_, "default");
    EXPECT_EQ(event.source.component, "koord-agent");
    pods.insert(event.involvedObject.name);
    EXPECT_THAT(event.message, ::testing::HasSubstr("do not exist on this node (it has 0-1)"));
  }
  EXPECT_EQ(pods, (std::set<std::string>{"first", "second"}));
}

// issue 31: a NodeMetric collect policy with int64's maximum: one Event per corrected field,
// once for the same policy however often it is read.
TEST_F(RecordedEventsTest, InvalidCollectPolicyIsOneEventPerFieldOnTheNodeMetric) {
  api::slo::NodeMetric metric;
  metric.metadata.name = "node-a";
  metric.metadata.uid = "nm-uid";
  api::slo::NodeMetricCollectPolicy policy;
  policy.reportIntervalSeconds = std::numeric_limits<int64_t>::max();
  metric.spec.metricCollectPolicy = policy;
  ProblemEvents events(sink(), log::Logger());
  for (int loop = 0; loop < 5; ++loop) {
    events.report("metric-collect-policy",
                  collectPolicyProblems(metric, effectivePolicy(metric.spec)));
  }
  auto created = flushed();
  ASSERT_EQ(created.size(), 1U);
  EXPECT_EQ(created[0].type, "Warning");
  EXPECT_EQ(created[0].reason, "InvalidMetricCollectPolicy");
  EXPECT_EQ(created[0].involvedObject.kind, "NodeMetric");
  EXPECT_EQ(created[0].involvedObject.apiVersion, "slo.koordinator.sh/v1alpha1");
  EXPECT_EQ(created[0].involvedObject.name, "node-a");
  EXPECT_EQ(created[0].metadata.namespace_, "default");  // cluster-scoped object
  EXPECT_EQ(created[0].message,
            "spec.metricCollectPolicy.reportIntervalSeconds: 9223372036854775807 is above the "
            "maximum of 86400; used 86400");
}

}  // namespace
}  // namespace koord::agent::reporters
