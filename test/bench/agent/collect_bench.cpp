// What one metric collection cycle of koord-agent costs, and how much memory the metric cache
// holds once every series is full (targets: <= 5 ms of process CPU time per cycle, <= 32 MiB
// resident for the whole process).
//
// A synthetic node in a temporary folder: /proc/stat (16 CPUs), /proc/meminfo, and a cgroup v1
// tree (cpuacct + memory hierarchies) or a v2 tree with 200 burstable pods of 2 containers each,
// every file in the kernel's format (v1 memory.stat as kernel 6.x prints it, v2 memory.stat and
// cpu.stat as in the h200 capture). One cycle = the node collector (2 procfs files), 200 pods
// and 400 containers (v1: cpuacct.usage, memory.usage_in_bytes, memory.stat; v2: cpu.stat,
// memory.current, memory.stat), and 1,204 cache appends.
//   BM_CollectCycle/v1, /v2   process CPU time (CLOCK_PROCESS_CPUTIME_ID) of one cycle, as the
//                             reported time (manual timing); 20 counters are rewritten between
//                             cycles, outside the measured time
//   BM_FillCache/v1, /v2      4,000 cycles at 1 s steps on a fresh advisor and cache, so every
//                             series (node 3,600, pod/container 300 samples) is full; reports
//                             rss_mib (VmRSS of the process afterwards), cache_bytes
//                             (MetricCache::memoryBytes) and series
//   BM_CollectCycleRealCgroupV1/N:1, /N:5
//                             the same cycle over real cgroups: 200 pods x 2 containers made in
//                             the host's cpuacct and memory hierarchies under
//                             <cgroup root>/<hierarchy>/koord-bench-<pid>/kubepods/besteffort/
//                             and removed at the end (rmdir, bottom-up); the reader re-reads
//                             memory.stat every N-th cycle (newCgroupReader's
//                             inactive_file_period; the daemon uses 5); max_ms is the slowest
//                             cycle. Needs root and cgroup v1, else it reports the error
//                             "needs root and cgroup v1"
// Run with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians. The
// synthetic files live on an ordinary filesystem: BM_CollectCycle is the agent's own cost, not the
// kernel's cost of generating cgroupfs files (a real v1 memory.stat walks the cgroup's children),
// which BM_CollectCycleRealCgroupV1 includes (process CPU counts system time).
#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/metrics_advisor.hpp"

namespace koord::agent::metricsadvisor {
namespace {

namespace fs = std::filesystem;
using system::CgroupVersion;

constexpr int kPods = 200;
constexpr int kContainersPerPod = 2;
constexpr int kCpus = 16;
constexpr uint64_t kGiB = uint64_t{1} << 30;

void writeFile(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
}

std::string v1MemoryStat(uint64_t inactive_file) {
  const std::string inactive = std::to_string(inactive_file);
  return "cache 9936896\nrss 7790592\nrss_huge 0\nshmem 8998912\nmapped_file 7622656\n"
         "dirty 32768\nwriteback 0\nworkingset_refault_anon 0\nworkingset_refault_file 11605\n"
         "swap 0\nswapcached 0\npgpgin 318077\npgpgout 313749\npgfault 552178\npgmajfault 0\n"
         "inactive_anon 0\nactive_anon 1531904\ninactive_file " +
         inactive +
         "\nactive_file 913408\nunevictable 15257600\n"
         "hierarchical_memory_limit 9223372036854771712\n"
         "hierarchical_memsw_limit 9223372036854771712\ntotal_cache 3028455424\n"
         "total_rss 14270464\ntotal_rss_huge 0\ntotal_shmem 8998912\n"
         "total_mapped_file 11137024\ntotal_dirty 286720\ntotal_writeback 0\n"
         "total_workingset_refault_anon 0\ntotal_workingset_refault_file 7501942\n"
         "total_swap 0\ntotal_swapcached 0\ntotal_pgpgin 1246585024\n"
         "total_pgpgout 1246136809\ntotal_pgfault 1370359605\ntotal_pgmajfault 40449\n"
         "total_inactive_anon 6250496\ntotal_active_anon 1581056\ntotal_inactive_file " +
         inactive + "\ntotal_active_file 1425887232\ntotal_unevictable 15257600\n";
}

std::string v2MemoryStat(uint64_t inactive_file) {
  return "anon 2265088\nfile 982921216\nkernel 10919936\nkernel_stack 524288\n"
         "pagetables 3710976\nsec_pagetables 0\npercpu 483120\nsock 0\nvmalloc 0\n"
         "shmem 7544832\nzswap 0\nzswapped 0\nfile_mapped 9580544\nfile_dirty 1490944\n"
         "file_writeback 0\nswapcached 0\nanon_thp 0\nfile_thp 0\nshmem_thp 0\n"
         "inactive_anon 1138688\nactive_anon 40960\ninactive_file " +
         std::to_string(inactive_file) +
         "\nactive_file 47673344\nunevictable 8409088\nslab_reclaimable 4864864\n"
         "slab_unreclaimable 1167336\nslab 6032200\nworkingset_refault_anon 0\n"
         "workingset_refault_file 0\nworkingset_activate_anon 0\nworkingset_activate_file 0\n"
         "workingset_restore_anon 0\nworkingset_restore_file 0\nworkingset_nodereclaim 0\n"
         "pgdemote_kswapd 0\npgdemote_direct 0\npgdemote_khugepaged 0\npgdemote_proactive 0\n"
         "pgpromote_success 0\npgscan 0\npgsteal 0\npswpin 0\npswpout 0\npgscan_kswapd 0\n"
         "pgscan_direct 0\npgscan_khugepaged 0\npgscan_proactive 0\npgsteal_kswapd 0\n"
         "pgsteal_direct 0\npgsteal_khugepaged 0\npgsteal_proactive 0\npgfault 246021\n"
         "pgmajfault 403\npgrefill 0\npgactivate 8582\npgdeactivate 0\npglazyfree 0\n"
         "pglazyfreed 0\nswpin_zero 0\nswpout_zero 0\n";
}

std::string v2CpuStat(uint64_t usage_usec) {
  return "usage_usec " + std::to_string(usage_usec) + "\nuser_usec " +
         std::to_string(usage_usec / 4) + "\nsystem_usec " +
         std::to_string(usage_usec - usage_usec / 4) +
         "\nnice_usec 0\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\nnr_bursts 0\n"
         "burst_usec 0\n";
}

// kPods pods of kContainersPerPod containers, in <qos_dir>/pod<uid>/<container id>.
std::shared_ptr<const std::vector<PodCgroup>> makePods(const std::string& qos_dir) {
  auto pods = std::make_shared<std::vector<PodCgroup>>();
  for (int p = 0; p < kPods; ++p) {
    char uid[40];
    std::snprintf(uid, sizeof(uid), "6f1e2d3c-aaaa-4bbb-8ccc-%012d", p);
    PodCgroup pod{.uid = uid,
                  .pod_namespace = "default",
                  .name = "pod-" + std::to_string(p),
                  .cgroup_dir = qos_dir + "/pod" + uid,
                  .containers = {}};
    for (int c = 0; c < kContainersPerPod; ++c) {
      char id[72];
      std::snprintf(id, sizeof(id), "%032x%032x", p, c + 1);
      pod.containers.push_back(
          {.id = id, .name = "app" + std::to_string(c), .cgroup_dir = pod.cgroup_dir + "/" + id});
    }
    pods->push_back(std::move(pod));
  }
  return pods;
}

// The synthetic node: a temporary folder with procfs and one cgroup tree; removed at the end.
class SyntheticNode {
 public:
  explicit SyntheticNode(CgroupVersion version) : version_(version) {
    std::string tmpl = (fs::temp_directory_path() / "koord-collect-bench-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) != nullptr) {
      root_ = tmpl;
    }
    paths_ = system::SysPaths::under(root_);
    pods_ = makePods("kubepods/burstable");
    writeProc(0);
    for (const PodCgroup& pod : *pods_) {
      writeCgroup(pod.cgroup_dir, 0);
      for (const ContainerCgroup& c : pod.containers) {
        writeCgroup(c.cgroup_dir, 0);
      }
    }
  }
  ~SyntheticNode() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  SyntheticNode(const SyntheticNode&) = delete;
  SyntheticNode& operator=(const SyntheticNode&) = delete;

  [[nodiscard]] std::unique_ptr<MetricsAdvisor> advisor(
      std::shared_ptr<metriccache::MetricCache> cache) const {
    auto pods = pods_;
    return std::make_unique<MetricsAdvisor>(
        paths_, newCgroupReader(paths_, version_), [pods] { return pods; }, std::move(cache));
  }

  // What changes between two cycles: the node's counters, and with `pods` those of the first
  // 10 pods and one container of each.
  void advance(uint64_t cycle, bool pods = true) {
    writeProc(cycle);
    for (int p = 0; pods && p < 10; ++p) {
      const PodCgroup& pod = (*pods_)[static_cast<size_t>(p)];
      writeCpu(pod.cgroup_dir, cycle * 2000000000);
      writeCpu(pod.containers[0].cgroup_dir, cycle * 1000000000);
    }
  }

 private:
  void writeProc(uint64_t cycle) {
    std::string stat = "cpu  " + std::to_string(5729 + cycle * 800) + " 0 " +
                       std::to_string(3733 + cycle * 100) + " " +
                       std::to_string(40385 + cycle * 700) + " 516 0 85 304 0 0\n";
    for (int i = 0; i < kCpus; ++i) {
      stat += "cpu" + std::to_string(i) + " 2751 0 1899 20436 128 0 27 145 0 0\n";
    }
    stat +=
        "intr 202508 0 0 0 0\nctxt 407082\nbtime 1795651280\nprocesses 8455\n"
        "procs_running 2\nprocs_blocked 0\nsoftirq 87349 0 11422 3 839 7620 0 3\n";
    writeFile(paths_.proc_root / "stat", stat);
    writeFile(paths_.proc_root / "meminfo",
              "MemTotal:       131981020 kB\nMemFree:        100748452 kB\n"
              "MemAvailable:   101499236 kB\nBuffers:           12792 kB\n"
              "Cached:           946160 kB\nSwapCached:            0 kB\n");
  }
  void writeCpu(const std::string& dir, uint64_t nanos) {
    if (version_ == CgroupVersion::kV1) {
      writeFile(paths_.cgroup_root / "cpuacct" / dir / "cpuacct.usage",
                std::to_string(nanos) + "\n");
    } else {
      writeFile(paths_.cgroup_root / dir / "cpu.stat", v2CpuStat(nanos / 1000));
    }
  }
  void writeCgroup(const std::string& dir, uint64_t nanos) {
    writeCpu(dir, nanos);
    if (version_ == CgroupVersion::kV1) {
      writeFile(paths_.cgroup_root / "memory" / dir / "memory.usage_in_bytes",
                std::to_string(kGiB) + "\n");
      writeFile(paths_.cgroup_root / "memory" / dir / "memory.stat", v1MemoryStat(kGiB / 4));
    } else {
      writeFile(paths_.cgroup_root / dir / "memory.current", std::to_string(kGiB) + "\n");
      writeFile(paths_.cgroup_root / dir / "memory.stat", v2MemoryStat(kGiB / 4));
    }
  }

  CgroupVersion version_;
  fs::path root_;
  system::SysPaths paths_;
  std::shared_ptr<const std::vector<PodCgroup>> pods_;
};

double processCpuSeconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// VmRSS of this process in MiB, from /proc/self/status.
double residentMiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      return std::stod(line.substr(6)) / 1024.0;  // "VmRSS:   12345 kB"
    }
  }
  return -1;
}

metriccache::TimePoint simulatedTime(uint64_t cycle) {
  return metriccache::TimePoint(std::chrono::seconds(1700000000 + cycle));
}

CgroupVersion versionOf(const benchmark::State& state) {
  return state.range(0) == 1 ? CgroupVersion::kV1 : CgroupVersion::kV2;
}

// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark's naming.
void BM_CollectCycle(benchmark::State& state) {
  SyntheticNode node(versionOf(state));
  auto cache = std::make_shared<metriccache::MetricCache>();
  const auto advisor = node.advisor(cache);
  uint64_t cycle = 0;
  (void)advisor->collect(simulatedTime(cycle));  // prime the cpu counters
  uint64_t samples = 0;
  uint64_t errors = 0;
  for (auto _ : state) {
    (void)_;
    ++cycle;
    node.advance(cycle);
    const double start = processCpuSeconds();
    const CollectStats stats = advisor->collect(simulatedTime(cycle));
    state.SetIterationTime(processCpuSeconds() - start);
    samples = stats.samples;
    errors += stats.errorCount() + stats.missing_pods + stats.missing_containers;
  }
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["errors"] = static_cast<double>(errors);
}
BENCHMARK(BM_CollectCycle)
    ->ArgName("v")
    ->Arg(1)
    ->Arg(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The pods of makePods() as real cgroups in the host's cgroup v1 cpuacct and memory hierarchies,
// under <cgroup root>/<hierarchy>/koord-bench-<pid>/kubepods/besteffort. Every folder made is
// removed by the destructor (rmdir, deepest first), also when making the tree failed half-way.
class RealV1Tree {
 public:
  static constexpr const char* kNeeds = "needs root and cgroup v1";

  RealV1Tree() : prefix_("koord-bench-" + std::to_string(::getpid())) {}
  ~RealV1Tree() {
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
      if (::rmdir(it->c_str()) != 0) {
        std::fprintf(stderr, "failed to remove '%s': %s\n", it->c_str(), std::strerror(errno));
      }
    }
  }
  RealV1Tree(const RealV1Tree&) = delete;
  RealV1Tree& operator=(const RealV1Tree&) = delete;

  // True when this process may make cgroups in writable v1 cpuacct and memory hierarchies.
  [[nodiscard]] bool usable() const {
    if (::geteuid() != 0) {
      return false;
    }
    for (const char* hierarchy : kHierarchies) {
      const std::string dir = (paths_.cgroup_root / hierarchy).string();
      struct statfs fs {};
      if (::statfs(dir.c_str(), &fs) != 0 || static_cast<uint64_t>(fs.f_type) != kCgroupMagic ||
          ::access(dir.c_str(), W_OK) != 0) {
        return false;
      }
    }
    return true;
  }

  // Makes every folder; "" when done, else what failed.
  [[nodiscard]] std::string make() {
    for (const char* hierarchy : kHierarchies) {
      const fs::path base = paths_.cgroup_root / hierarchy;
      for (const std::string& dir : {prefix_, prefix_ + "/kubepods", prefix_ + kQosDir}) {
        if (std::string error = makeDir(base / dir); !error.empty()) {
          return error;
        }
      }
      for (const PodCgroup& pod : *pods_) {
        if (std::string error = makeDir(base / pod.cgroup_dir); !error.empty()) {
          return error;
        }
        for (const ContainerCgroup& c : pod.containers) {
          if (std::string error = makeDir(base / c.cgroup_dir); !error.empty()) {
            return error;
          }
        }
      }
    }
    return "";
  }

  [[nodiscard]] std::unique_ptr<MetricsAdvisor> advisor(
      std::shared_ptr<metriccache::MetricCache> cache, uint32_t inactive_file_period) const {
    auto pods = pods_;
    return std::make_unique<MetricsAdvisor>(
        paths_,
        newCgroupReader(paths_, CgroupVersion::kV1, CgroupFileCache::kDefaultMaxOpenFiles,
                        inactive_file_period),
        [pods] { return pods; }, std::move(cache));
  }

 private:
  static constexpr uint64_t kCgroupMagic = 0x27e0eb;  // linux/magic.h CGROUP_SUPER_MAGIC
  static constexpr std::array<const char*, 2> kHierarchies = {"cpuacct", "memory"};
  static constexpr const char* kQosDir = "/kubepods/besteffort";

  std::string makeDir(const fs::path& dir) {
    if (::mkdir(dir.c_str(), 0755) != 0) {
      return "failed to create '" + dir.string() + "': " + std::strerror(errno);
    }
    made_.push_back(dir.string());
    return "";
  }

  system::SysPaths paths_;  // the host's
  std::string prefix_;
  std::shared_ptr<const std::vector<PodCgroup>> pods_ = makePods(prefix_ + kQosDir);
  std::vector<std::string> made_;  // in the order made
};

// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark's naming.
void BM_CollectCycleRealCgroupV1(benchmark::State& state) {
  RealV1Tree tree;
  if (!tree.usable()) {
    state.SkipWithError(RealV1Tree::kNeeds);
    return;
  }
  if (const std::string error = tree.make(); !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  auto cache = std::make_shared<metriccache::MetricCache>();
  const auto advisor = tree.advisor(cache, static_cast<uint32_t>(state.range(0)));
  uint64_t cycle = 0;
  (void)advisor->collect(simulatedTime(cycle));  // prime the cpu counters
  uint64_t samples = 0;
  uint64_t errors = 0;
  double slowest = 0;
  for (auto _ : state) {
    (void)_;
    ++cycle;
    const double start = processCpuSeconds();
    const CollectStats stats = advisor->collect(simulatedTime(cycle));
    const double seconds = processCpuSeconds() - start;
    state.SetIterationTime(seconds);
    slowest = std::max(slowest, seconds);
    samples = stats.samples;
    errors += stats.errorCount() + stats.missing_pods + stats.missing_containers;
  }
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["errors"] = static_cast<double>(errors);
  state.counters["max_ms"] = slowest * 1e3;  // the slowest cycle: memory.stat reads must not bunch
}
BENCHMARK(BM_CollectCycleRealCgroupV1)
    ->ArgName("N")
    ->Arg(1)
    ->Arg(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark's naming.
void BM_FillCache(benchmark::State& state) {
  // 4,000 one-second cycles fill every series (node 3,600 samples, pods 300); the smoke test sets
  // KOORD_BENCH_FILL_CYCLES lower so that it stays quick.
  const char* env = std::getenv("KOORD_BENCH_FILL_CYCLES");
  const uint64_t kCycles = env != nullptr ? std::strtoull(env, nullptr, 10) : 4000;
  SyntheticNode node(versionOf(state));
  for (auto _ : state) {
    (void)_;
    auto cache = std::make_shared<metriccache::MetricCache>();
    const auto advisor = node.advisor(cache);
    for (uint64_t cycle = 0; cycle < kCycles; ++cycle) {
      node.advance(cycle, /*pods=*/cycle % 10 == 0);
      (void)advisor->collect(simulatedTime(cycle));
    }
    state.counters["rss_mib"] = residentMiB();
    state.counters["cache_mib"] = static_cast<double>(cache->memoryBytes()) / (1024.0 * 1024.0);
    state.counters["series"] = static_cast<double>(cache->seriesCount());
  }
}
BENCHMARK(BM_FillCache)->ArgName("v")->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
}  // namespace koord::agent::metricsadvisor

BENCHMARK_MAIN();
