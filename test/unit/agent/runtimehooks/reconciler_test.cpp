#include "agent/runtimehooks/reconciler.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "koord/api/well_known.hpp"
#include "test/mocks/agent/mock_resource_executor.hpp"

namespace koord::agent::runtimehooks {
namespace {

using ::testing::_;
using ::testing::Return;
using ::testing::SaveArg;

std::shared_ptr<const api::core::Pod> bePod(const std::string& uid) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "batch";
  pod->metadata.name = "job-" + uid;
  pod->metadata.uid = uid;
  pod->metadata.labels[std::string(api::kLabelPodQoS)] = "BE";
  pod->status.qosClass = "BestEffort";
  pod->status.phase = "Running";
  api::core::Container container;
  container.name = "app";
  pod->spec.containers.push_back(container);
  pod->status.containerStatuses =
      api::Json::array({{{"name", "app"}, {"containerID", "containerd://c" + uid}}});
  return pod;
}

// The pods' cgroup folders under the cgroupfs driver.
resourceexecutor::PodCgroups bePodCgroups(
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods) {
  return resourceexecutor::PodCgroups::resolve({}, pods);
}

TEST(Reconciler, HandsThePlanToTheExecutorAndForgetsPodsThatLeft) {
  testing::MockResourceExecutor executor;
  Reconciler reconciler(executor, log::Logger());
  PodPlanInputs inputs;
  inputs.pods = bePodCgroups({bePod("a"), bePod("b")});
  std::vector<resourceexecutor::ResourceUpdate> first;
  EXPECT_CALL(executor, updateBatch(_))
      .WillOnce(::testing::DoAll(SaveArg<0>(&first), Return(Status::ok())));
  EXPECT_CALL(executor, forget(_)).Times(0);
  ReconcileStats stats = reconciler.reconcile(inputs);
  EXPECT_EQ(stats.pods, 2);
  EXPECT_EQ(stats.updates, static_cast<int64_t>(first.size()));
  EXPECT_FALSE(first.empty());
  ::testing::Mock::VerifyAndClearExpectations(&executor);

  // Pod b left the node: its cgroup folder is forgotten, so a pod re-created with that UID is
  // written again rather than skipped as cached.
  EXPECT_CALL(executor, forget(std::filesystem::path("kubepods/besteffort/podb"))).Times(1);
  EXPECT_CALL(executor, updateBatch(_)).WillOnce(Return(Status::ok()));
  inputs.pods = bePodCgroups({bePod("a")});
  EXPECT_TRUE(reconciler.reconcile(inputs).status.isOk());
}

TEST(Reconciler, ReportsTheExecutorsFailure) {
  testing::MockResourceExecutor executor;
  Reconciler reconciler(executor, log::Logger());
  PodPlanInputs inputs;
  inputs.pods = bePodCgroups({bePod("a")});
  EXPECT_CALL(executor, updateBatch(_))
      .WillOnce(Return(Status::permissionDenied("failed to apply 1 of 9 updates: EACCES")));
  ReconcileStats stats = reconciler.reconcile(inputs);
  EXPECT_EQ(stats.status.code(), StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace koord::agent::runtimehooks
