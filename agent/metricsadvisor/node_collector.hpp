// NodeCollector: the node's CPU and memory usage from procfs, appended to the cache as NodeCpu
// (cores) and NodeMemory (bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/collect_stats.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::metricsadvisor {

// The aggregate "cpu" line of /proc/stat, in clock ticks summed over all CPUs.
struct ProcCpuTicks {
  uint64_t busy = 0;   // user + nice + system + irq + softirq + steal
  uint64_t total = 0;  // busy + idle + iowait
  int32_t cpus = 0;    // "cpuN" lines: the CPUs online when the file was read

  friend bool operator==(const ProcCpuTicks&, const ProcCpuTicks&) = default;
};

// Parses /proc/stat (`path` only names the file in errors). kInvalidArgument when the first line
// is not "cpu" followed by at least 7 counters, a counter does not parse, or no cpuN line exists.
// guest and guest_nice are not added: the kernel already counts them in user and nice.
[[nodiscard]] Result<ProcCpuTicks> parseProcStat(std::string_view text, const std::string& path);

// MemTotal - MemAvailable of /proc/meminfo, in bytes (floored at 0). kInvalidArgument when
// either line is missing or does not parse.
[[nodiscard]] Result<uint64_t> parseMeminfoUsedBytes(std::string_view text,
                                                     const std::string& path);

// What one cycle measured; a value is absent when it could not be read (counted in the stats)
// or, for cpu, on the first cycle, which only primes the counters.
struct NodeUsage {
  std::optional<double> cpu_cores;
  std::optional<double> memory_bytes;
};

// Not thread-safe: one collector thread calls collect(). Constructors do no I/O.
class NodeCollector {
 public:
  static constexpr std::string_view kName = "NodeResourceCollector";

  // `cache` must outlive the collector.
  NodeCollector(const system::SysPaths& paths, metriccache::MetricCache& cache);

  // Reads <proc_root>/stat and <proc_root>/meminfo and appends the samples at `now`.
  //
  // CPU cores = (busy1 - busy0) / (total1 - total0) * online CPUs, over the aggregate cpu line of
  // two consecutive reads. koordlet's NodeResourceCollector divides busy ticks (without steal)
  // by the wall time elapsed * USER_HZ instead; the tick ratio needs neither USER_HZ nor the
  // wall clock (which may be stepped), and counting steal reports what the node's vCPUs could
  // not give to work. The first call, and a call after the counters went backwards or did not
  // move, only store the counters. Read and parse errors are counted under NodeCpu/NodeMemory.
  NodeUsage collect(metriccache::TimePoint now, CollectStats& stats);

 private:
  [[nodiscard]] Result<ProcCpuTicks> readStat();
  [[nodiscard]] Result<uint64_t> readMeminfo();

  std::string stat_path_;
  std::string meminfo_path_;
  metriccache::MetricCache& cache_;
  std::optional<ProcCpuTicks> last_;
  std::string buffer_;  // reused between reads
};

}  // namespace koord::agent::metricsadvisor
