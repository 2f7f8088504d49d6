#include "agent/metricsadvisor/node_collector.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test/unit/agent/metricsadvisor/fake_cgroups.hpp"

namespace koord::agent::metricsadvisor {
namespace {

using metriccache::MetricCache;
using metriccache::MetricKind;
using testing::at;
using testing::FakeRoot;
using ::testing::HasSubstr;

std::string readCapture(const std::string& host, const std::string& file) {
  std::ifstream in(system::testing::captureDir(host) / file);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// /proc/stat with the given aggregate counters and `cpus` per-CPU lines (their values do not
// matter to the collector), followed by the usual other lines.
std::string procStat(const std::vector<uint64_t>& counters, int cpus) {
  std::string out = "cpu ";
  for (const uint64_t c : counters) {
    out += " " + std::to_string(c);
  }
  out += "\n";
  for (int i = 0; i < cpus; ++i) {
    out += "cpu" + std::to_string(i) + " 1 0 1 10 0 0 0 0 0 0\n";
  }
  return out +
         "intr 202508 0 0\nctxt 407082\nbtime 1795651280\nprocesses 8455\n"
         "procs_running 2\nprocs_blocked 0\nsoftirq 87349 0 11422\n";
}

TEST(ParseProcStatTest, CapturesGolden) {
  struct Case {
    const char* host;
    ProcCpuTicks want;
  };
  // epyc: cpu 5729 0 3733 40385 516 0 85 304 0 0 -> busy 5729+3733+85+304, idle+iowait 40901
  // h200: cpu 52 0 457 45253 102 0 14 0 0 0      -> busy 52+457+14, idle+iowait 45355
  for (const Case& c : {Case{"epyc-2cpu-cgroup1", {9851, 9851 + 40901, 2}},
                        Case{"h200-gpu-cgroup2", {523, 523 + 45355, 16}}}) {
    SCOPED_TRACE(c.host);
    const Result<ProcCpuTicks> ticks = parseProcStat(readCapture(c.host, "proc/stat"), "stat");
    ASSERT_TRUE(ticks.ok()) << ticks.status();
    EXPECT_EQ(*ticks, c.want);
  }
}

TEST(ParseProcStatTest, Malformed) {
  struct Case {
    const char* name;
    std::string text;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"empty", "", "expected a first line 'cpu"},
      {"too few counters", "cpu  1 2 3 4 5 6\ncpu0 1 2 3 4 5 6\n", "expected a first line 'cpu"},
      {"per-cpu line first", "cpu0 1 2 3 4 5 6 7 8\n", "expected a first line 'cpu"},
      {"bad counter", "cpu  1 2 x 4 5 6 7 8\ncpu0 1 2 3 4 5 6 7 8\n",
       "expected a tick count, got 'x'"},
      {"no cpuN line", "cpu  1 2 3 4 5 6 7 8\nintr 5\n", "no 'cpuN' line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Result<ProcCpuTicks> ticks = parseProcStat(c.text, "/proc/stat");
    EXPECT_EQ(ticks.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(ticks.status().message(), HasSubstr("failed to parse '/proc/stat': "));
    EXPECT_THAT(ticks.status().message(), HasSubstr(c.message));
  }
  // A kernel without the steal column (7 counters) still parses; steal counts as 0.
  const Result<ProcCpuTicks> old = parseProcStat("cpu  10 1 5 100 3 2 1\ncpu0 0\n", "stat");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(*old, (ProcCpuTicks{.busy = 19, .total = 122, .cpus = 1}));
}

TEST(ParseMeminfoTest, CapturesGolden) {
  struct Case {
    const char* host;
    uint64_t want;
  };
  // MemTotal - MemAvailable: 24683656 - 24380456 kB and 131981020 - 131499236 kB.
  for (const Case& c : {Case{"epyc-2cpu-cgroup1", uint64_t{303200} * 1024},
                        Case{"h200-gpu-cgroup2", uint64_t{481784} * 1024}}) {
    SCOPED_TRACE(c.host);
    const Result<uint64_t> used =
        parseMeminfoUsedBytes(readCapture(c.host, "proc/meminfo"), "meminfo");
    ASSERT_TRUE(used.ok()) << used.status();
    EXPECT_EQ(*used, c.want);
  }
  const Result<uint64_t> missing = parseMeminfoUsedBytes("MemTotal: 5 kB\nMemFree: 1 kB\n", "m");
  EXPECT_EQ(missing.status().message(),
            "failed to parse 'm': expected a line 'MemAvailable <unsigned integer>'");
}

TEST(NodeCollectorTest, GoldenMemoryFromBothCaptures) {
  struct Case {
    const char* host;
    double want;
  };
  for (const Case& c :
       {Case{"epyc-2cpu-cgroup1", 303200.0 * 1024}, Case{"h200-gpu-cgroup2", 481784.0 * 1024}}) {
    SCOPED_TRACE(c.host);
    FakeRoot root;
    root.write("proc/meminfo", readCapture(c.host, "proc/meminfo"));
    root.write("proc/stat", readCapture(c.host, "proc/stat"));
    MetricCache cache;
    NodeCollector collector(system::SysPaths::under(root.path()), cache);
    CollectStats stats;
    const NodeUsage usage = collector.collect(at(0), stats);
    EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
    EXPECT_EQ(usage.memory_bytes, c.want);
    EXPECT_FALSE(usage.cpu_cores.has_value());  // the first cycle only primes the cpu counters
    const auto memory = cache.latest(MetricKind::kNodeMemory, "");
    ASSERT_TRUE(memory.has_value());
    EXPECT_EQ(memory->value, c.want);
    EXPECT_EQ(memory->time, at(0));
    EXPECT_FALSE(cache.latest(MetricKind::kNodeCpu, "").has_value());
    EXPECT_EQ(stats.samples, 1U);
  }
}

TEST(NodeCollectorTest, CpuFromTwoSnapshots) {
  // Counters: user nice system idle iowait irq softirq steal guest guest_nice.
  struct Case {
    const char* name;
    std::vector<uint64_t> first;
    std::vector<uint64_t> second;
    int cpus;
    std::optional<double> want;
  };
  const std::vector<Case> cases = {
      // The epyc capture, then 150 user + 50 system + 180 idle + 20 iowait ticks later:
      // 200 busy of 400 on 2 CPUs = 1 core.
      {"epyc capture + half busy",
       {5729, 0, 3733, 40385, 516, 0, 85, 304, 0, 0},
       {5879, 0, 3783, 40565, 536, 0, 85, 304, 0, 0},
       2,
       1.0},
      // 16 CPUs, every busy column moves: (10+2+20+3+4+1) = 40 busy of 40 + 120 idle + 0 iowait.
      {"all busy columns count",
       {52, 0, 457, 45253, 102, 0, 14, 0, 0, 0},
       {62, 2, 477, 45373, 102, 3, 18, 1, 0, 0},
       16,
       40.0 / 160.0 * 16},
      // guest time is already in user; only user moves, by 100 of 100.
      {"guest not counted twice",
       {100, 0, 0, 1000, 0, 0, 0, 0, 0, 0},
       {200, 0, 0, 1000, 0, 0, 0, 0, 100, 0},
       4,
       4.0},
      {"idle node",
       {100, 0, 100, 1000, 0, 0, 0, 0, 0, 0},
       {100, 0, 100, 1800, 0, 0, 0, 0, 0, 0},
       8,
       0.0},
      {"no tick elapsed",
       {100, 0, 100, 1000, 0, 0, 0, 0, 0, 0},
       {100, 0, 100, 1000, 0, 0, 0, 0, 0, 0},
       2,
       std::nullopt},
      {"counters went backwards",
       {100, 0, 100, 1000, 0, 0, 0, 0, 0, 0},
       {50, 0, 100, 2000, 0, 0, 0, 0, 0, 0},
       2,
       std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    root.write("proc/meminfo", "MemTotal: 1000 kB\nMemAvailable: 400 kB\n");
    root.write("proc/stat", procStat(c.first, c.cpus));
    MetricCache cache;
    NodeCollector collector(system::SysPaths::under(root.path()), cache);
    CollectStats stats;
    EXPECT_FALSE(collector.collect(at(0), stats).cpu_cores.has_value());
    root.write("proc/stat", procStat(c.second, c.cpus));
    const NodeUsage usage = collector.collect(at(10), stats);
    EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
    EXPECT_EQ(usage.memory_bytes, 600.0 * 1024);
    if (!c.want.has_value()) {
      EXPECT_FALSE(usage.cpu_cores.has_value());
      EXPECT_FALSE(cache.latest(MetricKind::kNodeCpu, "").has_value());
      continue;
    }
    ASSERT_TRUE(usage.cpu_cores.has_value());
    EXPECT_DOUBLE_EQ(*usage.cpu_cores, *c.want);
    const auto cpu = cache.latest(MetricKind::kNodeCpu, "");
    ASSERT_TRUE(cpu.has_value());
    EXPECT_DOUBLE_EQ(cpu->value, *c.want);
    EXPECT_EQ(cpu->time, at(10));
  }
}

TEST(NodeCollectorTest, ResumesAfterCountersWentBackwards) {
  FakeRoot root;
  root.write("proc/meminfo", "MemTotal: 1000 kB\nMemAvailable: 400 kB\n");
  MetricCache cache;
  NodeCollector collector(system::SysPaths::under(root.path()), cache);
  CollectStats stats;
  const std::vector<std::vector<uint64_t>> snapshots = {
      {500, 0, 0, 500, 0, 0, 0, 0}, {100, 0, 0, 100, 0, 0, 0, 0}, {150, 0, 0, 150, 0, 0, 0, 0}};
  std::vector<std::optional<double>> cores;
  for (size_t i = 0; i < snapshots.size(); ++i) {
    root.write("proc/stat", procStat(snapshots[i], 2));
    cores.push_back(collector.collect(at(static_cast<double>(i)), stats).cpu_cores);
  }
  EXPECT_EQ(cores, (std::vector<std::optional<double>>{std::nullopt, std::nullopt, 1.0}));
}

TEST(NodeCollectorTest, ErrorsAreCountedPerKind) {
  struct Case {
    const char* name;
    const char* stat;     // nullptr: no file
    const char* meminfo;  // nullptr: no file
    uint64_t cpu_errors;
    uint64_t memory_errors;
    const char* last_error;
  };
  const std::string stat = procStat({1, 0, 1, 10, 0, 0, 0, 0}, 1);
  const std::vector<Case> cases = {
      {"no /proc/stat", nullptr, "MemTotal: 2 kB\nMemAvailable: 1 kB\n", 1, 0,
       "No such file or directory"},
      {"no /proc/meminfo", stat.c_str(), nullptr, 0, 1, "meminfo': No such file or directory"},
      {"bad meminfo", stat.c_str(), "MemTotal: 2 kB\n", 0, 1,
       "expected a line 'MemAvailable <unsigned integer>'"},
      {"bad stat", "garbage\n", "MemTotal: 2 kB\nMemAvailable: 1 kB\n", 1, 0,
       "expected a first line 'cpu"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    if (c.stat != nullptr) {
      root.write("proc/stat", c.stat);
    }
    if (c.meminfo != nullptr) {
      root.write("proc/meminfo", c.meminfo);
    }
    MetricCache cache;
    NodeCollector collector(system::SysPaths::under(root.path()), cache);
    CollectStats stats;
    const NodeUsage usage = collector.collect(at(0), stats);
    EXPECT_EQ(stats.errorsOf(MetricKind::kNodeCpu), c.cpu_errors);
    EXPECT_EQ(stats.errorsOf(MetricKind::kNodeMemory), c.memory_errors);
    EXPECT_THAT(stats.last_error.message(), HasSubstr(c.last_error));
    // What could be read is still recorded.
    EXPECT_EQ(usage.memory_bytes.has_value(), c.memory_errors == 0);
    EXPECT_EQ(cache.latest(MetricKind::kNodeMemory, "").has_value(), c.memory_errors == 0);
  }
}

}  // namespace
}  // namespace koord::agent::metricsadvisor
