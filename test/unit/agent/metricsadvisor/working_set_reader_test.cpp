#include "agent/metricsadvisor/working_set_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "test/unit/agent/metricsadvisor/fake_cgroups.hpp"

namespace koord::agent::metricsadvisor {
namespace {

using testing::CgroupVersion;
using testing::FakeCgroups;
using testing::FakeRoot;
using testing::kGiB;
using testing::kLayouts;
using testing::kMiB;
using testing::Layout;

constexpr const char* kWorkingSetPodDir =
    "kubepods/burstable/pod0c1d2e3f-1111-4222-8333-444455556666";

// What the i-th read (from 1) writes: the usage grows by 1 MiB a read, the inactive file cache
// by 10 MiB, so every read can tell which memory.stat its figure came from.
uint64_t usageAt(uint64_t i) {
  return kGiB + i * kMiB;
}
uint64_t inactiveAt(uint64_t i) {
  return i * 10 * kMiB;
}

// A v1 memory hierarchy in a FakeRoot and a WorkingSetReader over it.
class V1Memory {
 public:
  explicit V1Memory(uint32_t period, size_t max_entries = WorkingSetReader::kDefaultMaxEntries)
      : reader_(files_, "memory.usage_in_bytes", "total_inactive_file", period, max_entries) {}

  void set(const std::string& dir, uint64_t usage, uint64_t inactive_file) const {
    root_.write(FakeCgroups::v1("memory", dir, "memory.usage_in_bytes"),
                std::to_string(usage) + "\n");
    root_.write(FakeCgroups::v1("memory", dir, "memory.stat"),
                testing::v1MemoryStat(inactive_file));
  }
  void remove(const std::string& dir) const { root_.remove(FakeCgroups::v1("memory", dir, "")); }
  Result<uint64_t> read(const std::string& dir) { return reader_.read(hierarchy(), dir); }
  [[nodiscard]] std::string hierarchy() const {
    return (root_.path() / "sys/fs/cgroup/memory").string();
  }
  WorkingSetReader& reader() { return reader_; }
  [[nodiscard]] size_t openFiles() const { return files_.openFiles(); }

 private:
  FakeRoot root_;
  CgroupFileCache files_;
  WorkingSetReader reader_;
};

TEST(WorkingSetReaderTest, RefreshesInactiveFileEveryNthRead) {
  // One cgroup per reader: the first cgroup a reader meets has no shortened first interval.
  struct Case {
    const char* name;
    std::optional<uint32_t> period;  // nullopt: newCgroupReader's default (what the daemon gets)
    uint64_t every;                  // memory.stat is read at reads 1, 1 + every, 1 + 2 * every...
  };
  const std::vector<Case> cases = {
      {"default", std::nullopt, 5},   {"N=5", 5, 5},        {"N=2", 2, 2},
      {"N=1 reads every time", 1, 1}, {"N=0 is N=1", 0, 1},
  };
  for (const Layout& layout : kLayouts) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(layout.name) + ": " + c.name);
      FakeRoot root;
      FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
      const auto reader = c.period.has_value()
                              ? newCgroupReader(cgroups.paths(), layout.version,
                                                CgroupFileCache::kDefaultMaxOpenFiles, *c.period)
                              : newCgroupReader(cgroups.paths(), layout.version);
      for (uint64_t i = 1; i <= 2 * c.every + 2; ++i) {
        SCOPED_TRACE("read " + std::to_string(i));
        cgroups.setMemory(kWorkingSetPodDir, usageAt(i), inactiveAt(i));
        const uint64_t refreshed_at = 1 + (i - 1) / c.every * c.every;
        const Result<uint64_t> working_set = reader->memoryWorkingSetBytes(kWorkingSetPodDir);
        ASSERT_TRUE(working_set.ok()) << working_set.status();
        EXPECT_EQ(*working_set, usageAt(i) - inactiveAt(refreshed_at));
      }
    }
  }
}

TEST(WorkingSetReaderTest, RefreshesSpreadEvenlyOverCycles) {
  // 10 cgroups first read in the same cycle: from the next cycle on, 10 / N of them re-read
  // memory.stat in each cycle (not all 10 every N-th cycle), each exactly every N cycles.
  constexpr int kCgroups = 10;
  constexpr int kCycles = 16;
  for (const uint32_t period : {2U, 5U}) {
    SCOPED_TRACE(period);
    V1Memory memory(period);
    std::vector<std::vector<int>> refreshed(kCgroups);  // the cycles each cgroup re-read in
    for (int cycle = 0; cycle < kCycles; ++cycle) {
      SCOPED_TRACE("cycle " + std::to_string(cycle));
      int fresh = 0;
      for (int d = 0; d < kCgroups; ++d) {
        const std::string dir = "pod" + std::to_string(d);
        memory.set(dir, kGiB, static_cast<uint64_t>(cycle + 1) * kMiB);
        const Result<uint64_t> working_set = memory.read(dir);
        ASSERT_TRUE(working_set.ok()) << working_set.status();
        const auto read_in = static_cast<int>((kGiB - *working_set) / kMiB) - 1;
        EXPECT_LE(cycle - read_in, static_cast<int>(period) - 1);  // at most N - 1 reads old
        if (read_in == cycle) {
          ++fresh;
          refreshed[static_cast<size_t>(d)].push_back(cycle);
        }
      }
      EXPECT_EQ(fresh, cycle == 0 ? kCgroups : kCgroups / static_cast<int>(period));
    }
    for (const std::vector<int>& cycles : refreshed) {
      ASSERT_GE(cycles.size(), 3U);
      EXPECT_LE(cycles[1] - cycles[0], static_cast<int>(period));
      for (size_t i = 2; i < cycles.size(); ++i) {
        EXPECT_EQ(cycles[i] - cycles[i - 1], static_cast<int>(period));
      }
    }
  }
}

TEST(WorkingSetReaderTest, KeepsMemoryStatOpenBetweenRefreshes) {
  // 100 cgroups read once per cycle: memory.stat is read every 5th cycle, and its descriptor must
  // outlive the file cache's sweeps in between (reopening it would cost more than reading it).
  constexpr int kCgroups = 100;
  for (const uint32_t period : {2U, 5U, 10U}) {
    SCOPED_TRACE(period);
    V1Memory memory(period);
    for (int d = 0; d < kCgroups; ++d) {
      memory.set("pod" + std::to_string(d), kGiB, kMiB);
    }
    for (uint32_t cycle = 0; cycle < 4 * period; ++cycle) {
      for (int d = 0; d < kCgroups; ++d) {
        ASSERT_TRUE(memory.read("pod" + std::to_string(d)).ok());
      }
      EXPECT_EQ(memory.openFiles(), 2U * kCgroups);  // memory.usage_in_bytes and memory.stat
    }
  }
}

TEST(WorkingSetReaderTest, RemovedCgroupIsForgotten) {
  // The pod ends and a pod of the same path starts again: the first read after it is back must
  // read its memory.stat rather than reuse the old pod's figure.
  for (const Layout& layout : kLayouts) {
    SCOPED_TRACE(layout.name);
    FakeRoot root;
    FakeCgroups cgroups(root, layout.version, layout.cpuacct_mount);
    const auto reader = newCgroupReader(cgroups.paths(), layout.version);
    cgroups.setMemory(kWorkingSetPodDir, kGiB, 100 * kMiB);
    ASSERT_EQ(*reader->memoryWorkingSetBytes(kWorkingSetPodDir), kGiB - 100 * kMiB);
    cgroups.remove(kWorkingSetPodDir);
    EXPECT_EQ(reader->memoryWorkingSetBytes(kWorkingSetPodDir).status().code(),
              StatusCode::kNotFound);
    cgroups.setMemory(kWorkingSetPodDir, kGiB, 300 * kMiB);
    const Result<uint64_t> working_set = reader->memoryWorkingSetBytes(kWorkingSetPodDir);
    ASSERT_TRUE(working_set.ok()) << working_set.status();
    EXPECT_EQ(*working_set, kGiB - 300 * kMiB);
  }
}

TEST(WorkingSetReaderTest, MissingFilesDropTheKeptFigure) {
  struct Case {
    const char* name;
    const char* removed;  // under the cgroup's folder; "" = the folder itself
    int reads_before;     // reads before the removal (the next read is then due or not)
  };
  const std::vector<Case> cases = {
      {"cgroup removed", "", 1},
      {"usage file gone", "memory.usage_in_bytes", 2},
      {"memory.stat gone at a due read", "memory.stat", 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    V1Memory memory(/*period=*/3);
    memory.set("kept", kGiB, kMiB);
    memory.set("ended", kGiB, kMiB);
    for (int i = 0; i < c.reads_before; ++i) {  // "ended" is met first: refreshed at 1, 4, ...
      ASSERT_TRUE(memory.read("ended").ok());
    }
    ASSERT_TRUE(memory.read("kept").ok());
    EXPECT_EQ(memory.reader().keptFigures(), 2U);
    const std::string removed = std::string(c.removed).empty() ? "" : std::string("/") + c.removed;
    std::filesystem::remove_all(memory.hierarchy() + "/ended" + removed);
    const Status status = memory.read("ended").status();
    EXPECT_EQ(status.code(), StatusCode::kNotFound);
    EXPECT_THAT(status.message(), ::testing::HasSubstr("No such file or directory"));
    EXPECT_EQ(memory.reader().keptFigures(), 1U);
  }
}

TEST(WorkingSetReaderTest, KeptFiguresStayBoundedWhileCgroupsComeAndGo) {
  // 50 cgroups read once per cycle; each cycle 5 end and 5 new ones start, 550 in all. Ended
  // cgroups are either still read once and found missing (a pod listed after its cgroup went
  // away) or simply no longer read (dropped by the sweeps).
  constexpr int kLive = 50;
  constexpr int kChurn = 5;
  constexpr int kCycles = 100;
  for (const bool read_after_removal : {true, false}) {
    SCOPED_TRACE(read_after_removal ? "read once more when gone" : "no longer read");
    V1Memory memory(/*period=*/5);
    int next = 0;
    std::vector<std::string> live;
    for (; next < kLive; ++next) {
      live.push_back("pod" + std::to_string(next));
      memory.set(live.back(), kGiB, kMiB);
    }
    size_t most = 0;
    for (int cycle = 0; cycle < kCycles; ++cycle) {
      for (int i = 0; i < kChurn; ++i) {
        const std::string ended = live.front();
        live.erase(live.begin());
        memory.remove(ended);
        if (read_after_removal) {
          ASSERT_EQ(memory.read(ended).status().code(), StatusCode::kNotFound);
        }
        live.push_back("pod" + std::to_string(next++));
        memory.set(live.back(), kGiB, kMiB);
      }
      for (const std::string& dir : live) {
        const Result<uint64_t> working_set = memory.read(dir);
        ASSERT_TRUE(working_set.ok()) << working_set.status();
        EXPECT_EQ(*working_set, kGiB - kMiB);
      }
      most = std::max(most, memory.reader().keptFigures());
    }
    EXPECT_EQ(next, kLive + kCycles * kChurn);
    if (read_after_removal) {
      EXPECT_EQ(most, static_cast<size_t>(kLive));
    } else {
      EXPECT_LE(most, static_cast<size_t>(3 * kLive));
    }
    EXPECT_GE(memory.reader().keptFigures(), static_cast<size_t>(kLive));
  }
}

TEST(WorkingSetReaderTest, CgroupsBeyondMaxEntriesReadMemoryStatEveryTime) {
  V1Memory memory(/*period=*/5, /*max_entries=*/2);
  const std::vector<std::string> dirs = {"a", "b", "c"};
  for (const std::string& dir : dirs) {
    memory.set(dir, kGiB, kMiB);
    ASSERT_TRUE(memory.read(dir).ok());
  }
  EXPECT_EQ(memory.reader().keptFigures(), 2U);
  for (const std::string& dir : dirs) {
    memory.set(dir, kGiB, 2 * kMiB);
  }
  struct Case {
    const char* dir;
    uint64_t want;
  };
  for (const Case& c :
       {Case{"a", kGiB - kMiB}, Case{"b", kGiB - kMiB}, Case{"c", kGiB - 2 * kMiB}}) {
    SCOPED_TRACE(c.dir);
    const Result<uint64_t> working_set = memory.read(c.dir);
    ASSERT_TRUE(working_set.ok()) << working_set.status();
    EXPECT_EQ(*working_set, c.want);
  }
}

TEST(WorkingSetReaderTest, ConcurrentReadersSeeConsistentFigures) {
  constexpr int kThreads = 4;
  constexpr int kDirs = 20;
  V1Memory memory(/*period=*/3);
  for (int d = 0; d < kDirs; ++d) {
    memory.set("pod" + std::to_string(d), kGiB + d * kMiB, d * kMiB);
  }
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&memory, &wrong, t] {
      for (int i = 0; i < 500; ++i) {
        const Result<uint64_t> working_set = memory.read("pod" + std::to_string((i + t) % kDirs));
        if (!working_set.ok() || *working_set != kGiB) {
          ++wrong[static_cast<size_t>(t)];
        }
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(wrong, std::vector<int>(kThreads, 0));
  EXPECT_EQ(memory.reader().keptFigures(), static_cast<size_t>(kDirs));
}

}  // namespace
}  // namespace koord::agent::metricsadvisor
