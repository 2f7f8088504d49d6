#include "manager/nodeslo/node_events.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "koord/api/well_known.hpp"

namespace koord::manager::nodeslo {
namespace {

api::core::Node node(api::core::StringMap labels, api::core::StringMap annotations = {}) {
  api::core::Node n;
  n.metadata.name = "n1";
  n.metadata.labels = std::move(labels);
  n.metadata.annotations = std::move(annotations);
  return n;
}

TEST(NodeEventsTest, LabelChangesMatter) {
  EXPECT_TRUE(nodeInputsChanged(node({}), node({{"pool", "gpu"}})));
  EXPECT_TRUE(nodeInputsChanged(node({{"pool", "gpu"}}), node({{"pool", "cpu"}})));
  EXPECT_TRUE(nodeInputsChanged(node({{"pool", "gpu"}}), node({})));
}

TEST(NodeEventsTest, ColocationStrategyAnnotationMatters) {
  const std::string key(api::kAnnotationNodeColocationStrategy);
  EXPECT_TRUE(nodeInputsChanged(node({}), node({}, {{key, "{}"}})));
  EXPECT_TRUE(nodeInputsChanged(node({}, {{key, "{}"}}), node({}, {{key, R"({"enable":true})"}})));
  EXPECT_TRUE(nodeInputsChanged(node({}, {{key, "{}"}}), node({})));
}

TEST(NodeEventsTest, StatusAndOtherAnnotationsDoNot) {
  api::core::Node before = node({{"pool", "gpu"}}, {{"other", "1"}});
  api::core::Node after = before;
  after.metadata.resourceVersion = "2";
  after.metadata.annotations["other"] = "2";
  after.status.conditions.push_back({"Ready", "True", "t", "t", "", "", {}});
  EXPECT_FALSE(nodeInputsChanged(before, after));
}

TEST(NodeEventsTest, OnlySpecChangesOfNodeMetricMatter) {
  api::slo::NodeMetric before;
  before.metadata.name = "n1";
  api::slo::NodeMetric reported = before;
  reported.status.updateTime = "2026-01-01T00:00:00Z";
  EXPECT_FALSE(specChanged(before, reported));
  api::slo::NodeMetric edited = before;
  edited.spec.metricCollectPolicy = api::slo::NodeMetricCollectPolicy{};
  edited.spec.metricCollectPolicy->reportIntervalSeconds = 5;
  EXPECT_TRUE(specChanged(before, edited));
}

TEST(NodeEventsTest, OnlySpecChangesOfNodeSloMatter) {
  api::slo::NodeSLO before;
  api::slo::NodeSLO status_only = before;
  status_only.status.extra = {{"x", 1}};
  EXPECT_FALSE(specChanged(before, status_only));
  api::slo::NodeSLO edited = before;
  edited.spec.cpuBurstStrategy = api::slo::CPUBurstStrategy{};
  EXPECT_TRUE(specChanged(before, edited));
}

// What the informer handlers enqueue.
class HandlersTest : public ::testing::Test {
 protected:
  EnqueueNode recorder() {
    return [this](const std::string& name) { queued_.push_back(name); };
  }
  std::vector<std::string> queued_;
};

TEST_F(HandlersTest, NodeAddDeleteAndLabelChangesEnqueueHeartbeatsDoNot) {
  auto h = nodeHandlers(recorder());
  auto plain = std::make_shared<const api::core::Node>(node({}));
  api::core::Node heartbeat_node = node({});
  heartbeat_node.metadata.resourceVersion = "9";
  heartbeat_node.status.conditions.push_back({"Ready", "True", "t2", "t", "", "", {}});
  auto heartbeat = std::make_shared<const api::core::Node>(heartbeat_node);
  auto labelled = std::make_shared<const api::core::Node>(node({{"pool", "gpu"}}));

  h.onAdd(plain);
  h.onUpdate(plain, heartbeat);
  h.onUpdate(heartbeat, labelled);
  h.onDelete(labelled);
  EXPECT_EQ(queued_, (std::vector<std::string>{"n1", "n1", "n1"}));
}

TEST_F(HandlersTest, NodeMetricStatusReportsDoNotEnqueueSpecEditsDo) {
  auto h = nodeMetricHandlers(recorder());
  api::slo::NodeMetric base;
  base.metadata.name = "n1";
  api::slo::NodeMetric reported = base;
  reported.status.updateTime = "2026-01-01T00:01:00Z";
  api::slo::NodeMetric edited = reported;
  edited.spec.metricCollectPolicy = api::slo::NodeMetricCollectPolicy{};
  auto p0 = std::make_shared<const api::slo::NodeMetric>(base);
  auto p1 = std::make_shared<const api::slo::NodeMetric>(reported);
  auto p2 = std::make_shared<const api::slo::NodeMetric>(edited);

  h.onUpdate(p0, p1);
  EXPECT_TRUE(queued_.empty());
  h.onUpdate(p1, p2);
  h.onDelete(p2);
  h.onAdd(p0);
  EXPECT_EQ(queued_, (std::vector<std::string>{"n1", "n1", "n1"}));
}

TEST_F(HandlersTest, NodeSloSpecEditsAndDeletesEnqueueTheNode) {
  auto h = nodeSloHandlers(recorder());
  api::slo::NodeSLO base;
  base.metadata.name = "n1";
  api::slo::NodeSLO edited = base;
  edited.spec.systemStrategy = api::slo::SystemStrategy{};
  api::slo::NodeSLO relabelled = base;
  relabelled.metadata.labels["x"] = "y";
  auto p0 = std::make_shared<const api::slo::NodeSLO>(base);
  auto p1 = std::make_shared<const api::slo::NodeSLO>(edited);
  auto p2 = std::make_shared<const api::slo::NodeSLO>(relabelled);

  h.onUpdate(p0, p2);  // metadata only
  EXPECT_TRUE(queued_.empty());
  h.onUpdate(p0, p1);
  h.onDelete(p1);
  EXPECT_EQ(queued_, (std::vector<std::string>{"n1", "n1"}));
}

}  // namespace
}  // namespace koord::manager::nodeslo
