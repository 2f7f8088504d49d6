#include "agent/system/cpu_topology.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::system {
namespace {

using testing::FakeRoot;
using ::testing::HasSubstr;
using testing::SyntheticTopology;

constexpr int64_t kKiB = 1024;

// Real hosts (captured): epyc-2cpu-cgroup1 only captured cpu0's caches, so cpu1's own L1/L2 are
// not in the tree; its L3 is shared with cpu0.
TEST(CpuTopologyTest, EpycCaptureGolden) {
  FakeRoot root;
  ASSERT_TRUE(testing::loadCapture(root, "epyc-2cpu-cgroup1"));
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  EXPECT_EQ(topo->cpus, (std::vector<CpuInfo>{{0, 0, 0, 0}, {1, 1, 0, 0}}));
  EXPECT_EQ(topo->sockets, 1);
  EXPECT_EQ(topo->numa_nodes, 1);
  EXPECT_EQ(topo->cores, 2);
  EXPECT_EQ(topo->threads_per_core, 1);
  EXPECT_EQ(topo->caches, (std::vector<CacheInfo>{
                              {1, "Data", 32 * kKiB, {0}},
                              {1, "Instruction", 32 * kKiB, {0}},
                              {2, "Unified", 512 * kKiB, {0}},
                              {3, "Unified", 32768 * kKiB, {0, 1}},
                          }));
}

TEST(CpuTopologyTest, H200CaptureGolden) {
  FakeRoot root;
  ASSERT_TRUE(testing::loadCapture(root, "h200-gpu-cgroup2"));
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  std::vector<CpuInfo> want;
  std::vector<int32_t> all;
  want.reserve(16);
  all.reserve(16);
  for (int32_t cpu = 0; cpu < 16; ++cpu) {
    want.push_back({cpu, cpu, 0, 0});
    all.push_back(cpu);
  }
  EXPECT_EQ(topo->cpus, want);
  EXPECT_EQ(topo->sockets, 1);
  EXPECT_EQ(topo->numa_nodes, 1);
  EXPECT_EQ(topo->cores, 16);
  EXPECT_EQ(topo->threads_per_core, 1);
  EXPECT_EQ(topo->caches, (std::vector<CacheInfo>{
                              {1, "Data", 48 * kKiB, {0}},
                              {1, "Instruction", 32 * kKiB, {0}},
                              {2, "Unified", 2048 * kKiB, {0}},
                              {3, "Unified", 307200 * kKiB, all},
                          }));
}

// The CPU, Core, Socket and Node columns of the capture's `lscpu -p`, which koordlet reports.
std::vector<CpuInfo> lscpuParsable(const std::string& capture) {
  std::ifstream in(testing::captureDir(capture) / "lscpu-p.txt");
  std::vector<CpuInfo> cpus;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::stringstream fields(line);
    std::string id, core, socket, node;
    std::getline(fields, id, ',');
    std::getline(fields, core, ',');
    std::getline(fields, socket, ',');
    std::getline(fields, node, ',');
    cpus.push_back({std::stoi(id), std::stoi(core), std::stoi(socket), std::stoi(node)});
  }
  return cpus;
}

TEST(CpuTopologyTest, CapturesAgreeWithLscpu) {
  for (const char* capture : {"epyc-2cpu-cgroup1", "h200-gpu-cgroup2"}) {
    SCOPED_TRACE(capture);
    FakeRoot root;
    ASSERT_TRUE(testing::loadCapture(root, capture));
    auto topo = discoverCpuTopology(root.path());
    ASSERT_TRUE(topo.ok()) << topo.status();
    const std::vector<CpuInfo> want = lscpuParsable(capture);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(topo->cpus, want);
  }
}

TEST(CpuTopologyTest, CaptureWithoutNodeFolderIsOneNode) {
  FakeRoot root;
  ASSERT_TRUE(testing::loadCapture(root, "h200-gpu-cgroup2", /*numa=*/false));
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  EXPECT_EQ(topo->numa_nodes, 1);
  ASSERT_EQ(topo->cpus.size(), 16U);
  for (const CpuInfo& cpu : topo->cpus) {
    EXPECT_EQ(cpu.node, 0) << "cpu " << cpu.id;
  }
}

// Two sockets, two NUMA nodes per socket, two cores per node, two threads per core: CPU c and
// c + 8 are the threads of core c; core_id repeats in both sockets (0, 2, 4, 6).
TEST(CpuTopologyTest, SyntheticTwoSocketsFourNodesSmt) {
  FakeRoot root;
  testing::writeSynthetic(root, SyntheticTopology{});
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  // {id, core, socket, node}
  const std::vector<CpuInfo> want = {
      {0, 0, 0, 0},  {1, 1, 0, 0},  {2, 2, 0, 1},  {3, 3, 0, 1},  {4, 4, 1, 2},  {5, 5, 1, 2},
      {6, 6, 1, 3},  {7, 7, 1, 3},  {8, 0, 0, 0},  {9, 1, 0, 0},  {10, 2, 0, 1}, {11, 3, 0, 1},
      {12, 4, 1, 2}, {13, 5, 1, 2}, {14, 6, 1, 3}, {15, 7, 1, 3},
  };
  EXPECT_EQ(topo->cpus, want);
  EXPECT_EQ(topo->sockets, 2);
  EXPECT_EQ(topo->numa_nodes, 4);
  EXPECT_EQ(topo->cores, 8);
  EXPECT_EQ(topo->threads_per_core, 2);

  // 8 cores x (L1d, L1i, L2) shared by the two threads, and one L3 per socket.
  ASSERT_EQ(topo->caches.size(), 26U);
  EXPECT_EQ(topo->caches[0], (CacheInfo{1, "Data", 48 * kKiB, {0, 8}}));
  EXPECT_EQ(topo->caches[8], (CacheInfo{1, "Instruction", 32 * kKiB, {0, 8}}));
  EXPECT_EQ(topo->caches[23], (CacheInfo{2, "Unified", 2048 * kKiB, {7, 15}}));
  EXPECT_EQ(topo->caches[24], (CacheInfo{3, "Unified", 30720 * kKiB, {0, 1, 2, 3, 8, 9, 10, 11}}));
  EXPECT_EQ(topo->caches[25],
            (CacheInfo{3, "Unified", 30720 * kKiB, {4, 5, 6, 7, 12, 13, 14, 15}}));
}

TEST(CpuTopologyTest, CoreIdsUniqueAcrossSockets) {
  FakeRoot root;
  const SyntheticTopology synthetic;
  testing::writeSynthetic(root, synthetic);
  // The raw core_id repeats: cpu0 (socket 0) and cpu4 (socket 1) both read 0.
  ASSERT_EQ(synthetic.coreIdOf(0), synthetic.coreIdOf(4));
  ASSERT_NE(synthetic.socketOf(0), synthetic.socketOf(4));
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  std::map<int32_t, std::set<int32_t>> sockets_of_core;
  std::map<int32_t, std::set<int32_t>> cpus_of_core;
  for (const CpuInfo& cpu : topo->cpus) {
    sockets_of_core[cpu.core].insert(cpu.socket);
    cpus_of_core[cpu.core].insert(cpu.id);
  }
  EXPECT_EQ(sockets_of_core.size(), 8U);
  for (const auto& [core, sockets] : sockets_of_core) {
    EXPECT_EQ(sockets.size(), 1U) << "core " << core << " spans sockets";
    EXPECT_EQ(cpus_of_core[core], (std::set<int32_t>{core, core + 8})) << "core " << core;
  }
}

// cpu13 (thread 1 of core 5) and both threads of core 7 (cpu7, cpu15) are offline: they have no
// topology folder, but node cpulists still name them.
TEST(CpuTopologyTest, OfflineCpusAreSkipped) {
  FakeRoot root;
  SyntheticTopology synthetic;
  synthetic.offline = {7, 13, 15};
  testing::writeSynthetic(root, synthetic);
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  const std::vector<CpuInfo> want = {
      {0, 0, 0, 0},  {1, 1, 0, 0},  {2, 2, 0, 1},  {3, 3, 0, 1}, {4, 4, 1, 2},
      {5, 5, 1, 2},  {6, 6, 1, 3},  {8, 0, 0, 0},  {9, 1, 0, 0}, {10, 2, 0, 1},
      {11, 3, 0, 1}, {12, 4, 1, 2}, {14, 6, 1, 3},
  };
  EXPECT_EQ(topo->cpus, want);
  EXPECT_EQ(topo->sockets, 2);
  EXPECT_EQ(topo->numa_nodes, 4);
  EXPECT_EQ(topo->cores, 7);
  EXPECT_EQ(topo->threads_per_core, 2);
  for (const CacheInfo& cache : topo->caches) {
    for (int32_t cpu : cache.shared_cpus) {
      EXPECT_TRUE(cpu != 7 && cpu != 13 && cpu != 15) << "offline cpu " << cpu << " in a cache";
    }
  }
}

TEST(CpuTopologyTest, NoNodeFolderIsOneNodeWithEveryCpu) {
  FakeRoot root;
  SyntheticTopology synthetic;
  synthetic.node_dirs = false;
  testing::writeSynthetic(root, synthetic);
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  EXPECT_EQ(topo->numa_nodes, 1);
  ASSERT_EQ(topo->cpus.size(), 16U);
  for (const CpuInfo& cpu : topo->cpus) {
    EXPECT_EQ(cpu.node, 0) << "cpu " << cpu.id;
    EXPECT_EQ(cpu.socket, synthetic.socketOf(cpu.id)) << "cpu " << cpu.id;
  }
  EXPECT_EQ(topo->sockets, 2);
  EXPECT_EQ(topo->cores, 8);
}

TEST(CpuTopologyTest, EmptyNodeFolderIsOneNode) {
  FakeRoot root;
  SyntheticTopology synthetic;
  synthetic.node_dirs = false;
  testing::writeSynthetic(root, synthetic);
  root.write("sys/devices/system/node/possible", "0\n");
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  EXPECT_EQ(topo->numa_nodes, 1);
}

TEST(CpuTopologyTest, SmtOffSingleSocket) {
  FakeRoot root;
  SyntheticTopology synthetic;
  synthetic.sockets = 1;
  synthetic.nodes_per_socket = 1;
  synthetic.cores_per_node = 4;
  synthetic.threads_per_core = 1;
  testing::writeSynthetic(root, synthetic);
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  EXPECT_EQ(topo->cpus,
            (std::vector<CpuInfo>{{0, 0, 0, 0}, {1, 1, 0, 0}, {2, 2, 0, 0}, {3, 3, 0, 0}}));
  EXPECT_EQ(topo->cores, 4);
  EXPECT_EQ(topo->threads_per_core, 1);
}

struct ErrorCase {
  const char* name;
  std::function<void(const FakeRoot&)> mutate;
  StatusCode code;
  const char* file;   // the file the message must name, relative to the root
  const char* cause;  // a part of the message after the file
};

TEST(CpuTopologyTest, ErrorsNameTheFile) {
  const std::string cpu = "sys/devices/system/cpu/";
  const std::string node = "sys/devices/system/node/";
  const std::vector<ErrorCase> cases = {
      {"missing online", [&](const FakeRoot& r) { r.remove(cpu + "online"); },
       StatusCode::kNotFound, "sys/devices/system/cpu/online", "No such file or directory"},
      {"malformed online", [&](const FakeRoot& r) { r.write(cpu + "online", "0-x\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/online", "0-x"},
      {"empty online", [&](const FakeRoot& r) { r.write(cpu + "online", "\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/online", "no online CPU"},
      {"non-numeric core_id",
       [&](const FakeRoot& r) { r.write(cpu + "cpu3/topology/core_id", "three\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/cpu3/topology/core_id",
       "expected an integer, got 'three'"},
      {"negative core_id",
       [&](const FakeRoot& r) { r.write(cpu + "cpu3/topology/core_id", "-1\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/cpu3/topology/core_id",
       "out of range"},
      {"missing physical_package_id",
       [&](const FakeRoot& r) { r.remove(cpu + "cpu9/topology/physical_package_id"); },
       StatusCode::kNotFound, "sys/devices/system/cpu/cpu9/topology/physical_package_id",
       "No such file or directory"},
      {"malformed thread_siblings_list",
       [&](const FakeRoot& r) { r.write(cpu + "cpu1/topology/thread_siblings_list", "1,9-\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/cpu1/topology/thread_siblings_list",
       "1,9-"},
      {"siblings without the cpu",
       [&](const FakeRoot& r) { r.write(cpu + "cpu1/topology/thread_siblings_list", "0,8\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/cpu1/topology/thread_siblings_list",
       "does not hold cpu 1"},
      {"malformed node cpulist",
       [&](const FakeRoot& r) { r.write(node + "node1/cpulist", "2-\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/node/node1/cpulist", "2-"},
      {"missing node cpulist", [&](const FakeRoot& r) { r.remove(node + "node2/cpulist"); },
       StatusCode::kNotFound, "sys/devices/system/node/node2/cpulist", "No such file or directory"},
      {"cpu in two nodes", [&](const FakeRoot& r) { r.write(node + "node1/cpulist", "0,2-3\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/node/node1/cpulist",
       "cpu 0 is also in node0"},
      {"cpu in no node", [&](const FakeRoot& r) { r.write(node + "node3/cpulist", "6,14\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/node/node*/cpulist", "NUMA node of cpu 7"},
      {"malformed cache size",
       [&](const FakeRoot& r) { r.write(cpu + "cpu2/cache/index3/size", "30Q\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/cpu2/cache/index3/size", "30Q"},
      {"missing cache level", [&](const FakeRoot& r) { r.remove(cpu + "cpu2/cache/index0/level"); },
       StatusCode::kNotFound, "sys/devices/system/cpu/cpu2/cache/index0/level",
       "No such file or directory"},
      {"malformed shared_cpu_list",
       [&](const FakeRoot& r) { r.write(cpu + "cpu2/cache/index1/shared_cpu_list", "2;10\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/cpu/cpu2/cache/index1/shared_cpu_list",
       "2;10"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    testing::writeSynthetic(root, SyntheticTopology{});
    c.mutate(root);
    auto topo = discoverCpuTopology(root.path());
    ASSERT_FALSE(topo.ok());
    EXPECT_EQ(topo.status().code(), c.code) << topo.status();
    EXPECT_THAT(topo.status().message(), HasSubstr("'" + (root.path() / c.file).string()));
    EXPECT_THAT(topo.status().message(), HasSubstr(c.cause));
  }
}

TEST(CpuTopologyTest, MissingCacheFolderOrSizeIsNotAnError) {
  FakeRoot root;
  testing::writeSynthetic(root, SyntheticTopology{});
  for (int cpu = 0; cpu < 16; ++cpu) {
    root.remove("sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache");
  }
  root.write("sys/devices/system/cpu/cpu0/cache/index0/level", "1\n");
  root.write("sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n");
  root.write("sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list", "0,8\n");
  auto topo = discoverCpuTopology(root.path());
  ASSERT_TRUE(topo.ok()) << topo.status();
  EXPECT_EQ(topo->caches, (std::vector<CacheInfo>{{1, "Data", 0, {0, 8}}}));
}

}  // namespace
}  // namespace koord::agent::system
