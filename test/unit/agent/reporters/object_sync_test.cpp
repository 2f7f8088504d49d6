#include "agent/reporters/object_sync.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "test/mocks/k8s/mock_client.hpp"

namespace koord::agent::reporters {
namespace {

using ::testing::_;
using ::testing::Return;
using ::testing::SaveArg;

namespace topo = api::topology;

Status notFound() {
  return k8s::apiErrorStatus(404, R"({"kind":"Status","reason":"NotFound","message":"not found"})",
                             "GET", "/apis/x");
}

topo::NodeResourceTopology desired() {
  topo::NodeResourceTopology nrt;
  nrt.apiVersion = "topology.node.k8s.io/v1alpha1";
  nrt.kind = "NodeResourceTopology";
  nrt.metadata.name = "node-a";
  nrt.metadata.labels["app.kubernetes.io/managed-by"] = "Koordinator";
  nrt.metadata.annotations["node.koordinator.sh/cpu-topology"] = R"({"detail":[]})";
  nrt.topologyPolicies = {"None"};
  topo::Zone zone;
  zone.name = "node-0";
  zone.type = "Node";
  topo::ResourceInfo cpu;
  cpu.name = "cpu";
  cpu.capacity = cpu.allocatable = cpu.available = resource::Quantity::fromInt(4);
  zone.resources.push_back(cpu);
  nrt.zones.push_back(zone);
  return nrt;
}

TEST(ObjectSync, CreatesTheTopologyWhenMissing) {
  k8s::testing::MockClient client;
  EXPECT_CALL(client, get(k8s::kNodeResourceTopologies, "", "node-a")).WillOnce(Return(notFound()));
  api::Json created;
  EXPECT_CALL(client, create(k8s::kNodeResourceTopologies, "", _))
      .WillOnce(::testing::DoAll(SaveArg<2>(&created), Return(api::Json::object())));
  auto outcome = syncNodeResourceTopology(client, desired());
  ASSERT_TRUE(outcome.ok()) << outcome.status().toString();
  EXPECT_EQ(*outcome, SyncOutcome::kCreated);
  EXPECT_EQ(created["zones"][0]["resources"][0]["capacity"], "4");
}

TEST(ObjectSync, AnUnchangedTopologyIsNotWritten) {
  k8s::testing::MockClient client;
  api::Json current = toJson(desired());
  current["metadata"]["resourceVersion"] = "7";
  EXPECT_CALL(client, get(_, _, _)).WillOnce(Return(current));
  EXPECT_CALL(client, update(_, _, _)).Times(0);
  auto outcome = syncNodeResourceTopology(client, desired());
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(*outcome, SyncOutcome::kUnchanged);
}

TEST(ObjectSync, UpdateKeepsWhatOthersOwn) {
  k8s::testing::MockClient client;
  api::Json current = toJson(desired());
  current["metadata"]["resourceVersion"] = "7";
  current["metadata"]["labels"]["team"] = "infra";
  // koord-manager's NUMA-level batch resources, and a stale cpu figure the agent owns.
  current["zones"][0]["resources"][0]["capacity"] = "2";
  current["zones"][0]["resources"].push_back({{"name", "kubernetes.io/batch-cpu"},
                                              {"capacity", "1500"},
                                              {"allocatable", "1500"},
                                              {"available", "1500"}});
  EXPECT_CALL(client, get(_, _, _)).WillOnce(Return(current));
  api::Json written;
  EXPECT_CALL(client, update(k8s::kNodeResourceTopologies, "", _))
      .WillOnce(::testing::DoAll(SaveArg<2>(&written), Return(api::Json::object())));
  auto outcome = syncNodeResourceTopology(client, desired());
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(*outcome, SyncOutcome::kUpdated);
  EXPECT_EQ(written["metadata"]["resourceVersion"], "7");  // optimistic concurrency
  EXPECT_EQ(written["metadata"]["labels"]["team"], "infra");
  ASSERT_EQ(written["zones"][0]["resources"].size(), 2U);
  EXPECT_EQ(written["zones"][0]["resources"][0]["capacity"], "4");
  EXPECT_EQ(written["zones"][0]["resources"][1]["name"], "kubernetes.io/batch-cpu");
}

TEST(ObjectSync, AnApiServerErrorIsReturnedNotHidden) {
  k8s::testing::MockClient client;
  EXPECT_CALL(client, get(_, _, _))
      .WillOnce(Return(Status::unavailable("failed to GET: connection refused")));
  auto outcome = syncNodeResourceTopology(client, desired());
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("connection refused"), std::string::npos);
}

TEST(ObjectSync, NodeMetricIsCreatedThenItsStatusWritten) {
  k8s::testing::MockClient client;
  api::core::ObjectMeta node;
  node.name = "node-a";
  node.uid = "uid-a";
  EXPECT_CALL(client, get(k8s::kNodeMetrics, "", "node-a")).WillOnce(Return(notFound()));
  api::Json created;
  EXPECT_CALL(client, create(k8s::kNodeMetrics, "", _))
      .WillOnce(::testing::DoAll(SaveArg<2>(&created), [](auto&&...) {
        return Result<api::Json>(
            api::Json{{"apiVersion", "slo.koordinator.sh/v1alpha1"},
                      {"kind", "NodeMetric"},
                      {"metadata", {{"name", "node-a"}, {"resourceVersion", "3"}}}});
      }));
  api::Json status_write;
  EXPECT_CALL(client, updateStatus(k8s::kNodeMetrics, "", _))
      .WillOnce(::testing::DoAll(SaveArg<2>(&status_write), Return(api::Json::object())));
  api::slo::NodeMetricStatus status;
  status.updateTime = "2026-11-26T12:00:00Z";
  auto outcome = syncNodeMetricStatus(client, node, status);
  ASSERT_TRUE(outcome.ok()) << outcome.status().toString();
  EXPECT_EQ(*outcome, SyncOutcome::kCreated);
  EXPECT_EQ(created["metadata"]["ownerReferences"][0]["uid"], "uid-a");
  EXPECT_EQ(status_write["metadata"]["resourceVersion"], "3");
  EXPECT_EQ(status_write["status"]["updateTime"], "2026-11-26T12:00:00Z");
}

}  // namespace
}  // namespace koord::agent::reporters
