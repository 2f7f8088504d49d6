#include "agent/app/topology_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "koord/api/well_known.hpp"
#include "test/mocks/agent/mock_states_informer.hpp"
#include "test/mocks/k8s/mock_client.hpp"

namespace koord::agent::app {
namespace {

using ::testing::_;
using ::testing::DoAll;
using ::testing::NiceMock;
using ::testing::Return;
using ::testing::SaveArg;

std::shared_ptr<const api::core::Pod> lsePod(const std::string& cpuset) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "default";
  pod->metadata.name = "lse";
  pod->metadata.uid = "uid-lse";
  pod->metadata.labels[std::string(api::kLabelPodQoS)] = "LSE";
  pod->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"cpuset":")" + cpuset + R"("})";
  pod->status.phase = "Running";
  return pod;
}

// The pools the strategies get are those the NodeResourceTopology's annotations were formatted
// from, even when the report itself fails.
TEST(TopologyReportTest, HandsTheStrategiesThePoolsOfTheReportedAnnotations) {
  DaemonOptions options;
  options.node_name = "node-1";
  options.kubelet_root_dir = "/nonexistent/kubelet";
  Host host;
  for (int32_t id = 0; id < 4; ++id) {
    host.cpus.cpus.push_back({id, id, 0, 0});
  }
  NiceMock<k8s::testing::MockClient> client;
  NiceMock<testing::MockStatesInformer> states;
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-1";
  ON_CALL(states, node()).WillByDefault(Return(node));
  ON_CALL(states, pods())
      .WillByDefault(Return(std::vector<std::shared_ptr<const api::core::Pod>>{lsePod("0-1")}));
  ON_CALL(client, get(_, _, _)).WillByDefault(Return(Status::notFound("not found")));
  api::Json created;
  EXPECT_CALL(client, create(_, _, _))
      .WillOnce(DoAll(SaveArg<2>(&created), Return(api::Json::object())))
      .WillOnce(Return(Status::unavailable("the API server is gone")));
  metrics::MetricsRegistry registry;
  auto counter = ReportCounter::create(registry);
  ASSERT_TRUE(counter.ok());
  reporters::ProblemEvents events(
      [](const api::core::ObjectReference&, k8s::EventType, std::string, std::string) {},
      log::Logger());
  TopologyReport report(options, host, client, states, *counter, events, log::Logger());

  FakeClock clock;
  system::CpuPools pools;
  report.run(clock.now(), pools);
  EXPECT_EQ(pools.online.toString(), "0-3");
  EXPECT_EQ(pools.shared_pool.toString(), "2-3");
  EXPECT_EQ(pools.be_pool.toString(), "2-3");
  EXPECT_EQ(created["metadata"]["annotations"][std::string(api::kAnnotationNodeCPUSharedPools)],
            R"([{"cpuset":"2-3","node":0,"socket":0}])");
  EXPECT_TRUE(report.ready(clock.now()));

  // The pod left; the report fails, and the pools still follow the node.
  ON_CALL(states, pods())
      .WillByDefault(Return(std::vector<std::shared_ptr<const api::core::Pod>>{}));
  report.run(clock.now(), pools);
  EXPECT_EQ(pools.shared_pool.toString(), "0-3");
  EXPECT_FALSE(report.ready(clock.now()));
  EXPECT_TRUE(report.ready(clock.now() + std::chrono::seconds(1)));
}

}  // namespace
}  // namespace koord::agent::app
