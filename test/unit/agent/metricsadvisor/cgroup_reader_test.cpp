#include "agent/metricsadvisor/cgroup_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "agent/metricsadvisor/cgroup_file.hpp"
#include "test/unit/agent/metricsadvisor/fake_cgroups.hpp"

namespace koord::agent::metricsadvisor {
namespace {

using testing::CgroupVersion;
using testing::FakeCgroups;
using testing::FakeRoot;
using ::testing::HasSubstr;
using testing::kGiB;
using testing::kLayouts;
using testing::kMiB;
using testing::Layout;

constexpr const char* kPodDir = "kubepods/besteffort/pod6f1e2d3c-aaaa-bbbb-cccc-0123456789ab";
constexpr const char* kContainerDir =
    "kubepods/besteffort/pod6f1e2d3c-aaaa-bbbb-cccc-0123456789ab/"
    "3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b";

TEST(CgroupReaderTest, CpuUsageNanos) {
  for (const Layout& layout : kLayouts) {
    SCOPED_TRACE(layout.name);
    FakeRoot root;
    FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
    cgroups.setCpuUsage(kPodDir, 69373625419000);
    cgroups.setCpuUsage(kContainerDir, 1500000);
    cgroups.setCpuUsage("", 99000000000000);
    const auto reader = newCgroupReader(cgroups.paths(), layout.version);
    EXPECT_EQ(reader->version(), layout.version);
    struct Case {
      const char* dir;
      uint64_t want;
    };
    for (const Case& c :
         {Case{kPodDir, 69373625419000}, Case{kContainerDir, 1500000}, Case{"", 99000000000000}}) {
      SCOPED_TRACE(c.dir);
      const Result<uint64_t> usage = reader->cpuUsageNanos(c.dir);
      ASSERT_TRUE(usage.ok()) << usage.status();
      EXPECT_EQ(*usage, c.want);
    }
  }
}

TEST(CgroupReaderTest, MemoryWorkingSetSubtractsInactiveFile) {
  struct Case {
    const char* name;
    uint64_t usage;
    uint64_t inactive_file;
    uint64_t want;
  };
  const std::vector<Case> cases = {
      {"typical", kGiB, 256 * kMiB, 768 * kMiB},
      {"no file cache", 300 * kMiB, 0, 300 * kMiB},
      {"all inactive", 64 * kMiB, 64 * kMiB, 0},
      {"inactive above usage floors at 0", 64 * kMiB, 65 * kMiB, 0},
  };
  for (const Layout& layout : kLayouts) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(layout.name) + ": " + c.name);
      FakeRoot root;
      FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
      cgroups.setMemory(kPodDir, c.usage, c.inactive_file);
      const auto reader = newCgroupReader(cgroups.paths(), layout.version);
      const Result<uint64_t> working_set = reader->memoryWorkingSetBytes(kPodDir);
      ASSERT_TRUE(working_set.ok()) << working_set.status();
      EXPECT_EQ(*working_set, c.want);
    }
  }
}

TEST(CgroupReaderTest, V1UsesHierarchicalInactiveFile) {
  // memory.stat has both inactive_file (this cgroup's own pages) and total_inactive_file (with
  // its children); a pod's pages live in its containers, so only the total is right.
  FakeRoot root;
  root.write(FakeCgroups::v1("memory", kPodDir, "memory.usage_in_bytes"), "1073741824\n");
  root.write(FakeCgroups::v1("memory", kPodDir, "memory.stat"),
             "cache 0\ninactive_file 4096\nactive_file 0\ntotal_inactive_file 268435456\n"
             "total_active_file 0\n");
  const auto reader = newCgroupReader(system::SysPaths::under(root.path()), CgroupVersion::kV1);
  const Result<uint64_t> working_set = reader->memoryWorkingSetBytes(kPodDir);
  ASSERT_TRUE(working_set.ok()) << working_set.status();
  EXPECT_EQ(*working_set, 768 * kMiB);
}

TEST(CgroupReaderTest, V2GoldenFromH200Capture) {
  // cpu.stat and memory.stat exactly as the h200 host printed them for its root cgroup, placed in
  // a pod folder (the root has no memory.current; the test supplies one).
  const std::string cpu_stat = testing::cgroup2RootSection("cpu.stat");
  const std::string memory_stat = testing::cgroup2RootSection("memory.stat");
  ASSERT_THAT(cpu_stat, HasSubstr("usage_usec 6134698\n"));
  ASSERT_THAT(memory_stat, HasSubstr("inactive_file 927690752\n"));
  FakeRoot root;
  root.write(FakeCgroups::v2(kPodDir, "cpu.stat"), cpu_stat);
  root.write(FakeCgroups::v2(kPodDir, "memory.stat"), memory_stat);
  root.write(FakeCgroups::v2(kPodDir, "memory.current"), "1073741824\n");
  const auto reader = newCgroupReader(system::SysPaths::under(root.path()), CgroupVersion::kV2);

  const Result<uint64_t> usage = reader->cpuUsageNanos(kPodDir);
  ASSERT_TRUE(usage.ok()) << usage.status();
  EXPECT_EQ(*usage, uint64_t{6134698} * 1000);
  const Result<uint64_t> working_set = reader->memoryWorkingSetBytes(kPodDir);
  ASSERT_TRUE(working_set.ok()) << working_set.status();
  EXPECT_EQ(*working_set, uint64_t{1073741824} - 927690752);
  const Result<CpuThrottlingStats> throttling = reader->cpuThrottling(kPodDir);
  ASSERT_TRUE(throttling.ok()) << throttling.status();
  EXPECT_EQ(*throttling, CpuThrottlingStats{});
}

TEST(CgroupReaderTest, CpuThrottling) {
  for (const Layout& layout : kLayouts) {
    SCOPED_TRACE(layout.name);
    FakeRoot root;
    FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
    cgroups.setCpuUsage(kContainerDir, 5000000000);
    cgroups.setThrottling(kContainerDir, 1200, 37, 2500000000);
    const auto reader = newCgroupReader(cgroups.paths(), layout.version);
    const Result<CpuThrottlingStats> stats = reader->cpuThrottling(kContainerDir);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(*stats, (CpuThrottlingStats{
                          .nr_periods = 1200, .nr_throttled = 37, .throttled_nanos = 2500000000}));
  }
}

TEST(CgroupReaderTest, RefusesDirsOutsideTheHierarchy) {
  struct Case {
    const char* dir;
    const char* cause;
  };
  const std::vector<Case> cases = {
      {"/sys/fs/cgroup/kubepods", "must be relative"},
      {"..", "must not contain '..'"},
      {"kubepods/../../etc", "must not contain '..'"},
      {"kubepods/..", "must not contain '..'"},
  };
  for (const Layout& layout : kLayouts) {
    FakeRoot root;
    FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
    cgroups.setCpuUsage("kubepods", 1);
    const auto reader = newCgroupReader(cgroups.paths(), layout.version);
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(layout.name) + ": " + c.dir);
      for (const Status& status :
           {reader->cpuUsageNanos(c.dir).status(), reader->memoryWorkingSetBytes(c.dir).status(),
            reader->cpuThrottling(c.dir).status()}) {
        EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
        EXPECT_EQ(status.message(),
                  "failed to read cgroup '" + std::string(c.dir) + "': the path " + c.cause +
                      (std::string(c.cause) == "must be relative" ? " to the hierarchy root" : ""));
      }
    }
  }
  EXPECT_TRUE(checkRelativeDir("kubepods/pod..x/..hidden").isOk());
  EXPECT_TRUE(checkRelativeDir("").isOk());
}

TEST(CgroupReaderTest, MissingCgroupIsNotFound) {
  for (const Layout& layout : kLayouts) {
    SCOPED_TRACE(layout.name);
    FakeRoot root;
    FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
    cgroups.setCpuUsage(kPodDir, 1);
    cgroups.setMemory(kPodDir, kGiB, 0);
    cgroups.setThrottling(kPodDir, 0, 0, 0);
    cgroups.remove(kPodDir);
    const auto reader = newCgroupReader(cgroups.paths(), layout.version);
    for (const Status& status :
         {reader->cpuUsageNanos(kPodDir).status(), reader->memoryWorkingSetBytes(kPodDir).status(),
          reader->cpuThrottling(kPodDir).status()}) {
      EXPECT_EQ(status.code(), StatusCode::kNotFound);
      EXPECT_THAT(status.message(), HasSubstr(kPodDir));
      EXPECT_THAT(status.message(), HasSubstr("No such file or directory"));
    }
  }
}

TEST(CgroupReaderTest, V1WithoutCpuacctHierarchy) {
  FakeRoot root;
  root.write("sys/fs/cgroup/memory/memory.usage_in_bytes", "1\n");
  const auto reader = newCgroupReader(system::SysPaths::under(root.path()), CgroupVersion::kV1);
  const Status status = reader->cpuUsageNanos(kPodDir).status();
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "failed to read '" +
                                  (root.path() / "sys/fs/cgroup/cpuacct").string() +
                                  "': no such cgroup hierarchy");
  // Mounted later: found at the next read.
  FakeCgroups(root, CgroupVersion::kV1, "cpuacct,cpu").setCpuUsage(kPodDir, 42);
  const Result<uint64_t> usage = reader->cpuUsageNanos(kPodDir);
  ASSERT_TRUE(usage.ok()) << usage.status();
  EXPECT_EQ(*usage, 42U);
}

TEST(CgroupReaderTest, MalformedFilesAreInvalidArgument) {
  struct Case {
    const char* name;
    CgroupVersion version;
    const char* file;  // relative to kPodDir in its hierarchy
    const char* content;
    int method;  // 0 cpu, 1 memory, 2 throttling
    const char* message;
  };
  const std::vector<Case> cases = {
      {"v1 usage not a number", CgroupVersion::kV1, "cpuacct/cpuacct.usage", "12ab\n", 0,
       "expected an unsigned integer, got '12ab'"},
      {"v1 usage negative", CgroupVersion::kV1, "cpuacct/cpuacct.usage", "-5\n", 0,
       "expected an unsigned integer, got '-5'"},
      {"v1 usage empty", CgroupVersion::kV1, "cpuacct/cpuacct.usage", "", 0,
       "expected an unsigned integer, got ''"},
      {"v1 memory.stat without total_inactive_file", CgroupVersion::kV1, "memory/memory.stat",
       "cache 0\ninactive_file 5\n", 1, "expected a line 'total_inactive_file <unsigned integer>'"},
      {"v1 cpu.stat without throttled_time", CgroupVersion::kV1, "cpu/cpu.stat",
       "nr_periods 1\nnr_throttled 0\n", 2, "expected a line 'throttled_time <unsigned integer>'"},
      {"v2 cpu.stat without usage_usec", CgroupVersion::kV2, "cpu.stat", "user_usec 5\n", 0,
       "expected a line 'usage_usec <unsigned integer>'"},
      {"v2 usage_usec not a number", CgroupVersion::kV2, "cpu.stat", "usage_usec x\n", 0,
       "expected a line 'usage_usec <unsigned integer>'"},
      {"v2 usage_usec overflows nanoseconds", CgroupVersion::kV2, "cpu.stat",
       "usage_usec 18446744073709552\n", 0, "'usage_usec' overflows nanoseconds"},
      {"v2 memory.stat without inactive_file", CgroupVersion::kV2, "memory.stat",
       "anon 1\nactive_file 2\ntotal_inactive_file 3\n", 1,
       "expected a line 'inactive_file <unsigned integer>'"},
      {"v2 memory.current not a number", CgroupVersion::kV2, "memory.current", "max\n", 1,
       "expected an unsigned integer, got 'max'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    FakeCgroups cgroups(root, c.version);
    cgroups.setCpuUsage(kPodDir, 1);
    cgroups.setMemory(kPodDir, kGiB, 0);
    cgroups.setThrottling(kPodDir, 0, 0, 0);
    const std::string file = c.file;
    const size_t slash = file.find('/');
    const std::string relative =
        c.version == CgroupVersion::kV1
            ? FakeCgroups::v1(file.substr(0, slash), kPodDir, file.substr(slash + 1))
            : FakeCgroups::v2(kPodDir, file);
    root.write(relative, c.content);
    const auto reader = newCgroupReader(cgroups.paths(), c.version);
    const Status status = c.method == 0   ? reader->cpuUsageNanos(kPodDir).status()
                          : c.method == 1 ? reader->memoryWorkingSetBytes(kPodDir).status()
                                          : reader->cpuThrottling(kPodDir).status();
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(),
              "failed to parse '" + (root.path() / relative).string() + "': " + c.message);
  }
}

TEST(CgroupFileTest, FindKeyValue) {
  struct Case {
    const char* text;
    const char* key;
    bool found;
    uint64_t value;
  };
  const std::vector<Case> cases = {
      {"a 1\nb 2\n", "b", true, 2},
      {"total_inactive_file 7\ninactive_file 3\n", "inactive_file", true, 3},
      {"inactive_file_extra 9\ninactive_file 3", "inactive_file", true, 3},
      {"MemTotal:       24683656 kB\nMemFree: 1 kB\n", "MemTotal", true, 24683656},
      {"MemAvailable:\t5 kB\n", "MemAvailable", true, 5},
      {"HugePages_Total:       0\n", "HugePages_Total", true, 0},
      {"key\n", "key", false, 0},
      {"key -1\n", "key", false, 0},
      {"key 1 2\n", "key", false, 0},
      {"", "key", false, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.text) + " / " + c.key);
    uint64_t value = 12345;
    EXPECT_EQ(findKeyValue(c.text, c.key, &value), c.found);
    EXPECT_EQ(value, c.found ? c.value : 12345);
  }
}

}  // namespace
}  // namespace koord::agent::metricsadvisor
