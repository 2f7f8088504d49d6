// ROOT_ tests: the executor against the real kernel's cgroup v1 hierarchies under
// /sys/fs/cgroup. Each test makes its own subtree koord-test-<pid>/kubepods/pod1 in the cpu,
// cpuset and memory hierarchies, points the executor's kubepods folder at
// koord-test-<pid>/kubepods, and removes the subtree at the end (children first), pass or fail.
// Skipped unless running as root on writable cgroup v1 hierarchies.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "agent/resourceexecutor/cgroup_file.hpp"
#include "agent/resourceexecutor/cgroup_resource_executor.hpp"
#include "agent/system/sys_paths.hpp"
#include "agent/system/sysfs_file.hpp"
#include "koord/common/clock.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::resourceexecutor {
namespace {

namespace fs = std::filesystem;
using R = CgroupResource;

constexpr const char* kSubsystems[] = {"cpu", "cpuset", "memory"};

// Why this host cannot run the tests; empty when it can.
std::string unsupportedReason(const fs::path& cgroup_root) {
  if (::geteuid() != 0) {
    return "needs root to write cgroup files";
  }
  for (const std::string subsystem : kSubsystems) {
    const fs::path mount = cgroup_root / subsystem;
    struct statfs info {};
    if (::statfs(mount.c_str(), &info) != 0) {
      return mount.string() + " does not exist";
    }
    if (info.f_type != CGROUP_SUPER_MAGIC) {
      return mount.string() + " is not a cgroup v1 hierarchy";
    }
    if (::access(mount.c_str(), W_OK) != 0) {
      return mount.string() + " is not writable";
    }
  }
  return {};
}

// Removes the cgroup `dir` and every cgroup under it, deepest first (cgroupfs folders go with
// rmdir(2) alone; their files cannot be unlinked).
void removeCgroupTree(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return;
  }
  std::vector<fs::path> children;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory(ec)) {
      children.push_back(entry.path());
    }
  }
  for (const fs::path& child : children) {
    removeCgroupTree(child);
  }
  ::rmdir(dir.c_str());
}

class RootExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = unsupportedReason(paths_.cgroup_root);
    if (!reason.empty()) {
      GTEST_SKIP() << reason;
    }
    test_dir_ = "koord-test-" + std::to_string(::getpid());
    kubepods_ = test_dir_ + "/kubepods";
    pod_ = kubepods_ + "/pod1";
    for (const std::string subsystem : kSubsystems) {
      for (const std::string& dir : {test_dir_, kubepods_, pod_}) {
        const fs::path full = paths_.cgroup_root / subsystem / dir;
        ASSERT_EQ(::mkdir(full.c_str(), 0755), 0) << full << ": " << std::strerror(errno);
      }
    }
    // The test's own root sits outside kubepods, so the test (not the executor) gives it the
    // host's CPUs and memory nodes; a new v1 cpuset starts empty.
    const fs::path cpuset = paths_.cgroup_root / "cpuset";
    host_cpus_ = system::readSysString(cpuset / "cpuset.cpus").valueOr("");
    host_mems_ = system::readSysString(cpuset / "cpuset.mems").valueOr("");
    ASSERT_FALSE(host_cpus_.empty());
    ASSERT_FALSE(host_mems_.empty());
    ASSERT_TRUE(writeCgroupFile(cpuset / test_dir_ / "cpuset.cpus", host_cpus_).isOk());
    ASSERT_TRUE(writeCgroupFile(cpuset / test_dir_ / "cpuset.mems", host_mems_).isOk());

    ResourceExecutorOptions options;
    options.kubepods_dir = kubepods_;
    auto executor = CgroupResourceExecutor::create(
        newCgroupWriter(system::CgroupVersion::kV1, paths_), clock_, options);
    ASSERT_TRUE(executor.ok()) << executor.status();
    executor_ = std::move(executor).value();
  }

  void TearDown() override {
    if (test_dir_.empty()) {
      return;
    }
    for (const std::string subsystem : kSubsystems) {
      const fs::path dir = paths_.cgroup_root / subsystem / test_dir_;
      removeCgroupTree(dir);
      std::error_code ec;
      EXPECT_FALSE(fs::exists(dir, ec)) << dir << " was not removed";
    }
  }

  // What the kernel reads back for <subsystem>/<dir>/<file>.
  std::string kernel(const std::string& subsystem, const std::string& dir,
                     const std::string& file) const {
    return system::readSysString(paths_.cgroup_root / subsystem / dir / file)
        .valueOr("<unreadable>");
  }

  const system::SysPaths paths_{};  // the host's /sys/fs/cgroup
  FakeClock clock_;
  std::string test_dir_;
  std::string kubepods_;
  std::string pod_;
  std::string host_cpus_;
  std::string host_mems_;
  std::unique_ptr<CgroupResourceExecutor> executor_;
};

TEST_F(RootExecutorTest, ROOT_WritesCpuAndMemoryAndReadsThemBack) {
  const Status status = executor_->updateBatch({
      {R::kCpuShares, pod_, "512", "root test"},
      {R::kCpuCfsPeriod, pod_, "200000", "root test"},
      {R::kCpuCfsQuota, pod_, "50000", "root test"},
      {R::kMemoryLimit, pod_, "268435456", "root test"},
  });
  ASSERT_TRUE(status.isOk()) << status;
  EXPECT_EQ(kernel("cpu", pod_, "cpu.shares"), "512");
  EXPECT_EQ(kernel("cpu", pod_, "cpu.cfs_period_us"), "200000");
  EXPECT_EQ(kernel("cpu", pod_, "cpu.cfs_quota_us"), "50000");
  EXPECT_EQ(kernel("memory", pod_, "memory.limit_in_bytes"), "268435456");

  std::error_code ec;
  if (fs::exists(paths_.cgroup_root / "cpu" / pod_ / "cpu.cfs_burst_us", ec)) {
    ASSERT_TRUE(executor_->update({R::kCpuBurst, pod_, "10000", "root test"}).isOk());
    EXPECT_EQ(kernel("cpu", pod_, "cpu.cfs_burst_us"), "10000");
  }

  ASSERT_TRUE(executor_->update({R::kCpuCfsQuota, pod_, "-1", "root test"}).isOk());
  ASSERT_TRUE(executor_->update({R::kMemoryLimit, pod_, "-1", "root test"}).isOk());
  EXPECT_EQ(kernel("cpu", pod_, "cpu.cfs_quota_us"), "-1");
  const auto audit = executor_->auditLog();
  ASSERT_FALSE(audit.empty());
  EXPECT_EQ(audit.back().old_value, "268435456");
  // The kernel prints its "no limit" (INT64_MAX rounded to a page); the writer reads it as -1.
  EXPECT_GT(kernel("memory", pod_, "memory.limit_in_bytes").size(), 18U);
  const auto writer = newCgroupWriter(system::CgroupVersion::kV1, paths_);
  EXPECT_EQ(writer->read(R::kMemoryLimit, pod_).valueOr(""), "-1");
  EXPECT_EQ(writer->read(R::kCpuShares, pod_).valueOr(""), "512");

  // The kernel rejects what the rules allow but it does not (a quota below 1 ms).
  const Status rejected = executor_->update({R::kCpuCfsQuota, pod_, "10", "root test"});
  EXPECT_EQ(rejected.code(), StatusCode::kInvalidArgument) << rejected;
  EXPECT_EQ(kernel("cpu", pod_, "cpu.cfs_quota_us"), "-1");
}

TEST_F(RootExecutorTest, ROOT_LeveledCpusetIsAcceptedByTheKernel) {
  const auto host = cpuset::CpuSet::parse(host_cpus_);
  ASSERT_TRUE(host.ok()) << host.status();
  if (host->size() < 2) {
    GTEST_SKIP() << "needs two CPUs, the host has " << host_cpus_;
  }
  const std::string first = std::to_string(host->toVector()[0]);
  const std::string second = std::to_string(host->toVector()[1]);

  // mems first (the kernel needs them before tasks may join), then kubepods all CPUs and the
  // pod the first one.
  Status status = executor_->updateBatch({
      {R::kCpusetCpus, pod_, first, "root test"},
      {R::kCpusetMems, pod_, host_mems_, "root test"},
      {R::kCpusetCpus, kubepods_, host_cpus_, "root test"},
      {R::kCpusetMems, kubepods_, host_mems_, "root test"},
  });
  ASSERT_TRUE(status.isOk()) << status;
  EXPECT_EQ(kernel("cpuset", kubepods_, "cpuset.cpus"), host_cpus_);
  EXPECT_EQ(kernel("cpuset", pod_, "cpuset.cpus"), first);
  EXPECT_EQ(kernel("cpuset", pod_, "cpuset.mems"), host_mems_);

  // Moving kubepods to the second CPU alone while the pod holds the first: the kernel refuses
  // (EBUSY).
  const Status naive = executor_->update({R::kCpusetCpus, kubepods_, second, "naive"});
  EXPECT_EQ(naive.code(), StatusCode::kFailedPrecondition) << naive;
  EXPECT_EQ(kernel("cpuset", kubepods_, "cpuset.cpus"), host_cpus_);

  // Leveled, the same move succeeds: the pod is loosened to both CPUs, then tightened to the
  // second, then kubepods is tightened.
  status = executor_->updateBatch({
      {R::kCpusetCpus, kubepods_, second, "move"},
      {R::kCpusetCpus, pod_, second, "move"},
  });
  ASSERT_TRUE(status.isOk()) << status;
  EXPECT_EQ(kernel("cpuset", kubepods_, "cpuset.cpus"), second);
  EXPECT_EQ(kernel("cpuset", pod_, "cpuset.cpus"), second);
  // A child outside its parent: the kernel refuses (EACCES).
  const Status outside = executor_->update({R::kCpusetCpus, pod_, first, "outside"});
  EXPECT_EQ(outside.code(), StatusCode::kPermissionDenied) << outside;
  EXPECT_EQ(kernel("cpuset", pod_, "cpuset.cpus"), second);
  bool loosened = false;
  for (const AuditRecord& record : executor_->auditLog()) {
    loosened = loosened || record.reason == "move (loosen)";
  }
  EXPECT_TRUE(loosened);
}

TEST_F(RootExecutorTest, ROOT_RefusesTheFoldersAroundKubepods) {
  for (const std::string& dir :
       {test_dir_, test_dir_ + "/kubepods/../", std::string("/sys/fs/cgroup/cpu/") + pod_}) {
    SCOPED_TRACE(dir);
    EXPECT_EQ(executor_->update({R::kCpuShares, dir, "2", "root test"}).code(),
              StatusCode::kPermissionDenied);
  }
  EXPECT_EQ(kernel("cpu", test_dir_, "cpu.shares"), "1024");
  EXPECT_EQ(kernel("cpu", pod_, "cpu.shares"), "1024");
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
