// Fake cgroup v1 and v2 trees for the collector tests, written in the formats the kernel uses:
// v1 memory.stat as kernel 6.x prints it for a memory cgroup (this build machine's
// /sys/fs/cgroup/memory), v1 cpu.stat as in its /sys/fs/cgroup/cpu, and v2 cpu.stat and
// memory.stat laid out as in the h200 capture (sys/cgroup2-root.txt).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "agent/system/cgroup_types.hpp"
#include "agent/system/sys_paths.hpp"
#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::metricsadvisor::testing {

using system::CgroupVersion;
using system::testing::FakeRoot;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kNanosPerSecond = 1000000000;

// A wall-clock time `seconds` after a fixed point (2023-11-14).
inline std::chrono::system_clock::time_point at(double seconds) {
  return std::chrono::system_clock::time_point(std::chrono::seconds(1700000000)) +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(
             std::chrono::duration<double>(seconds));
}

// v1 memory.stat with the given inactive file cache (local and hierarchical), the other counters
// as read from a real memory cgroup.
inline std::string v1MemoryStat(uint64_t inactive_file) {
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

// v2 memory.stat (the capture's key order) with the given inactive_file.
inline std::string v2MemoryStat(uint64_t inactive_file) {
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
         "pgscan 0\npgsteal 0\npgfault 246021\npgmajfault 403\npgrefill 0\npgactivate 8582\n";
}

// The lines of section `name` ("== <name>") of the h200 capture's sys/cgroup2-root.txt.
inline std::string cgroup2RootSection(const std::string& name) {
  std::ifstream in(system::testing::captureDir("h200-gpu-cgroup2") / "sys" / "cgroup2-root.txt");
  std::string line;
  std::string out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("== ", 0) == 0) {
      inside = line == "== " + name;
      continue;
    }
    if (inside) {
      out += line + "\n";
    }
  }
  return out;
}

// A cgroup tree under a FakeRoot at the SysPaths::under() layout (<root>/sys/fs/cgroup).
// v1: hierarchies "cpuacct" (or `cpuacct_mount`, e.g. "cpu,cpuacct"), "cpu" (the same folder when
// cpuacct_mount is combined) and "memory"; v2: the unified tree.
class FakeCgroups {
 public:
  FakeCgroups(const FakeRoot& root, CgroupVersion version, std::string cpuacct_mount = "cpuacct")
      : root_(root), version_(version), cpuacct_mount_(std::move(cpuacct_mount)) {}

  [[nodiscard]] system::SysPaths paths() const { return system::SysPaths::under(root_.path()); }

  // Cumulative CPU time of `dir`: v1 cpuacct.usage (ns); v2 cpu.stat usage_usec (ns / 1000).
  void setCpuUsage(const std::string& dir, uint64_t nanos) {
    if (version_ == CgroupVersion::kV1) {
      root_.write(v1(cpuacct_mount_, dir, "cpuacct.usage"), std::to_string(nanos) + "\n");
      return;
    }
    v2_cpu_[dir].usage_usec = nanos / 1000;
    writeV2CpuStat(dir);
  }

  // Memory of `dir`: v1 memory.usage_in_bytes + memory.stat; v2 memory.current + memory.stat.
  void setMemory(const std::string& dir, uint64_t usage, uint64_t inactive_file) {
    if (version_ == CgroupVersion::kV1) {
      root_.write(v1("memory", dir, "memory.usage_in_bytes"), std::to_string(usage) + "\n");
      root_.write(v1("memory", dir, "memory.stat"), v1MemoryStat(inactive_file));
      return;
    }
    root_.write(v2(dir, "memory.current"), std::to_string(usage) + "\n");
    root_.write(v2(dir, "memory.stat"), v2MemoryStat(inactive_file));
  }

  // CFS counters of `dir`; `throttled_nanos` is written as v1 throttled_time or v2
  // throttled_usec.
  void setThrottling(const std::string& dir, uint64_t periods, uint64_t throttled,
                     uint64_t throttled_nanos) {
    if (version_ == CgroupVersion::kV1) {
      std::ostringstream out;
      out << "nr_periods " << periods << "\nnr_throttled " << throttled << "\nthrottled_time "
          << throttled_nanos << "\nnr_bursts 0\nburst_time 0\n";
      root_.write(v1(cpuMount(), dir, "cpu.stat"), out.str());
      return;
    }
    V2Cpu& cpu = v2_cpu_[dir];
    cpu.periods = periods;
    cpu.throttled = throttled;
    cpu.throttled_usec = throttled_nanos / 1000;
    writeV2CpuStat(dir);
  }

  // Removes `dir` from every hierarchy (the pod or container ended).
  void remove(const std::string& dir) const {
    if (version_ == CgroupVersion::kV1) {
      for (const std::string& mount : {cpuacct_mount_, cpuMount(), std::string("memory")}) {
        root_.remove(v1(mount, dir, ""));
      }
      return;
    }
    root_.remove(v2(dir, ""));
  }

  // The path of `file` in `dir` of the v1 hierarchy `mount`, relative to the FakeRoot.
  [[nodiscard]] static std::string v1(const std::string& mount, const std::string& dir,
                                      const std::string& file) {
    return "sys/fs/cgroup/" + mount + "/" + dir + (file.empty() ? "" : "/" + file);
  }
  [[nodiscard]] static std::string v2(const std::string& dir, const std::string& file) {
    return "sys/fs/cgroup/" + dir + (file.empty() ? "" : "/" + file);
  }

 private:
  struct V2Cpu {
    uint64_t usage_usec = 0;
    uint64_t periods = 0;
    uint64_t throttled = 0;
    uint64_t throttled_usec = 0;
  };

  [[nodiscard]] std::string cpuMount() const {
    return cpuacct_mount_ == "cpuacct" ? "cpu" : cpuacct_mount_;
  }

  void writeV2CpuStat(const std::string& dir) {
    const V2Cpu& cpu = v2_cpu_[dir];
    std::ostringstream out;
    out << "usage_usec " << cpu.usage_usec << "\nuser_usec " << cpu.usage_usec / 4
        << "\nsystem_usec " << cpu.usage_usec - cpu.usage_usec / 4 << "\nnice_usec 0\n"
        << "nr_periods " << cpu.periods << "\nnr_throttled " << cpu.throttled << "\nthrottled_usec "
        << cpu.throttled_usec << "\nnr_bursts 0\nburst_usec 0\n";
    root_.write(v2(dir, "cpu.stat"), out.str());
  }

  const FakeRoot& root_;
  CgroupVersion version_;
  std::string cpuacct_mount_;
  std::map<std::string, V2Cpu> v2_cpu_;
};

// The three layouts a node can have: v1 with cpuacct on its own or combined with cpu, and v2.
struct Layout {
  const char* name;
  CgroupVersion version;
  const char* cpuacct_mount;
};
constexpr std::array<Layout, 3> kLayouts = {{
    {"v1 cpuacct", CgroupVersion::kV1, "cpuacct"},
    {"v1 cpu,cpuacct", CgroupVersion::kV1, "cpu,cpuacct"},
    {"v2", CgroupVersion::kV2, ""},
}};

}  // namespace koord::agent::metricsadvisor::testing
