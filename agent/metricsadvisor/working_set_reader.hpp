// WorkingSetReader: a cgroup's memory working set (usage minus the inactive file cache), with the
// inactive-file figure re-read from memory.stat only at every `period`-th read of that cgroup.
//
// Why: the kernel formats the whole memory.stat (about 40 counters, under v1 each summed over the
// cgroup's subtree) at every read. On a real cgroup v1 host (600 cgroups) those reads dominated a
// collection cycle: 7.6-9.4 ms of CPU against a 5 ms target; with period 5 about 3 ms
// (test/bench/agent BM_CollectCycleRealCgroupV1). The usage file is one number and stays read at
// every call, so memory samples keep their rate; the inactive file cache moves slowly and is
// allowed to lag by a few reads.
//
// Contract:
//  - read() reads `usage_file` at every call and returns usage - inactive file, floored at 0;
//  - the inactive-file figure (`inactive_key` of memory.stat) of a cgroup is read at its first
//    call and then at every period-th call, and kept in between, so it is at most period - 1
//    reads old. The first interval is shortened so that the refreshes spread evenly over the
//    cycles instead of all falling in the same one (every cgroup is first read in the agent's
//    first cycle): the k-th cgroup the reader meets (from 0) is read again at its
//    (period + 1 - k % period)th call, then every period calls. period 0 or 1 reads memory.stat
//    at every call and keeps nothing.
//    Between two reads of memory.stat its descriptor is kept open in `files` (keepOpen), as
//    opening it again would cost more than reading it;
//  - bounded: the figure of a cgroup is dropped when a read of it answers kNotFound (the cgroup
//    went away), and at sweeps: every time the calls since the last sweep reach twice the number
//    of kept figures (plus 64), those not read since that sweep are dropped (a collector that
//    reads every cgroup once per cycle drops the figures of ended pods within about two cycles).
//    At most `max_entries` figures are kept; other cgroups have memory.stat read at every call;
//  - a cgroup removed and made again at the same path between two reads (never seen missing)
//    may be given the old cgroup's figure for up to period - 1 reads;
//  - errors are those of CgroupFileCache::readUint64 and readKeys (kNotFound "failed to read
//    '<path>': no such file", kInvalidArgument "failed to parse '<path>': ..."). A failed
//    memory.stat read keeps nothing: the next call reads it again.
// Thread-safe: one mutex guards the kept figures and is not held while files are read; two
// threads that find the same cgroup due may both read its memory.stat (the last figure is kept).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "agent/metricsadvisor/cgroup_file_cache.hpp"
#include "agent/metricsadvisor/idle_sweep.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::metricsadvisor {

class WorkingSetReader {
 public:
  static constexpr uint32_t kDefaultPeriod = 5;
  static constexpr size_t kDefaultMaxEntries = 4096;

  // `files` (which reads the files) must outlive the reader. `usage_file` is the usage file's
  // name (v1 "memory.usage_in_bytes", v2 "memory.current"), `inactive_key` the memory.stat key
  // (v1 "total_inactive_file", v2 "inactive_file"). No I/O.
  WorkingSetReader(CgroupFileCache& files, std::string usage_file, std::string inactive_key,
                   uint32_t period = kDefaultPeriod, size_t max_entries = kDefaultMaxEntries);

  // The working set of the cgroup `<hierarchy_dir>/<relative_dir>` (relative_dir already
  // checked by the caller, see checkRelativeDir).
  [[nodiscard]] Result<uint64_t> read(std::string_view hierarchy_dir,
                                      std::string_view relative_dir);

  // Cgroups whose inactive-file figure is kept now.
  [[nodiscard]] size_t keptFigures() const;
  [[nodiscard]] uint32_t period() const { return period_; }

 private:
  struct Entry {
    uint64_t inactive_file = 0;
    uint32_t age = 0;   // reads that used the figure since it was read (+ the first offset)
    bool used = false;  // read since the last sweep
  };
  struct DirHash {
    using is_transparent = void;
    size_t operator()(std::string_view dir) const { return std::hash<std::string_view>{}(dir); }
  };

  // The kept figure of `dir` when it is fresh enough for this read; nullopt when memory.stat is
  // due. Counts the read.
  std::optional<uint64_t> lookup(std::string_view dir);
  void store(std::string_view dir, uint64_t inactive_file);
  void forget(std::string_view dir);
  // Drops the figures not read since the last sweep when it is time to. Requires mu_.
  void maybeSweepLocked();

  CgroupFileCache& files_;
  const std::string usage_file_;
  const std::string inactive_key_;
  const uint32_t period_;
  const size_t max_entries_;
  mutable std::mutex mu_;
  IdleSweep sweep_;           // guarded by mu_
  uint64_t new_figures_ = 0;  // guarded by mu_; cgroups met, for the first interval
  std::unordered_map<std::string, Entry, DirHash, std::equal_to<>> entries_;  // guarded by mu_
};

}  // namespace koord::agent::metricsadvisor
