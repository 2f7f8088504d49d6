#include "agent/metricsadvisor/cgroup_file_cache.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::metricsadvisor {
namespace {

using system::testing::FakeRoot;

// Descriptors open in this process now.
size_t openDescriptors() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++n;
  }
  return n;
}

TEST(CgroupFileCacheTest, ReadsCurrentContentThroughKeptDescriptors) {
  FakeRoot root;
  const std::string usage = (root.path() / "cpuacct.usage").string();
  const std::string stat = (root.path() / "cpu.stat").string();
  CgroupFileCache cache;
  struct Step {
    const char* name;
    bool replace;  // unlink and create a new file instead of rewriting in place
    uint64_t value;
  };
  const std::vector<Step> steps = {
      {"first read opens", false, 100},
      {"rewritten in place", false, 250},
      {"replaced by a new file", true, 7},
      {"rewritten again", false, 12345678901234},
  };
  for (const Step& step : steps) {
    SCOPED_TRACE(step.name);
    if (step.replace) {
      root.remove("cpuacct.usage");
      root.remove("cpu.stat");
    }
    root.write("cpuacct.usage", std::to_string(step.value) + "\n");
    root.write("cpu.stat", "nr_periods " + std::to_string(step.value) + "\nnr_throttled 1\n");
    const Result<uint64_t> value = cache.readUint64(usage);
    ASSERT_TRUE(value.ok()) << value.status();
    EXPECT_EQ(*value, step.value);
    uint64_t periods = 0;
    uint64_t throttled = 0;
    ASSERT_TRUE(
        cache.readKeys(stat, {{"nr_periods", &periods}, {"nr_throttled", &throttled}}).isOk());
    EXPECT_EQ(periods, step.value);
    EXPECT_EQ(throttled, 1U);
    EXPECT_EQ(cache.openFiles(), 2U);
  }
}

TEST(CgroupFileCacheTest, RemovedFileIsNotFound) {
  FakeRoot root;
  root.write("pod/memory.current", "4096\n");
  const std::string path = (root.path() / "pod/memory.current").string();
  CgroupFileCache cache;
  ASSERT_TRUE(cache.readUint64(path).ok());
  root.remove("pod");
  const Status status = cache.readUint64(path).status();
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "failed to read '" + path + "': No such file or directory");
  EXPECT_EQ(cache.openFiles(), 0U);
}

TEST(CgroupFileCacheTest, KeepsAtMostMaxOpenFiles) {
  struct Case {
    size_t max_open;
    size_t want_open;
  };
  for (const Case& c : {Case{0, 0}, Case{2, 2}, Case{100, 5}}) {
    SCOPED_TRACE(c.max_open);
    FakeRoot root;
    const size_t before = openDescriptors();
    {
      CgroupFileCache cache(c.max_open);
      for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 5; ++i) {
          const std::string name = "f" + std::to_string(i);
          root.write(name, std::to_string(i * 10 + round) + "\n");
          const Result<uint64_t> value = cache.readUint64((root.path() / name).string());
          ASSERT_TRUE(value.ok()) << value.status();
          EXPECT_EQ(*value, static_cast<uint64_t>(i * 10 + round));
        }
      }
      EXPECT_EQ(cache.openFiles(), c.want_open);
      EXPECT_EQ(openDescriptors(), before + c.want_open);
    }
    EXPECT_EQ(openDescriptors(), before);  // all closed with the cache
  }
}

TEST(CgroupFileCacheTest, ClosesFilesNoLongerRead) {
  FakeRoot root;
  root.write("kept", "1\n");
  root.write("ended", "2\n");
  CgroupFileCache cache;
  ASSERT_TRUE(cache.readUint64((root.path() / "ended").string()).ok());
  ASSERT_TRUE(cache.readUint64((root.path() / "kept").string()).ok());
  EXPECT_EQ(cache.openFiles(), 2U);
  // Sweeps run every 2 * open files + 64 reads; "ended" is unused for two sweep periods.
  for (int i = 0; i < 2 * (2 * 2 + 64); ++i) {
    ASSERT_TRUE(cache.readUint64((root.path() / "kept").string()).ok());
  }
  EXPECT_EQ(cache.openFiles(), 1U);
  // Read again: reopened.
  const Result<uint64_t> value = cache.readUint64((root.path() / "ended").string());
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(*value, 2U);
  EXPECT_EQ(cache.openFiles(), 2U);
}

TEST(CgroupFileCacheTest, KeepOpenKeepsFilesReadOnlyNowAndThen) {
  FakeRoot root;
  root.write("cpuacct.usage", "1\n");
  root.write("memory.stat", "total_inactive_file 5\n");
  const std::string usage = (root.path() / "cpuacct.usage").string();
  const std::string stat = (root.path() / "memory.stat").string();
  CgroupFileCache cache;
  uint64_t inactive = 0;
  ASSERT_TRUE(cache.readKeys(stat, {{"total_inactive_file", &inactive}}).isOk());
  const size_t before = openDescriptors();
  // Well past two sweeps: memory.stat is not read, only kept open.
  for (int i = 0; i < 4 * (2 * 2 + 64); ++i) {
    ASSERT_TRUE(cache.readUint64(usage).ok());
    cache.keepOpen(stat);
    cache.keepOpen((root.path() / "never-read").string());  // not kept: nothing to do
  }
  EXPECT_EQ(cache.openFiles(), 2U);
  EXPECT_EQ(openDescriptors(), before + 1);  // cpuacct.usage opened; memory.stat not reopened
  root.write("memory.stat", "total_inactive_file 9\n");
  ASSERT_TRUE(cache.readKeys(stat, {{"total_inactive_file", &inactive}}).isOk());
  EXPECT_EQ(inactive, 9U);
  EXPECT_EQ(openDescriptors(), before + 1);
}

TEST(CgroupFileCacheTest, Errors) {
  FakeRoot root;
  root.write("dir/file", "x\n");
  root.write("stat", "a 1\n");
  CgroupFileCache cache;
  const std::string dir = (root.path() / "dir").string();
  const Status is_dir = cache.readUint64(dir).status();
  EXPECT_EQ(is_dir.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(is_dir.message(), "failed to parse '" + dir + "': is a directory, expected a file");
  const std::string file = (root.path() / "dir/file").string();
  EXPECT_EQ(cache.readUint64(file).status().message(),
            "failed to parse '" + file + "': expected an unsigned integer, got 'x'");
  uint64_t a = 0;
  uint64_t b = 99;
  const std::string stat = (root.path() / "stat").string();
  const Status missing = cache.readKeys(stat, {{"a", &a}, {"b", &b}});
  EXPECT_EQ(missing.message(),
            "failed to parse '" + stat + "': expected a line 'b <unsigned integer>'");
  EXPECT_EQ(a, 1U);
  EXPECT_EQ(b, 99U);
  EXPECT_EQ(cache.readUint64((root.path() / "none").string()).status().code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace koord::agent::metricsadvisor
