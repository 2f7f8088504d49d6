// CgroupFileCache: reads cgroup files through descriptors kept open between collection cycles.
//
// Why: a cycle reads three files for each of hundreds of cgroups, and on cgroupfs opening a file
// costs far more than reading it (measured on this project's 2-vCPU VM, kernel 6.18:
// open + read + close of cpuacct.usage 6.5 us, pread on an open descriptor 0.8 us; on a regular
// filesystem 3.5 us and 0.4 us). cgroupfs (kernfs) regenerates a file's content at every read at
// offset 0, so a cached descriptor always reads the current values.
//
// Contract:
//  - at most `max_open_files` descriptors are kept, and never more than a quarter of the
//    process's soft RLIMIT_NOFILE (read at the first use); beyond that files are opened, read and
//    closed each time. 0 disables caching. Each kept cgroupfs file also holds a page of kernel
//    memory (its seq_file buffer), about 4.5 KiB with the descriptor;
//  - a kept descriptor whose file went away (kernfs answers ENODEV once the cgroup is removed; on
//    other filesystems, such as a test's tree, an fstat finds no link left) is closed and the
//    path is opened again, so a removed cgroup reads as kNotFound, as without the cache;
//  - a file is read with one pread(2) at offset 0 when it fits the buffer (see
//    ReadMode::kWholeFromStart: cgroup files are single-record);
//  - descriptors not used for a while are closed: every time the reads since the last sweep
//    reach twice the number of kept files (plus 64), the files not read since that sweep are
//    closed (keepOpen() marks a file as read without reading it). A collector that reads (or
//    keeps open) every cgroup's files once per cycle keeps them and releases those of ended pods
//    within about two cycles;
//  - errors are those of cgroup_file.hpp (kNotFound "failed to read '<path>': no such file", ...).
// Thread-safe: one mutex guards the descriptors and is held for the whole read, so no descriptor
// is closed while another thread reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "agent/metricsadvisor/idle_sweep.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::metricsadvisor {

// One "key value" line wanted from a file (see findKeyValue in cgroup_file.hpp).
struct StatKey {
  std::string_view key;
  uint64_t* value = nullptr;
};

class CgroupFileCache {
 public:
  static constexpr size_t kDefaultMaxOpenFiles = 4096;

  // No I/O: descriptors are opened at the first read of each file.
  explicit CgroupFileCache(size_t max_open_files = kDefaultMaxOpenFiles);
  ~CgroupFileCache();
  CgroupFileCache(const CgroupFileCache&) = delete;
  CgroupFileCache& operator=(const CgroupFileCache&) = delete;

  // The file's single unsigned decimal number (surrounding whitespace ignored); kInvalidArgument
  // "failed to parse '<path>': expected an unsigned integer, got '<text>'".
  [[nodiscard]] Result<uint64_t> readUint64(const std::string& path);

  // Fills every key's value from the file's "key value" lines; kInvalidArgument
  // "failed to parse '<path>': expected a line '<key> <unsigned integer>'" for the first key
  // missing (values before it are filled, the others are unchanged).
  [[nodiscard]] Status readKeys(const std::string& path, std::initializer_list<StatKey> keys);

  // Marks the kept descriptor of `path` as in use, so that sweeps keep it although the file is
  // not read (for a file read only every few cycles, such as memory.stat under
  // WorkingSetReader). Counts as a read for the sweeps. No I/O; nothing else when `path` is not
  // kept.
  void keepOpen(const std::string& path);

  // Descriptors kept open now.
  [[nodiscard]] size_t openFiles() const;

 private:
  struct Entry {
    int fd = -1;
    bool used = false;         // read since the last sweep
    bool check_links = false;  // not on kernfs: removal shows as a link count of 0
  };

  // Reads `path` into buffer_. Requires mu_.
  Status readLocked(const std::string& path);
  // Closes the files not read since the last sweep when it is time to. Requires mu_.
  void maybeSweepLocked();

  mutable std::mutex mu_;
  size_t max_open_files_;
  bool limit_checked_ = false;                    // guarded by mu_
  IdleSweep sweep_;                               // guarded by mu_
  std::unordered_map<std::string, Entry> files_;  // guarded by mu_
  std::string buffer_;                            // guarded by mu_; the last file read
};

}  // namespace koord::agent::metricsadvisor
