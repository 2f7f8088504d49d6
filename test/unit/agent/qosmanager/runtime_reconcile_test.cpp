#include "agent/qosmanager/strategies/runtime_reconcile/runtime_reconcile.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "agent/qosmanager/framework/scheduler.hpp"
#include "agent/qosmanager/strategies/builtin.hpp"
#include "agent/runtimehooks/pod_plan.hpp"
#include "koord/api/well_known.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::strategies {
namespace {

using ::testing::_;
using ::testing::DoAll;
using ::testing::ElementsAre;
using ::testing::Return;
using ::testing::SaveArg;
using namespace std::chrono_literals;

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
  container.resources.limits[std::string(api::kResourceBatchCPU)] =
      *resource::Quantity::parse("500");
  pod->spec.containers.push_back(container);
  pod->status.containerStatuses =
      api::Json::array({{{"name", "app"}, {"containerID", "containerd://c" + uid}}});
  return pod;
}

bool sameUpdates(const std::vector<resourceexecutor::ResourceUpdate>& a,
                 const std::vector<resourceexecutor::ResourceUpdate>& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].resource != b[i].resource || a[i].dir != b[i].dir || a[i].value != b[i].value ||
        a[i].reason != b[i].reason) {
      return false;
    }
  }
  return true;
}

// The strategy hands the executor exactly what the runtime reconciler's plan holds for the
// node's pods and CPU pools, and forgets the folders of pods that left.
TEST(RuntimeReconcile, WritesWhatTheReconcilerPlans) {
  testing::ContextFixture fixture;
  fixture.cpus.online = cpuset::CpuSet::parse("0-3").value();
  fixture.cpus.shared_pool = cpuset::CpuSet::parse("0-3").value();
  fixture.cpus.be_pool = cpuset::CpuSet::parse("2-3").value();
  // The daemon resolves the pods' cgroup folders once per pass; the strategy reads them.
  fixture.pods = resourceexecutor::PodCgroups::resolve({}, {bePod("a"), bePod("b")});

  runtimehooks::PodPlanInputs inputs;
  inputs.pods = fixture.pods;
  inputs.cpus = fixture.cpus;
  const runtimehooks::PodPlan want = runtimehooks::planPodResources(inputs);
  ASSERT_FALSE(want.updates.empty());

  runtime_reconcile::RuntimeReconcile strategy(10s, log::Logger());
  std::vector<resourceexecutor::ResourceUpdate> got;
  EXPECT_CALL(fixture.executor, updateBatch(_))
      .WillOnce(DoAll(SaveArg<0>(&got), Return(Status::ok())));
  EXPECT_CALL(fixture.executor, forget(_)).Times(0);
  EXPECT_TRUE(strategy.run(fixture.context()).isOk());
  EXPECT_TRUE(sameUpdates(got, want.updates));
  ::testing::Mock::VerifyAndClearExpectations(&fixture.executor);

  fixture.pods = resourceexecutor::PodCgroups::resolve({}, {bePod("a")});
  EXPECT_CALL(fixture.executor, forget(std::filesystem::path("kubepods/besteffort/podb")));
  EXPECT_CALL(fixture.executor, updateBatch(_))
      .WillOnce(Return(Status::unavailable("failed to apply 1 of 4 updates: EIO")));
  EXPECT_EQ(strategy.run(fixture.context()).code(), StatusCode::kUnavailable);
}

// Run by the scheduler as the daemon runs it: at once, on every pod change, at its interval, and
// never when --disable-reconciler names it.
TEST(RuntimeReconcile, RunsUnderTheSchedulerAsTheDaemonRanTheReconciler) {
  for (bool disabled : {false, true}) {
    SCOPED_TRACE(disabled ? "disabled" : "enabled");
    testing::ContextFixture fixture;
    StrategyArgs args;
    args.reconcile_interval = 10s;
    framework::SchedulerOptions options;
    if (disabled) {
      options.disabled.insert(std::string(runtime_reconcile::RuntimeReconcile::kName));
    }
    auto scheduler = framework::Scheduler::create(builtinStrategies(args), fixture.clock,
                                                  std::move(options), nullptr)
                         .value();
    if (disabled) {
      EXPECT_CALL(fixture.executor, updateBatch(_)).Times(0);
    } else {
      EXPECT_CALL(fixture.executor, updateBatch(_)).Times(4).WillRepeatedly(Return(Status::ok()));
    }
    scheduler->runDue(fixture.context(), false);  // at start
    fixture.clock.advance(1s);
    scheduler->runDue(fixture.context(), true);  // the pods changed
    fixture.clock.advance(1s);
    scheduler->runDue(fixture.context(), false);  // not due
    fixture.clock.advance(9s);
    scheduler->runDue(fixture.context(), false);  // 10 s after the last run
    fixture.clock.advance(1s);
    scheduler->runDue(fixture.context(), true);  // the pods changed
  }
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies
