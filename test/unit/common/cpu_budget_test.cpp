// availableCpus() and cgroupCpuLimit(): cgroup v1 and v2 layouts written to a temporary folder,
// the real affinity mask of a pinned thread, and (ROOT_) a real cgroup v1 CPU quota with this
// process moved into it.
#include "koord/common/cpu_budget.hpp"

#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

namespace koord {
namespace {

namespace fs = std::filesystem;

class CpuBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "koord-cpu-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    sources_.proc_self_cgroup = dir_ / "proc-self-cgroup";
    sources_.cgroup_root = dir_ / "cgroup";
    sources_.affinity_cpus = [this] { return affinity_; };
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Writes `content` to <cgroup root>/<relative>, creating the folders.
  void write(const fs::path& relative, const std::string& content) const {
    const fs::path file = sources_.cgroup_root / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << content << "\n";
  }
  void membership(const std::string& lines) const {
    std::ofstream(sources_.proc_self_cgroup) << lines;
  }
  // A cgroup v2 hierarchy mounted at the root.
  void v2() const { write("cgroup.controllers", "cpuset cpu io memory pids"); }

  fs::path dir_;
  CpuBudgetSources sources_;
  int affinity_ = 8;
};

TEST_F(CpuBudgetTest, V2TakesTheSmallestQuotaOfTheCgroupAndItsAncestorsRoundedUp) {
  v2();
  membership("0::/kubepods/pod1/c1\n");
  write("kubepods/cpu.max", "max 100000");
  write("kubepods/pod1/cpu.max", "150000 100000");
  write("kubepods/pod1/c1/cpu.max", "400000 100000");
  ASSERT_TRUE(cgroupCpuLimit(sources_).has_value());
  EXPECT_DOUBLE_EQ(*cgroupCpuLimit(sources_), 1.5);
  EXPECT_EQ(availableCpus(sources_), 2);
}

TEST_F(CpuBudgetTest, NoQuotaLeavesTheAffinityMask) {
  v2();
  membership("0::/kubepods/pod1\n");
  write("kubepods/cpu.max", "max 100000");
  write("kubepods/pod1/cpu.max", "max 100000");
  EXPECT_FALSE(cgroupCpuLimit(sources_).has_value());
  affinity_ = 6;
  EXPECT_EQ(availableCpus(sources_), 6);
}

TEST_F(CpuBudgetTest, AnAffinityMaskBelowTheQuotaWins) {
  v2();
  membership("0::/pod\n");
  write("pod/cpu.max", "400000 100000");
  affinity_ = 2;
  EXPECT_EQ(availableCpus(sources_), 2);
}

TEST_F(CpuBudgetTest, V1CoMountedCpuHierarchyOnAHybridHost) {
  // A hybrid host: v2 mounted at unified/ without the cpu controller, cpu in v1.
  write("unified/cgroup.controllers", "");
  membership(
      "12:memory:/kubepods/burstable/pod2\n"
      "4:cpu,cpuacct:/kubepods/burstable/pod2\n"
      "0::/kubepods/burstable/pod2\n");
  write("cpu,cpuacct/kubepods/cpu.cfs_quota_us", "-1");
  write("cpu,cpuacct/kubepods/cpu.cfs_period_us", "100000");
  write("cpu,cpuacct/kubepods/burstable/pod2/cpu.cfs_quota_us", "50000");
  write("cpu,cpuacct/kubepods/burstable/pod2/cpu.cfs_period_us", "100000");
  ASSERT_TRUE(cgroupCpuLimit(sources_).has_value());
  EXPECT_DOUBLE_EQ(*cgroupCpuLimit(sources_), 0.5);
  EXPECT_EQ(availableCpus(sources_), 1);  // half a CPU still runs one thread
}

TEST_F(CpuBudgetTest, AContainerWithoutACgroupNamespaceReadsTheMountsRoot) {
  // /proc/self/cgroup names the host's path, but only the container's own cgroup is mounted.
  v2();
  membership("0::/kubepods/pod3/0123abcd\n");
  write("cpu.max", "200000 100000");
  EXPECT_EQ(availableCpus(sources_), 2);
}

TEST_F(CpuBudgetTest, UnreadableOrMalformedFilesCountAsNoLimit) {
  v2();
  membership("0::/a/b/c/d\n");
  write("a/cpu.max", "garbage");
  write("a/b/cpu.max", "100000 0");
  write("a/b/c/cpu.max", "-5 100000");
  write("a/b/c/d/cpu.max", "12x 100000");
  EXPECT_FALSE(cgroupCpuLimit(sources_).has_value());
  EXPECT_EQ(availableCpus(sources_), 8);

  fs::remove(sources_.proc_self_cgroup);
  EXPECT_FALSE(cgroupCpuLimit(sources_).has_value());
  EXPECT_EQ(availableCpus(sources_), 8);

  affinity_ = 0;  // a broken mask still leaves one CPU
  EXPECT_EQ(availableCpus(sources_), 1);
}

TEST(CpuBudgetRealTest, AThreadPinnedToOneCpuHasOne) {
  int seen = 0;
  std::thread pinned([&] {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    ASSERT_EQ(::sched_getaffinity(0, sizeof(mask), &mask), 0);
    int first = 0;
    while (!CPU_ISSET(first, &mask))
      ++first;
    CPU_ZERO(&mask);
    CPU_SET(first, &mask);
    ASSERT_EQ(::sched_setaffinity(0, sizeof(mask), &mask), 0);
    seen = availableCpus();
  });
  pinned.join();
  EXPECT_EQ(seen, 1);
}

// Moves this process into `cgroup`'s cgroup.procs and back to `home` when it goes.
class MovedInto {
 public:
  MovedInto(const fs::path& cgroup, fs::path home) : home_(std::move(home)) {
    std::ofstream(cgroup / "cgroup.procs") << ::getpid() << "\n";
  }
  ~MovedInto() { std::ofstream(home_ / "cgroup.procs") << ::getpid() << "\n"; }
  MovedInto(const MovedInto&) = delete;
  MovedInto& operator=(const MovedInto&) = delete;

 private:
  fs::path home_;
};

// This process's cgroup in the v1 cpu hierarchy, relative to the mount ("" when unknown).
std::string ownCpuCgroup() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find(':');
    const size_t second = line.find(':', first + 1);
    const std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
    if (controllers.find(",cpu,") != std::string::npos) {
      return line.substr(second + 1);
    }
  }
  return {};
}

TEST(CpuBudgetRootTest, ROOT_ReadsTheKernelsCpuQuotaOfItsOwnCgroup) {
  const fs::path mount = "/sys/fs/cgroup/cpu";
  struct statfs info {};
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root to make a cgroup";
  }
  if (::statfs(mount.c_str(), &info) != 0 || info.f_type != CGROUP_SUPER_MAGIC) {
    GTEST_SKIP() << mount << " is not a cgroup v1 hierarchy";
  }
  const std::string home = ownCpuCgroup();
  if (home.empty() || ::access(mount.c_str(), W_OK) != 0) {
    GTEST_SKIP() << "this process's v1 cpu cgroup is unknown or not writable";
  }
  const fs::path cgroup = mount / ("koord-test-cpu-budget-" + std::to_string(::getpid()));
  ASSERT_TRUE(fs::create_directory(cgroup));
  {
    std::ofstream(cgroup / "cpu.cfs_period_us") << "100000\n";
    std::ofstream(cgroup / "cpu.cfs_quota_us") << "50000\n";
    const MovedInto moved(cgroup, mount / fs::path(home).relative_path());
    const auto limit = cgroupCpuLimit();
    ASSERT_TRUE(limit.has_value());
    EXPECT_DOUBLE_EQ(*limit, 0.5);
    EXPECT_EQ(availableCpus(), 1);
  }
  EXPECT_EQ(::rmdir(cgroup.c_str()), 0) << "the test cgroup is still in use";
}

}  // namespace
}  // namespace koord
