// ProfileRunner::runPass with an ArbitrationSnapshot: the evictor's filter refuses pods whose
// MigrationController retryable limits (here maxMigratingPerNode) are reached by existing jobs,
// and by the jobs the pass itself creates when the snapshot shows them.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "manager/descheduler/app/profile_runner.hpp"
#include "test/unit/manager/descheduler_framework/builders.hpp"

namespace koord::manager::descheduler::app {
namespace migrationlimits_test {

using testing::buildNode;
using testing::buildPod;
using testing::snapshotOf;
namespace core = api::core;
namespace sched = api::scheduling;

// Evicts, node by node, every pod the evictor's filter lets through.
class TakeAll : public framework::BalancePlugin {
 public:
  explicit TakeAll(framework::Handle& handle) : handle_(handle) {}
  [[nodiscard]] std::string_view name() const override { return "TakeAll"; }
  Status balance(const framework::NodeList& nodes) override {
    for (const auto& node : nodes) {
      for (const auto& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
        if (handle_.evictor->filter(*pod) && handle_.evictor->preEvictionFilter(*pod)) {
          (void)handle_.evictor->evict(*pod, {"TakeAll", "take"});
        }
      }
    }
    return Status::ok();
  }

 private:
  framework::Handle& handle_;
};

// Jobs and pods by name; no pod here has a controller.
class FakeJobs : public migration::ArbitrationSnapshot {
 public:
  [[nodiscard]] std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs() const override {
    return jobs_;
  }
  [[nodiscard]] std::shared_ptr<const core::Pod> pod(const std::string& ns,
                                                     const std::string& name) const override {
    auto it = pods_.find(ns + "/" + name);
    return it == pods_.end() ? nullptr : it->second;
  }
  [[nodiscard]] std::optional<migration::Workload> workload(
      const std::string&, const core::OwnerReference&) const override {
    return std::nullopt;
  }

  void addPod(const core::Pod& pod) {
    pods_[pod.metadata.namespace_ + "/" + pod.metadata.name] = std::make_shared<core::Pod>(pod);
  }
  // A job for `pod` in `phase` (not passed arbitration).
  void addJob(const core::Pod& pod, const std::string& phase) {
    auto job = std::make_shared<sched::PodMigrationJob>();
    job->metadata.name = "job-" + pod.metadata.name;
    core::ObjectReference ref;
    ref.namespace_ = pod.metadata.namespace_;
    ref.name = pod.metadata.name;
    job->spec.podRef = ref;
    job->status.phase = phase;
    jobs_.push_back(std::move(job));
  }
  [[nodiscard]] bool hasJob(const core::Pod& pod) const {
    for (const auto& job : jobs_) {
      if (job->spec.podRef && job->spec.podRef->name == pod.metadata.name) {
        return true;
      }
    }
    return false;
  }

 private:
  std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs_;
  std::map<std::string, std::shared_ptr<const core::Pod>> pods_;
};

struct MigrationLimitsTest : ::testing::Test {
  std::unique_ptr<ProfileRunner> runner(const std::string& args) {
    auto config = config::loadDeschedulerConfiguration(
        "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n"
        "profiles:\n- name: one\n  plugins:\n    balance:\n      enabled:\n      - name: TakeAll\n"
        "  pluginConfig:\n  - name: MigrationController\n    args:\n" +
            args,
        "t.yaml");
    EXPECT_TRUE(config.ok()) << config.status().message();
    std::vector<framework::RegisteredPlugin> plugins;
    plugins.push_back({"TakeAll",
                       [](const nlohmann::json&,
                          framework::Handle& handle) -> Result<std::unique_ptr<framework::Plugin>> {
                         return std::unique_ptr<framework::Plugin>(
                             std::make_unique<TakeAll>(handle));
                       }});
    auto built = ProfileRunner::create(*config, PluginRegistry(std::move(plugins)));
    EXPECT_TRUE(built.ok()) << built.status().message();
    return built.ok() ? std::move(*built) : nullptr;
  }

  // Nodes n1 (p1, p2, p3) and n2 (q1, q2). `record_jobs`: the sink's jobs show in `jobs` at once.
  std::vector<std::string> pass(ProfileRunner& r, bool record_jobs) {
    std::vector<core::Pod> pods;
    for (const char* name : {"p1", "p2", "p3"}) {
      pods.push_back(buildPod(name, 100, 0, "n1"));
    }
    for (const char* name : {"q1", "q2"}) {
      pods.push_back(buildPod(name, 100, 0, "n2"));
    }
    for (auto& pod : pods) {
      testing::setNormalOwnerRef(pod);
      jobs.addPod(pod);
    }
    const auto snapshot = snapshotOf({buildNode("n1"), buildNode("n2")}, pods);
    VictimSink sink = [this, record_jobs](const core::Pod& pod, const framework::EvictOptions&,
                                          const ProfileContext&) {
      if (record_jobs) {
        jobs.addJob(pod, "Pending");
      }
      return true;
    };
    PodPredicate has_job = [this](const core::Pod& pod) { return jobs.hasJob(pod); };
    const PassResult result =
        r.runPass(snapshot, sink, has_job, std::chrono::system_clock::now(), &jobs);
    EXPECT_TRUE(result.status.isOk()) << result.status.message();
    std::vector<std::string> out;
    for (const auto& victim : result.victims) {
      out.push_back(victim.name);
    }
    return out;
  }

  FakeJobs jobs;
};

TEST_F(MigrationLimitsTest, AnExistingJobOnTheNodeBlocksItsOtherPods) {
  auto r = runner("      maxMigratingPerNode: 1\n");
  ASSERT_NE(r, nullptr);
  core::Pod x = buildPod("x", 100, 0, "n1");
  jobs.addPod(x);
  jobs.addJob(x, "");  // Pending, not arbitrated yet: counts
  EXPECT_EQ(pass(*r, false), (std::vector<std::string>{"q1", "q2"}));
}

TEST_F(MigrationLimitsTest, JobsOfThePassCountAgainstTheLimit) {
  auto r = runner("      maxMigratingPerNode: 2\n");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(pass(*r, true), (std::vector<std::string>{"p1", "p2", "q1", "q2"}));
}

TEST_F(MigrationLimitsTest, FinishedJobsDoNotCount) {
  auto r = runner("      maxMigratingPerNode: 1\n");
  ASSERT_NE(r, nullptr);
  core::Pod x = buildPod("x", 100, 0, "n1");
  jobs.addPod(x);
  jobs.addJob(x, "Succeeded");
  EXPECT_EQ(pass(*r, true), (std::vector<std::string>{"p1", "q1"}));
}

TEST_F(MigrationLimitsTest, ADryRunProfileIsNotLimited) {
  auto r = runner("      maxMigratingPerNode: 1\n      dryRun: true\n");
  ASSERT_NE(r, nullptr);
  core::Pod x = buildPod("x", 100, 0, "n1");
  jobs.addPod(x);
  jobs.addJob(x, "Running");
  EXPECT_EQ(pass(*r, false), (std::vector<std::string>{"p1", "p2", "p3", "q1", "q2"}));
}

}  // namespace migrationlimits_test
}  // namespace koord::manager::descheduler::app
