// Fake sysfs/procfs trees for the discovery tests: a temporary root, the two real host captures
// in ../shared/fixtures/hosts/ (or the vendored test/testdata/hosts/) laid out as the kernel lays
// them out, and synthetic topologies.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace koord::agent::system::testing {

namespace fs = std::filesystem;

// A temporary folder used as the injected root; removed with everything under it at the end.
class FakeRoot {
 public:
  FakeRoot() {
    std::string tmpl = (fs::temp_directory_path() / "koord-agent-sys-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) != nullptr) {
      path_ = tmpl;
    }
  }
  ~FakeRoot() {
    std::error_code ec;
    if (!path_.empty()) {
      fs::remove_all(path_, ec);
    }
  }
  FakeRoot(const FakeRoot&) = delete;
  FakeRoot& operator=(const FakeRoot&) = delete;

  [[nodiscard]] const fs::path& path() const { return path_; }

  // Writes <root>/<relative>, creating its folders; `append` adds to what is there.
  void write(const std::string& relative, const std::string& content, bool append = false) const {
    const fs::path full = path_ / relative;
    fs::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary | (append ? std::ios::app : std::ios::trunc)) << content;
  }
  // Removes <root>/<relative> and everything under it.
  void remove(const std::string& relative) const {
    std::error_code ec;
    fs::remove_all(path_ / relative, ec);
  }

 private:
  fs::path path_;
};

// The capture `name`: ../shared/fixtures/hosts/<name> next to the source tree when the workplace
// provides it, else the repository's vendored copy test/testdata/hosts/<name> (a fresh clone).
inline fs::path captureDir(const std::string& name) {
  fs::path shared = fs::path(KOORD_SOURCE_DIR) / ".." / "shared" / "fixtures" / "hosts" / name;
  std::error_code ec;
  if (fs::is_directory(shared, ec)) {
    return shared;
  }
  return fs::path(KOORD_SOURCE_DIR) / "test" / "testdata" / "hosts" / name;
}

inline std::string trimRight(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.pop_back();
  }
  return s;
}

// Lays a capture out under `root` as the kernel does:
//  - sys/cpu-topology.tsv and sys/cpu0-cache.tsv ("cpu/<path><TAB><value>", dumps of
//    /sys/devices/system/cpu) become <root>/sys/devices/system/cpu/<path> holding "<value>\n";
//  - with `numa`, sys/numa.tsv ("nodeN<TAB><file><TAB><line>") becomes
//    <root>/sys/devices/system/node/nodeN/<file>, one line each;
//  - proc/meminfo is copied to <root>/proc/meminfo.
inline ::testing::AssertionResult loadCapture(const FakeRoot& root, const std::string& name,
                                              bool numa = true) {
  const fs::path dir = captureDir(name);
  for (const char* tsv : {"sys/cpu-topology.tsv", "sys/cpu0-cache.tsv"}) {
    std::ifstream in(dir / tsv);
    if (!in) {
      return ::testing::AssertionFailure() << "cannot open " << (dir / tsv);
    }
    std::string line;
    int files = 0;
    while (std::getline(in, line)) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos || line.compare(0, 4, "cpu/") != 0) {
        return ::testing::AssertionFailure() << "bad line in " << tsv << ": '" << line << "'";
      }
      root.write("sys/devices/system/" + line.substr(0, tab),
                 trimRight(line.substr(tab + 1)) + "\n");
      ++files;
    }
    if (files == 0) {
      return ::testing::AssertionFailure() << tsv << " is empty";
    }
  }
  if (numa) {
    std::ifstream in(dir / "sys/numa.tsv");
    std::string line;
    while (std::getline(in, line)) {
      const size_t tab1 = line.find('\t');
      const size_t tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
      if (tab2 == std::string::npos) {
        return ::testing::AssertionFailure() << "bad line in numa.tsv: '" << line << "'";
      }
      root.write("sys/devices/system/node/" + line.substr(0, tab1) + "/" +
                     line.substr(tab1 + 1, tab2 - tab1 - 1),
                 trimRight(line.substr(tab2 + 1)) + "\n", /*append=*/true);
    }
  }
  std::ifstream meminfo(dir / "proc/meminfo");
  if (!meminfo) {
    return ::testing::AssertionFailure() << "cannot open " << (dir / "proc/meminfo");
  }
  std::stringstream content;
  content << meminfo.rdbuf();
  root.write("proc/meminfo", content.str());
  return ::testing::AssertionSuccess();
}

// A symmetric machine, numbered the way Linux numbers Intel SMT hosts: logical CPU
// t * total_cores + g is thread t of global core g; core g sits on socket g / cores_per_socket
// and NUMA node g / cores_per_node. core_id restarts in every socket and is sparse
// (2 * the core's index in its socket), as on real Xeons.
struct SyntheticTopology {
  int32_t sockets = 2;
  int32_t nodes_per_socket = 2;
  int32_t cores_per_node = 2;
  int32_t threads_per_core = 2;
  std::set<int32_t> offline;  // logical CPUs marked offline (no topology or cache folders)
  bool node_dirs = true;      // false: no sys/devices/system/node at all
  // Node N has node_mem_total_kb + N * 1024 kB, of which node_mem_free_kb + N * 512 kB free.
  int64_t node_mem_total_kb = int64_t{16} * 1024 * 1024;
  int64_t node_mem_free_kb = int64_t{8} * 1024 * 1024;

  [[nodiscard]] int32_t totalCores() const { return sockets * nodes_per_socket * cores_per_node; }
  [[nodiscard]] int32_t totalCpus() const { return totalCores() * threads_per_core; }
  [[nodiscard]] int32_t coreOf(int32_t cpu) const { return cpu % totalCores(); }
  [[nodiscard]] int32_t socketOf(int32_t cpu) const {
    return coreOf(cpu) / (nodes_per_socket * cores_per_node);
  }
  [[nodiscard]] int32_t nodeOf(int32_t cpu) const { return coreOf(cpu) / cores_per_node; }
  [[nodiscard]] int32_t coreIdOf(int32_t cpu) const {
    return 2 * (coreOf(cpu) % (nodes_per_socket * cores_per_node));
  }
  [[nodiscard]] bool online(int32_t cpu) const { return offline.count(cpu) == 0; }
};

// "0-3,8" for the CPUs in `cpus`.
inline std::string cpuList(const std::set<int32_t>& cpus) {
  std::string out;
  auto it = cpus.begin();
  while (it != cpus.end()) {
    const int32_t first = *it;
    int32_t last = first;
    while (++it != cpus.end() && *it == last + 1) {
      last = *it;
    }
    out += (out.empty() ? "" : ",") + std::to_string(first) +
           (last > first ? "-" + std::to_string(last) : "");
  }
  return out;
}

// Writes `topo` under `root`: cpu/{possible,present,online}, cpuN/online, cpuN/topology/* and
// cpuN/cache/index{0..3} (L1d 48K, L1i 32K, L2 2048K per core, L3 30M per socket) for online
// CPUs, nodeN/{cpulist,meminfo} (cpulist lists offline CPUs too), and proc/meminfo (the sum).
inline void writeSynthetic(const FakeRoot& root, const SyntheticTopology& topo) {
  const std::string cpu_dir = "sys/devices/system/cpu/";
  const int32_t n = topo.totalCpus();
  std::set<int32_t> all;
  std::set<int32_t> online;
  for (int32_t cpu = 0; cpu < n; ++cpu) {
    all.insert(cpu);
    if (topo.online(cpu)) {
      online.insert(cpu);
    }
  }
  root.write(cpu_dir + "possible", cpuList(all) + "\n");
  root.write(cpu_dir + "present", cpuList(all) + "\n");
  root.write(cpu_dir + "online", cpuList(online) + "\n");
  for (int32_t cpu = 0; cpu < n; ++cpu) {
    const std::string dir = cpu_dir + "cpu" + std::to_string(cpu) + "/";
    if (cpu != 0) {
      root.write(dir + "online", topo.online(cpu) ? "1\n" : "0\n");
    }
    if (!topo.online(cpu)) {
      continue;
    }
    std::set<int32_t> siblings;
    std::set<int32_t> socket_cpus;
    for (int32_t other : online) {
      if (topo.coreOf(other) == topo.coreOf(cpu)) {
        siblings.insert(other);
      }
      if (topo.socketOf(other) == topo.socketOf(cpu)) {
        socket_cpus.insert(other);
      }
    }
    root.write(dir + "topology/physical_package_id", std::to_string(topo.socketOf(cpu)) + "\n");
    root.write(dir + "topology/core_id", std::to_string(topo.coreIdOf(cpu)) + "\n");
    root.write(dir + "topology/thread_siblings_list", cpuList(siblings) + "\n");
    struct Cache {
      const char* level;
      const char* type;
      const char* size;
      const std::set<int32_t>* shared;
    };
    const Cache caches[] = {{"1", "Data", "48K", &siblings},
                            {"1", "Instruction", "32K", &siblings},
                            {"2", "Unified", "2048K", &siblings},
                            {"3", "Unified", "30720K", &socket_cpus}};
    for (size_t i = 0; i < std::size(caches); ++i) {
      const std::string index = dir + "cache/index" + std::to_string(i) + "/";
      root.write(index + "level", std::string(caches[i].level) + "\n");
      root.write(index + "type", std::string(caches[i].type) + "\n");
      root.write(index + "size", std::string(caches[i].size) + "\n");
      root.write(index + "shared_cpu_list", cpuList(*caches[i].shared) + "\n");
    }
  }
  int64_t total_kb = 0;
  int64_t free_kb = 0;
  const int32_t nodes = topo.sockets * topo.nodes_per_socket;
  for (int32_t node = 0; node < nodes; ++node) {
    const int64_t node_total = topo.node_mem_total_kb + int64_t{node} * 1024;
    const int64_t node_free = topo.node_mem_free_kb + int64_t{node} * 512;
    total_kb += node_total;
    free_kb += node_free;
    if (!topo.node_dirs) {
      continue;
    }
    std::set<int32_t> cpus;
    for (int32_t cpu = 0; cpu < n; ++cpu) {
      if (topo.nodeOf(cpu) == node) {
        cpus.insert(cpu);
      }
    }
    const std::string dir = "sys/devices/system/node/node" + std::to_string(node) + "/";
    const std::string prefix = "Node " + std::to_string(node) + " ";
    root.write(dir + "cpulist", cpuList(cpus) + "\n");
    root.write(dir + "meminfo", prefix + "MemTotal:       " + std::to_string(node_total) + " kB\n" +
                                    prefix + "MemFree:        " + std::to_string(node_free) +
                                    " kB\n" + prefix +
                                    "MemUsed:        " + std::to_string(node_total - node_free) +
                                    " kB\n" + prefix + "HugePages_Total:     0\n");
  }
  root.write("proc/meminfo", "MemTotal:       " + std::to_string(total_kb) +
                                 " kB\nMemFree:        " + std::to_string(free_kb) +
                                 " kB\nMemAvailable:   " + std::to_string(free_kb) + " kB\n");
}

}  // namespace koord::agent::system::testing
