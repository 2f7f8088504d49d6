#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "agent/resourceexecutor/cgroup_resource_executor.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "test/unit/agent/resourceexecutor/cgroup_tree.hpp"
#include "test/unit/agent/resourceexecutor/fake_cgroup_writer.hpp"

namespace koord::agent::resourceexecutor {
namespace {

using testing::cgroupPath;
using ::testing::ElementsAre;
using testing::FakeCgroupWriter;
using testing::FakeRoot;
using ::testing::HasSubstr;
using testing::readTree;
using ::testing::StartsWith;
using R = CgroupResource;

class ExecutorTest : public ::testing::Test {
 protected:
  std::unique_ptr<CgroupResourceExecutor> make(ResourceExecutorOptions options = {},
                                               const log::Logger* logger = nullptr,
                                               metrics::MetricsRegistry* registry = nullptr) {
    auto writer = std::make_unique<FakeCgroupWriter>();
    writer_ = writer.get();
    auto executor = CgroupResourceExecutor::create(std::move(writer), clock_, std::move(options),
                                                   logger, registry);
    EXPECT_TRUE(executor.ok()) << executor.status();
    return std::move(executor).value();
  }

  FakeClock clock_;
  FakeCgroupWriter* writer_ = nullptr;
};

ResourceUpdate shares(const std::string& dir, const std::string& value,
                      const std::string& reason = "test") {
  return {R::kCpuShares, dir, value, reason};
}

ResourceUpdate cpus(const std::string& dir, const std::string& value) {
  return {R::kCpusetCpus, dir, value, "cpuset"};
}

TEST_F(ExecutorTest, RefusesEverythingOutsideKubepods) {
  const std::vector<std::string> refused = {
      "",
      ".",
      "..",
      "/",
      "/etc",
      "/kubepods",
      "/kubepods/pod1",
      "kubepods/..",
      "kubepods/../etc",
      "kubepods/pod1/../../etc",
      "kubepods/pod1/..",
      "kubepodsX/..",
      "kubepodsX/../kubepods",
      "kubepods-evil",
      "kubepods-evil/pod1",
      "kubepods.slice",
      "kubepod",
      "Kubepods",
      "other/kubepods",
      "./../kubepods",
      std::string("kubepods/pod1\0/x", 16),
  };
  metrics::MetricsRegistry registry;
  auto executor = make({}, nullptr, &registry);
  for (const std::string& dir : refused) {
    SCOPED_TRACE("dir '" + dir + "'");
    const Status status = executor->update(shares(dir, "512"));
    EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
    EXPECT_EQ(status.message(), "refusing to write '" +
                                    (std::filesystem::path(dir) / "cpu_shares").string() +
                                    "': outside kubepods");
  }
  EXPECT_EQ(executor->update(shares("kubepods-evil", "512")).message(),
            "refusing to write 'kubepods-evil/cpu_shares': outside kubepods");
  EXPECT_TRUE(writer_->writes().empty());
  const auto audit = executor->auditLog();
  ASSERT_EQ(audit.size(), refused.size() + 1);
  EXPECT_EQ(audit.back().result, WriteResult::kRefused);
  EXPECT_EQ(audit.back().file, "kubepods-evil/cpu_shares");
  EXPECT_EQ(audit.back().status.code(), StatusCode::kPermissionDenied);
  const auto family =
      registry.counterFamily("koord_agent_executor_writes_total",
                             "Cgroup updates of the resource executor by logical resource and "
                             "result (ok, skipped, failed, refused).",
                             {"resource", "result"});
  ASSERT_TRUE(family.ok()) << family.status();
  EXPECT_EQ(family->withLabels({"cpu_shares", "refused"})->value(),
            static_cast<double>(refused.size() + 1));
}

TEST_F(ExecutorTest, AllowsKubepodsAndEverythingUnderIt) {
  struct Case {
    std::string kubepods;
    std::string dir;
    std::string written;  // the normalised folder written; empty: refused
  };
  const std::vector<Case> cases = {
      {"kubepods", "kubepods", "kubepods"},
      {"kubepods", "kubepods/", "kubepods"},
      {"kubepods", "kubepods/burstable", "kubepods/burstable"},
      {"kubepods", "kubepods/./pod1", "kubepods/pod1"},
      {"kubepods", "./kubepods//pod1/", "kubepods/pod1"},
      {"kubepods.slice", "kubepods.slice", "kubepods.slice"},
      {"kubepods.slice", "kubepods.slice/kubepods-burstable.slice",
       "kubepods.slice/kubepods-burstable.slice"},
      {"kubepods.slice", "kubepods.slice-evil", ""},
      {"kubepods.slice", "kubepods", ""},
      {"custom/kubepods", "custom/kubepods/besteffort", "custom/kubepods/besteffort"},
      {"custom/kubepods", "custom", ""},
      {"custom/kubepods", "custom/other", ""},
      {"custom/kubepods", "custom/kubepods-evil", ""},
      {"koord-test-1/kubepods/", "koord-test-1/kubepods/pod1", "koord-test-1/kubepods/pod1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.kubepods + " " + c.dir);
    ResourceExecutorOptions options;
    options.kubepods_dir = c.kubepods;
    auto executor = make(options);
    const Status status = executor->update(shares(c.dir, "512"));
    if (c.written.empty()) {
      EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
      EXPECT_THAT(status.message(), HasSubstr("outside " + executor->kubepodsDir().string()));
      EXPECT_TRUE(writer_->writes().empty());
    } else {
      EXPECT_TRUE(status.isOk()) << status;
      EXPECT_THAT(writer_->writes(), ElementsAre(c.written + " cpu_shares=512"));
    }
  }
}

// With the real v1 writer: a refused path leaves the file it would have reached untouched.
TEST(ExecutorConfinementTest, RefusedWritesLeaveRealFilesAlone) {
  FakeRoot root;
  ASSERT_TRUE(testing::makeV1Cgroup(root, "kubepods"));
  ASSERT_TRUE(testing::makeV1Cgroup(root, "evil"));
  const system::SysPaths paths = system::SysPaths::under(root.path());
  FakeClock clock;
  auto executor =
      CgroupResourceExecutor::create(newCgroupWriter(system::CgroupVersion::kV1, paths), clock, {});
  ASSERT_TRUE(executor.ok());
  for (const std::filesystem::path& dir :
       {std::filesystem::path("kubepods/../evil"), std::filesystem::path("evil"),
        paths.cgroup_root / "cpu/evil"}) {
    SCOPED_TRACE(dir);
    EXPECT_EQ((*executor)->update(shares(dir, "2")).code(), StatusCode::kPermissionDenied);
  }
  EXPECT_EQ(readTree(root, cgroupPath("cpu/evil/cpu.shares")), "1024");
  EXPECT_TRUE((*executor)->update(shares("kubepods", "2")).isOk());
  EXPECT_EQ(readTree(root, cgroupPath("cpu/kubepods/cpu.shares")), "2");
}

TEST(ExecutorCreateTest, RejectsBadKubepodsDir) {
  FakeClock clock;
  for (const std::string dir : {"", ".", "/kubepods", "../kubepods", "a/../kubepods"}) {
    SCOPED_TRACE("'" + dir + "'");
    ResourceExecutorOptions options;
    options.kubepods_dir = dir;
    const auto executor =
        CgroupResourceExecutor::create(std::make_unique<FakeCgroupWriter>(), clock, options);
    ASSERT_FALSE(executor.ok());
    EXPECT_EQ(executor.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(executor.status().message(),
                StartsWith("failed to create resource executor: kubepods folder '" + dir + "'"));
  }
  EXPECT_FALSE(CgroupResourceExecutor::create(nullptr, clock, {}).ok());
}

TEST_F(ExecutorTest, CacheSkipsUnchangedWrites) {
  auto executor = make();
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", " 1024\n")).isOk());
  ASSERT_TRUE(executor->update(cpus("kubepods/pod1", "0,1,2,3")).isOk());
  ASSERT_TRUE(executor->update(cpus("kubepods/pod1", "0-3")).isOk());
  // Another resource or folder is another cache entry; a new value is written.
  ASSERT_TRUE(executor->update({R::kCpuCfsQuota, "kubepods/pod1", "1024", ""}).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod2", "1024")).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "2048")).isOk());
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods/pod1 cpu_shares=1024", "kubepods/pod1 cpuset_cpus=0-3",
                          "kubepods/pod1 cpu_cfs_quota=1024", "kubepods/pod2 cpu_shares=1024",
                          "kubepods/pod1 cpu_shares=2048"));
  EXPECT_EQ(executor->skippedWrites(), 2U);
}

TEST_F(ExecutorTest, CacheExpiresAfterMaxAge) {
  ResourceExecutorOptions options;
  options.cache_max_age = std::chrono::seconds(10);
  auto executor = make(options);
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  clock_.advance(std::chrono::seconds(9));
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  EXPECT_EQ(writer_->writes().size(), 1U);
  clock_.advance(std::chrono::seconds(1));
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  EXPECT_EQ(writer_->writes().size(), 2U);
  // The re-write restarted the entry's age.
  clock_.advance(std::chrono::seconds(9));
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  EXPECT_EQ(writer_->writes().size(), 2U);
  EXPECT_EQ(executor->skippedWrites(), 2U);
}

TEST_F(ExecutorTest, CacheNeverExpiresWithoutMaxAge) {
  auto executor = make();
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  clock_.advance(std::chrono::hours(24 * 365));
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  EXPECT_EQ(writer_->writes().size(), 1U);
}

TEST_F(ExecutorTest, ForgetDropsTheFolderAndEverythingUnderIt) {
  auto executor = make();
  const std::vector<std::string> dirs = {"kubepods/pod1", "kubepods/pod1/c1", "kubepods/pod10",
                                         "kubepods/pod2"};
  for (const std::string& dir : dirs) {
    ASSERT_TRUE(executor->update(shares(dir, "1024")).isOk());
  }
  writer_->clearWrites();
  executor->forget("kubepods/pod1/");
  for (const std::string& dir : dirs) {
    ASSERT_TRUE(executor->update(shares(dir, "1024")).isOk());
  }
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods/pod1 cpu_shares=1024", "kubepods/pod1/c1 cpu_shares=1024"));
  writer_->clearWrites();
  executor->forget("kubepods");
  ASSERT_TRUE(executor->update(shares("kubepods/pod2", "1024")).isOk());
  EXPECT_EQ(writer_->writes().size(), 1U);
}

TEST_F(ExecutorTest, FailedWriteDropsTheCacheEntry) {
  auto executor = make();
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  writer_->failNext("kubepods/pod1", R::kCpuShares, Status::unavailable("failed to write: EIO"));
  const Status failed = executor->update(shares("kubepods/pod1", "2048"));
  EXPECT_EQ(failed.code(), StatusCode::kUnavailable);
  EXPECT_EQ(failed.message(), "failed to write: EIO");
  // The kernel may hold anything now: the old value is written again, not skipped.
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  // A value whose write failed is not cached either.
  writer_->failNext("kubepods/pod1", R::kCpuShares, Status::unavailable("EIO"));
  EXPECT_FALSE(executor->update(shares("kubepods/pod1", "4096")).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "4096")).isOk());
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods/pod1 cpu_shares=1024", "kubepods/pod1 cpu_shares=2048",
                          "kubepods/pod1 cpu_shares=1024", "kubepods/pod1 cpu_shares=4096",
                          "kubepods/pod1 cpu_shares=4096"));
  EXPECT_EQ(executor->skippedWrites(), 0U);
}

// kubepods 0-7 > besteffort 0-3 > pod1 0-1 moves to kubepods 2-7 > besteffort 4-7 > pod1 6-7:
// written naively top-down the kernel refuses the first write (besteffort still holds 0-3).
class LeveledCpusetTest : public ExecutorTest {
 protected:
  void SetUp() override {
    executor_ = make();
    writer_->set("kubepods", R::kCpusetCpus, "0-7");
    writer_->set("kubepods/besteffort", R::kCpusetCpus, "0-3");
    writer_->set("kubepods/besteffort/pod1", R::kCpusetCpus, "0-1");
  }
  void expectFinal() {
    EXPECT_EQ(writer_->get("kubepods", R::kCpusetCpus), "2-7");
    EXPECT_EQ(writer_->get("kubepods/besteffort", R::kCpusetCpus), "4-7");
    EXPECT_EQ(writer_->get("kubepods/besteffort/pod1", R::kCpusetCpus), "6-7");
  }
  const std::vector<ResourceUpdate> updates_ = {cpus("kubepods", "2-7"),
                                                cpus("kubepods/besteffort", "4-7"),
                                                cpus("kubepods/besteffort/pod1", "6-7")};
  std::unique_ptr<CgroupResourceExecutor> executor_;
};

TEST_F(LeveledCpusetTest, NaiveOrderIsRefusedByTheKernelRules) {
  const Status status = executor_->update(updates_[0]);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(writer_->get("kubepods", R::kCpusetCpus), "0-7");
  const Status child = executor_->update(updates_[2]);
  EXPECT_EQ(child.code(), StatusCode::kPermissionDenied);
}

TEST_F(LeveledCpusetTest, LoosensTopDownThenTightensBottomUp) {
  const Status status = executor_->updateBatch(updates_);
  ASSERT_TRUE(status.isOk()) << status;
  expectFinal();
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods/besteffort cpuset_cpus=0-7",
                          "kubepods/besteffort/pod1 cpuset_cpus=0-1,6-7",
                          "kubepods/besteffort/pod1 cpuset_cpus=6-7",
                          "kubepods/besteffort cpuset_cpus=4-7", "kubepods cpuset_cpus=2-7"));
  const auto audit = executor_->auditLog();
  ASSERT_EQ(audit.size(), 5U);
  EXPECT_EQ(audit[0].reason, "cpuset (loosen)");
  EXPECT_EQ(audit[0].old_value, "0-3");
  EXPECT_EQ(audit[0].new_value, "0-7");
  EXPECT_EQ(audit[3].reason, "cpuset");
  EXPECT_EQ(audit[3].old_value, "0-7");
  EXPECT_EQ(audit[3].new_value, "4-7");
  EXPECT_EQ(audit[4].old_value, "0-7");
  // Re-applying the same batch writes nothing.
  writer_->clearWrites();
  ASSERT_TRUE(executor_->updateBatch(updates_).isOk());
  EXPECT_TRUE(writer_->writes().empty());
  EXPECT_EQ(executor_->skippedWrites(), 3U);
}

TEST_F(LeveledCpusetTest, AnyInputOrderWorks) {
  std::vector<size_t> order = {0, 1, 2};
  do {
    SetUp();
    std::vector<ResourceUpdate> batch;
    batch.reserve(order.size());
    for (const size_t i : order) {
      batch.push_back(updates_[i]);
    }
    SCOPED_TRACE(::testing::PrintToString(order));
    ASSERT_TRUE(executor_->updateBatch(batch).isOk());
    expectFinal();
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_F(LeveledCpusetTest, GrowingOnlyWritesEachFolderOnceTopDown) {
  const Status status =
      executor_->updateBatch({cpus("kubepods/besteffort/pod1", "0-5"),
                              cpus("kubepods/besteffort", "0-6"), cpus("kubepods", "0-9")});
  ASSERT_TRUE(status.isOk()) << status;
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods cpuset_cpus=0-9", "kubepods/besteffort cpuset_cpus=0-6",
                          "kubepods/besteffort/pod1 cpuset_cpus=0-5"));
}

TEST_F(LeveledCpusetTest, ShrinkingOnlyWritesEachFolderOnceBottomUp) {
  const Status status =
      executor_->updateBatch({cpus("kubepods", "0-1"), cpus("kubepods/besteffort", "0-1"),
                              cpus("kubepods/besteffort/pod1", "1")});
  ASSERT_TRUE(status.isOk()) << status;
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods/besteffort/pod1 cpuset_cpus=1",
                          "kubepods/besteffort cpuset_cpus=0-1", "kubepods cpuset_cpus=0-1"));
}

// A child's new value outside its parent's new value cannot be applied; the batch says so, and a
// loosened parent keeps its loosened value (old and new together), uncached.
TEST_F(LeveledCpusetTest, InconsistentTargetsFail) {
  const Status status = executor_->updateBatch(
      {cpus("kubepods/besteffort", "4-5"), cpus("kubepods/besteffort/pod1", "6-7")});
  EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
  EXPECT_THAT(status.message(), StartsWith("failed to apply 2 of 2 updates: "));
  EXPECT_EQ(writer_->get("kubepods/besteffort/pod1", R::kCpusetCpus), "0-1");
  EXPECT_EQ(writer_->get("kubepods/besteffort", R::kCpusetCpus), "0-5");
  // Once the child is moved first, the parent's update is no longer skipped and succeeds.
  ASSERT_TRUE(executor_->update(cpus("kubepods/besteffort/pod1", "4")).isOk());
  ASSERT_TRUE(executor_->updateBatch({cpus("kubepods/besteffort", "4-5")}).isOk());
  EXPECT_EQ(writer_->get("kubepods/besteffort", R::kCpusetCpus), "4-5");
}

TEST_F(LeveledCpusetTest, LastUpdateOfAFolderWins) {
  ASSERT_TRUE(executor_
                  ->updateBatch({cpus("kubepods/besteffort/pod1", "2"),
                                 cpus("kubepods/besteffort/pod1", "3")})
                  .isOk());
  EXPECT_EQ(writer_->get("kubepods/besteffort/pod1", R::kCpusetCpus), "3");
  EXPECT_THAT(writer_->writes(), ElementsAre("kubepods/besteffort/pod1 cpuset_cpus=0-1,3",
                                             "kubepods/besteffort/pod1 cpuset_cpus=3"));
  EXPECT_EQ(executor_->skippedWrites(), 1U);
}

TEST_F(LeveledCpusetTest, MemsAreLeveledToo) {
  writer_->set("kubepods", R::kCpusetMems, "0-1");
  writer_->set("kubepods/besteffort", R::kCpusetMems, "0");
  const Status status = executor_->updateBatch(
      {{R::kCpusetMems, "kubepods", "1", ""}, {R::kCpusetMems, "kubepods/besteffort", "1", ""}});
  ASSERT_TRUE(status.isOk()) << status;
  EXPECT_EQ(writer_->get("kubepods", R::kCpusetMems), "1");
  EXPECT_EQ(writer_->get("kubepods/besteffort", R::kCpusetMems), "1");
}

// Other updates go first, in order, then cpuset.cpus, then cpuset.mems; a failure does not stop
// the rest and the first failure is reported.
TEST_F(ExecutorTest, BatchAppliesEverythingAndReportsTheFirstFailure) {
  auto executor = make();
  writer_->set("kubepods", R::kCpusetCpus, "0-3");
  writer_->set("kubepods", R::kCpusetMems, "0");
  const Status status = executor->updateBatch({
      {R::kCpusetMems, "kubepods", "0", "m"},
      shares("kubepods-evil", "2"),
      cpus("kubepods", "1-3"),
      shares("kubepods/pod1", "2"),
      {R::kCpuCfsQuota, "kubepods/pod1", "0", "q"},
      {R::kMemoryLimit, "kubepods/pod1", "-1", "mem"},
  });
  EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(status.message(),
            "failed to apply 2 of 6 updates: refusing to write 'kubepods-evil/cpu_shares': "
            "outside kubepods");
  EXPECT_THAT(writer_->writes(),
              ElementsAre("kubepods/pod1 cpu_shares=2", "kubepods/pod1 memory_limit=-1",
                          "kubepods cpuset_cpus=1-3", "kubepods cpuset_mems=0"));
  EXPECT_TRUE(executor->updateBatch({}).isOk());
}

TEST_F(ExecutorTest, AuditRingKeepsTheLastRecords) {
  ResourceExecutorOptions options;
  options.audit_capacity = 3;
  auto executor = make(options);
  writer_->set("kubepods/pod1", R::kCpuShares, "1024");
  const Clock::TimePoint start = clock_.now();
  for (int i = 1; i <= 5; ++i) {
    clock_.advance(std::chrono::seconds(1));
    ASSERT_TRUE(
        executor
            ->update(shares("kubepods/pod1", std::to_string(1000 + i), "step" + std::to_string(i)))
            .isOk());
  }
  const auto audit = executor->auditLog();
  ASSERT_EQ(audit.size(), 3U);
  for (size_t i = 0; i < audit.size(); ++i) {
    SCOPED_TRACE(i);
    const int step = static_cast<int>(i) + 3;
    EXPECT_EQ(audit[i].time, start + std::chrono::seconds(step));
    EXPECT_EQ(audit[i].resource, R::kCpuShares);
    EXPECT_EQ(audit[i].file, "/fake/kubepods/pod1/cpu_shares");
    EXPECT_EQ(audit[i].old_value, std::to_string(1000 + step - 1));
    EXPECT_EQ(audit[i].new_value, std::to_string(1000 + step));
    EXPECT_EQ(audit[i].reason, "step" + std::to_string(step));
    EXPECT_EQ(audit[i].result, WriteResult::kOk);
    EXPECT_TRUE(audit[i].status.isOk());
  }
  // A failure is recorded with its error; a folder that cannot be read has no old value.
  writer_->failNext("kubepods/pod2", R::kCpuShares, Status::notFound("gone"));
  EXPECT_FALSE(executor->update(shares("kubepods/pod2", "2")).isOk());
  const auto last = executor->auditLog().back();
  EXPECT_EQ(last.result, WriteResult::kFailed);
  EXPECT_EQ(last.status, Status::notFound("gone"));
  EXPECT_EQ(last.old_value, std::nullopt);
  EXPECT_EQ(executor->auditLog().size(), 3U);
}

TEST_F(ExecutorTest, MetricsCountEveryResult) {
  metrics::MetricsRegistry registry;
  auto executor = make({}, nullptr, &registry);
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod2", "1024")).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "1024")).isOk());
  EXPECT_FALSE(executor->update(shares("kubepods/pod1", "1")).isOk());
  EXPECT_FALSE(executor->update(shares("/", "1024")).isOk());
  writer_->failNext("kubepods", R::kMemoryLimit, Status::unavailable("EIO"));
  EXPECT_FALSE(executor->update({R::kMemoryLimit, "kubepods", "1", ""}).isOk());
  std::vector<std::string> samples;
  std::istringstream lines(registry.serialize());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("koord_agent_executor_writes_total{", 0) == 0) {
      samples.push_back(line);
    }
  }
  std::sort(samples.begin(), samples.end());
  EXPECT_THAT(
      samples,
      ElementsAre(
          R"(koord_agent_executor_writes_total{resource="cpu_shares",result="failed"} 1)",
          R"(koord_agent_executor_writes_total{resource="cpu_shares",result="ok"} 2)",
          R"(koord_agent_executor_writes_total{resource="cpu_shares",result="refused"} 1)",
          R"(koord_agent_executor_writes_total{resource="cpu_shares",result="skipped"} 1)",
          R"(koord_agent_executor_writes_total{resource="memory_limit",result="failed"} 1)"));
}

TEST_F(ExecutorTest, LogsEveryWrite) {
  std::mutex mu;
  std::vector<std::pair<log::LogLevel, std::string>> lines;
  const log::Logger logger(
      log::LogSink::toCallback([&](log::LogLevel level, std::string_view line) {
        const std::lock_guard<std::mutex> lock(mu);
        lines.emplace_back(level, std::string(line));
      }),
      {});
  auto executor = make({}, &logger);
  writer_->set("kubepods/pod1", R::kCpuShares, "1024");
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "512", "suppress be")).isOk());
  ASSERT_TRUE(executor->update(shares("kubepods/pod1", "512", "suppress be")).isOk());
  EXPECT_FALSE(executor->update(shares("kubepods-evil", "512", "attack")).isOk());
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].first, log::LogLevel::kInfo);
  EXPECT_THAT(lines[0].second, HasSubstr("cgroup written"));
  EXPECT_THAT(lines[0].second, HasSubstr("file=/fake/kubepods/pod1/cpu_shares old=1024 new=512"));
  EXPECT_THAT(lines[0].second, HasSubstr("reason=\"suppress be\""));
  EXPECT_EQ(lines[1].first, log::LogLevel::kWarn);
  EXPECT_THAT(lines[1].second, HasSubstr("result=refused"));
  EXPECT_THAT(lines[1].second, HasSubstr("outside kubepods"));
}

// Calls from many threads are applied one at a time: the (not thread-safe) fake writer sees
// every write once and the cache skips every repeat.
TEST_F(ExecutorTest, ConcurrentUpdatesAreSerialised) {
  auto executor = make();
  constexpr int kThreads = 4;
  constexpr int kPods = 50;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&executor, t] {
      for (int pod = 0; pod < kPods; ++pod) {
        const std::string dir = "kubepods/pod" + std::to_string(pod);
        EXPECT_TRUE(executor->update(shares(dir, "1024")).isOk());
        EXPECT_TRUE(executor->updateBatch({cpus(dir + "/c" + std::to_string(t), "0")}).isOk());
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(writer_->writes().size(), static_cast<size_t>(kPods + kPods * kThreads));
  EXPECT_EQ(executor->skippedWrites(), static_cast<uint64_t>(kPods * (kThreads - 1)));
  EXPECT_EQ(writer_->get("kubepods/pod49/c3", R::kCpusetCpus), "0");
}

// End to end over a cgroup v2 tree shaped like the h200 capture.
TEST(ExecutorV2Test, WritesThroughTheV2Writer) {
  FakeRoot root;
  for (const std::string dir : {"kubepods.slice", "kubepods.slice/kubepods-burstable.slice",
                                "kubepods.slice/kubepods-burstable.slice/pod1.slice"}) {
    ASSERT_TRUE(testing::makeV2Cgroup(root, dir));
  }
  FakeClock clock;
  ResourceExecutorOptions options;
  options.kubepods_dir = "kubepods.slice";
  auto executor = CgroupResourceExecutor::create(
      newCgroupWriter(system::CgroupVersion::kV2, system::SysPaths::under(root.path())), clock,
      options);
  ASSERT_TRUE(executor.ok()) << executor.status();
  const std::string pod = "kubepods.slice/kubepods-burstable.slice/pod1.slice";
  const Status status = (*executor)->updateBatch({
      {R::kCpuShares, pod, "1024", ""},
      {R::kCpuCfsQuota, pod, "50000", ""},
      {R::kCpuCfsPeriod, pod, "200000", ""},
      {R::kMemoryLimit, pod, "-1", ""},
      {R::kMemoryHigh, pod, "1073741824", ""},
      {R::kCpusetCpus, "kubepods.slice", "0-3", ""},
      {R::kCpusetCpus, pod, "2-3", ""},
  });
  ASSERT_TRUE(status.isOk()) << status;
  const std::string dir = cgroupPath(pod + "/");
  EXPECT_EQ(readTree(root, dir + "cpu.weight"), "39");
  EXPECT_EQ(readTree(root, dir + "cpu.max"), "50000 200000");
  EXPECT_EQ(readTree(root, dir + "memory.max"), "max");
  EXPECT_EQ(readTree(root, dir + "memory.high"), "1073741824");
  EXPECT_EQ(readTree(root, dir + "cpuset.cpus"), "2-3");
  EXPECT_EQ(readTree(root, cgroupPath("kubepods.slice/cpuset.cpus")), "0-3");
  const auto audit = (*executor)->auditLog();
  ASSERT_FALSE(audit.empty());
  EXPECT_EQ(audit.front().file, (root.path() / dir / "cpu.weight").string());
  EXPECT_EQ(audit.front().old_value, "2597");
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
