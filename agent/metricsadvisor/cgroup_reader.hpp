// CgroupReader: the usage counters of one cgroup, read the same way under cgroup v1 and v2.
//
// Every method takes `relative_dir`, the cgroup's path relative to the hierarchy root
// ("kubepods/besteffort/pod<uid>/<container id>"; "" is the root itself). It must be relative and
// must not contain a ".." component: anything else is refused with kInvalidArgument
// ("failed to read cgroup '<dir>': ..."), before any file is opened.
//
// Errors, each naming the file:
//   kNotFound         the cgroup (or the file) does not exist: usually a pod or container that
//                     has just ended, which collectors skip without failing the cycle
//   kFailedPrecondition  (v1) the hierarchy (cpuacct, cpu or memory) is not mounted under the
//                     cgroup root: a node problem, not a pod's
//   kPermissionDenied / kUnavailable   the file could not be read
//   kInvalidArgument  the file does not hold what the kernel writes there
//
// Implementations do no I/O in their constructors and are safe to call from several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "agent/metricsadvisor/cgroup_file_cache.hpp"
#include "agent/metricsadvisor/working_set_reader.hpp"
#include "agent/system/cgroup_types.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::metricsadvisor {

// CFS bandwidth counters (cpu.stat), cumulative since the cgroup was made.
struct CpuThrottlingStats {
  uint64_t nr_periods = 0;    // enforcement periods that elapsed with runnable tasks
  uint64_t nr_throttled = 0;  // periods in which the cgroup was throttled
  uint64_t throttled_nanos =
      0;  // total time throttled (v1 throttled_time; v2 throttled_usec * 1000)

  friend bool operator==(const CpuThrottlingStats&, const CpuThrottlingStats&) = default;
};

class CgroupReader {
 public:
  virtual ~CgroupReader() = default;

  [[nodiscard]] virtual system::CgroupVersion version() const = 0;

  // CPU time used by the cgroup's tasks since it was made, in nanoseconds.
  // v1: <cpuacct hierarchy>/<dir>/cpuacct.usage; v2: <root>/<dir>/cpu.stat usage_usec * 1000.
  [[nodiscard]] virtual Result<uint64_t> cpuUsageNanos(std::string_view relative_dir) const = 0;

  // Memory in use minus the inactive file cache (what kubelet calls the working set), floored
  // at 0. v1: memory.usage_in_bytes - memory.stat total_inactive_file;
  // v2: memory.current - memory.stat inactive_file. The usage is read at every call; the
  // inactive-file part is re-read from memory.stat only at every N-th call for the same cgroup
  // (N = the reader's inactive_file_period, see newCgroupReader and working_set_reader.hpp), so
  // it may be up to N - 1 reads old. A call that finds the cgroup gone forgets its figure.
  [[nodiscard]] virtual Result<uint64_t> memoryWorkingSetBytes(
      std::string_view relative_dir) const = 0;

  // CFS throttling counters from cpu.stat (v1 in the cpu hierarchy).
  [[nodiscard]] virtual Result<CpuThrottlingStats> cpuThrottling(
      std::string_view relative_dir) const = 0;
};

// The reader for `version` over `paths.cgroup_root`. No I/O here. Under v1 each hierarchy may be
// mounted under one of several names: cpuacct as "cpuacct", "cpu,cpuacct" or "cpuacct,cpu"; cpu
// as "cpu", "cpu,cpuacct" or "cpuacct,cpu"; memory as "memory". The first name that exists is
// found at the first read that needs it and kept; while none exists, reads fail with
// kFailedPrecondition naming "<cgroup_root>/<first name>".
//
// The reader keeps up to `max_open_files` cgroup files open between reads and re-reads them with
// pread (see cgroup_file_cache.hpp: about 8x cheaper than opening them again on cgroupfs); 0
// opens and closes every file at every read.
//
// `inactive_file_period` (N, default 5) is how often memoryWorkingSetBytes re-reads memory.stat
// for a cgroup: at its 1st, (N+1)th, (2N+1)th ... call (memory.stat is by far the costliest file
// the kernel formats for a cycle). 1 (or 0) reads it at every call.
[[nodiscard]] std::unique_ptr<CgroupReader> newCgroupReader(
    const system::SysPaths& paths, system::CgroupVersion version,
    size_t max_open_files = CgroupFileCache::kDefaultMaxOpenFiles,
    uint32_t inactive_file_period = WorkingSetReader::kDefaultPeriod);

}  // namespace koord::agent::metricsadvisor
