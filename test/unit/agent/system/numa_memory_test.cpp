#include "agent/system/numa_memory.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::system {
namespace {

using testing::FakeRoot;
using ::testing::HasSubstr;
using testing::SyntheticTopology;

constexpr int64_t kNumaKiB = 1024;

// The captures' nodeN/meminfo (sys/numa.tsv) and /proc/meminfo were not read at the same moment
// and disagree (the node file reports far less memory); discovery reads the node file when there
// is a node folder, and /proc/meminfo only without one.
TEST(NumaMemoryTest, EpycCaptureGolden) {
  FakeRoot root;
  ASSERT_TRUE(testing::loadCapture(root, "epyc-2cpu-cgroup1"));
  auto memory = discoverNumaMemory(root.path());
  ASSERT_TRUE(memory.ok()) << memory.status();
  EXPECT_EQ(*memory, (std::vector<NumaMemory>{{0, 4548384 * kNumaKiB, 4017232 * kNumaKiB}}));
}

TEST(NumaMemoryTest, H200CaptureGolden) {
  FakeRoot root;
  ASSERT_TRUE(testing::loadCapture(root, "h200-gpu-cgroup2"));
  auto memory = discoverNumaMemory(root.path());
  ASSERT_TRUE(memory.ok()) << memory.status();
  EXPECT_EQ(*memory, (std::vector<NumaMemory>{{0, 4550128 * kNumaKiB, 3293360 * kNumaKiB}}));
}

TEST(NumaMemoryTest, CapturesWithoutNodeFolderReadProcMeminfo) {
  struct Case {
    const char* capture;
    int64_t total_kb;
    int64_t free_kb;
  };
  for (const Case& c : {Case{"epyc-2cpu-cgroup1", 24683656, 24157288},
                        Case{"h200-gpu-cgroup2", 131981020, 130748452}}) {
    SCOPED_TRACE(c.capture);
    FakeRoot root;
    ASSERT_TRUE(testing::loadCapture(root, c.capture, /*numa=*/false));
    auto memory = discoverNumaMemory(root.path());
    ASSERT_TRUE(memory.ok()) << memory.status();
    EXPECT_EQ(*memory, (std::vector<NumaMemory>{{0, c.total_kb * kNumaKiB, c.free_kb * kNumaKiB}}));
  }
}

TEST(NumaMemoryTest, SyntheticFourNodes) {
  FakeRoot root;
  const SyntheticTopology synthetic;
  testing::writeSynthetic(root, synthetic);
  auto memory = discoverNumaMemory(root.path());
  ASSERT_TRUE(memory.ok()) << memory.status();
  std::vector<NumaMemory> want;
  want.reserve(4);
  for (int32_t node = 0; node < 4; ++node) {
    want.push_back({node, (synthetic.node_mem_total_kb + int64_t{node} * 1024) * kNumaKiB,
                    (synthetic.node_mem_free_kb + int64_t{node} * 512) * kNumaKiB});
  }
  EXPECT_EQ(*memory, want);
}

TEST(NumaMemoryTest, NodesSortedNumerically) {
  FakeRoot root;
  for (int node : {10, 2, 1}) {
    const std::string prefix = "Node " + std::to_string(node) + " ";
    root.write("sys/devices/system/node/node" + std::to_string(node) + "/meminfo",
               prefix + "MemTotal: " + std::to_string(node * 100) + " kB\n" + prefix +
                   "MemFree: " + std::to_string(node) + " kB\n");
  }
  auto memory = discoverNumaMemory(root.path());
  ASSERT_TRUE(memory.ok()) << memory.status();
  EXPECT_EQ(*memory, (std::vector<NumaMemory>{{1, 100 * kNumaKiB, 1 * kNumaKiB},
                                              {2, 200 * kNumaKiB, 2 * kNumaKiB},
                                              {10, 1000 * kNumaKiB, 10 * kNumaKiB}}));
}

TEST(NumaMemoryTest, NoNodeFolderIsNodeZeroFromProcMeminfo) {
  FakeRoot root;
  SyntheticTopology synthetic;
  synthetic.node_dirs = false;
  testing::writeSynthetic(root, synthetic);
  auto memory = discoverNumaMemory(root.path());
  ASSERT_TRUE(memory.ok()) << memory.status();
  const int64_t total_kb = 4 * synthetic.node_mem_total_kb + int64_t{0 + 1 + 2 + 3} * 1024;
  const int64_t free_kb = 4 * synthetic.node_mem_free_kb + int64_t{0 + 1 + 2 + 3} * 512;
  EXPECT_EQ(*memory, (std::vector<NumaMemory>{{0, total_kb * kNumaKiB, free_kb * kNumaKiB}}));
}

struct NumaErrorCase {
  const char* name;
  std::function<void(const FakeRoot&)> mutate;
  StatusCode code;
  const char* file;
  const char* cause;
};

TEST(NumaMemoryTest, ErrorsNameTheFile) {
  const std::string node = "sys/devices/system/node/";
  const std::vector<NumaErrorCase> cases = {
      {"missing node meminfo", [&](const FakeRoot& r) { r.remove(node + "node2/meminfo"); },
       StatusCode::kNotFound, "sys/devices/system/node/node2/meminfo", "No such file or directory"},
      {"no MemFree",
       [&](const FakeRoot& r) { r.write(node + "node1/meminfo", "Node 1 MemTotal: 10 kB\n"); },
       StatusCode::kInvalidArgument, "sys/devices/system/node/node1/meminfo", "no MemFree"},
      {"malformed MemTotal",
       [&](const FakeRoot& r) {
         r.write(node + "node1/meminfo", "Node 1 MemTotal: 1x kB\nNode 1 MemFree: 1 kB\n");
       },
       StatusCode::kInvalidArgument, "sys/devices/system/node/node1/meminfo",
       "invalid line 'Node 1 MemTotal: 1x kB'"},
      {"another node's line",
       [&](const FakeRoot& r) {
         r.write(node + "node3/meminfo", "Node 2 MemTotal: 1 kB\nNode 2 MemFree: 1 kB\n");
       },
       StatusCode::kInvalidArgument, "sys/devices/system/node/node3/meminfo",
       "does not start with 'Node 3 '"},
      {"missing proc meminfo without node folder",
       [&](const FakeRoot& r) {
         r.remove("sys/devices/system/node");
         r.remove("proc/meminfo");
       },
       StatusCode::kNotFound, "proc/meminfo", "No such file or directory"},
      {"proc meminfo without MemTotal",
       [&](const FakeRoot& r) {
         r.remove("sys/devices/system/node");
         r.write("proc/meminfo", "MemFree: 1 kB\n");
       },
       StatusCode::kInvalidArgument, "proc/meminfo", "no MemTotal"},
  };
  for (const NumaErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    testing::writeSynthetic(root, SyntheticTopology{});
    c.mutate(root);
    auto memory = discoverNumaMemory(root.path());
    ASSERT_FALSE(memory.ok());
    EXPECT_EQ(memory.status().code(), c.code) << memory.status();
    EXPECT_THAT(memory.status().message(), HasSubstr("'" + (root.path() / c.file).string() + "'"));
    EXPECT_THAT(memory.status().message(), HasSubstr(c.cause));
  }
}

}  // namespace
}  // namespace koord::agent::system
