// takeCPUs, with tables ported from Koordinator's
// pkg/scheduler/plugins/nodenumaresource/cpu_accumulator_test.go (each case keeps its Go name),
// plus cases on a 128-CPU node (2 sockets x 2 NUMA nodes x 16 cores x 2 threads) worked by hand.
#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace koord::extender::plugins::node_numa_resource {
namespace {

using api::extension::CPUBindPolicy;
using api::extension::CPUExclusivePolicy;
using cpuset::CpuSet;

constexpr auto kFull = CPUBindPolicy::kFullPCPUs;
constexpr auto kSpread = CPUBindPolicy::kSpreadByPCPUs;
constexpr auto kMost = NUMAAllocateStrategy::kMostAllocated;
constexpr auto kLeast = NUMAAllocateStrategy::kLeastAllocated;

// Koordinator's buildCPUTopologyForTest: ids numbered socket by socket, node by node, core by core.
CPUTopologyDetails buildTopology(int numSockets, int nodesPerSocket, int coresPerNode,
                                 int cpusPerCore) {
  std::vector<CPUInfo> cpus;
  int node = 0;
  int core = 0;
  int cpu = 0;
  for (int s = 0; s < numSockets; ++s) {
    for (int n = 0; n < nodesPerSocket; ++n, ++node) {
      for (int c = 0; c < coresPerNode; ++c, ++core) {
        for (int p = 0; p < cpusPerCore; ++p) {
          cpus.push_back(CPUInfo{.cpu = cpu++, .core = core, .node = node, .socket = s});
        }
      }
    }
  }
  return CPUTopologyDetails(cpus);
}

CpuSet set(const std::string& text) {
  return CpuSet::parse(text).value();
}

struct Shape {
  int sockets;
  int nodesPerSocket;
  int coresPerNode;
  int cpusPerCore;
};

struct Case {
  std::string name;  // the Go test case's name
  Shape shape;
  int maxRefCount;
  std::string allocated;  // cpuset list, allocated with allocatedPolicy
  int numCPUsNeeded;
  std::string want;  // cpuset list; ignored when wantError
  bool wantError = false;
  CPUBindPolicy bindPolicy = kFull;
  CPUExclusivePolicy exclusivePolicy = CPUExclusivePolicy::kNone;
  CPUExclusivePolicy allocatedPolicy = CPUExclusivePolicy::kNone;
};

// As the Go tables do: available = topology CPUs - allocated; allocated details keep their policy.
void runCases(const std::vector<Case>& cases, NUMAAllocateStrategy strategy) {
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    const CPUTopologyDetails topology = buildTopology(tc.shape.sockets, tc.shape.nodesPerSocket,
                                                      tc.shape.coresPerNode, tc.shape.cpusPerCore);
    const CpuSet allocatedSet = set(tc.allocated);
    AllocatedCPUs allocated;
    for (int cpu : allocatedSet.cpus()) {
      allocated[cpu] = AllocatedCPU{.refCount = 1, .exclusivePolicy = tc.allocatedPolicy};
    }
    auto result =
        takeCPUs(topology, tc.maxRefCount, topology.cpus().difference(allocatedSet), allocated,
                 tc.numCPUsNeeded, tc.bindPolicy, tc.exclusivePolicy, strategy);
    if (tc.wantError) {
      EXPECT_FALSE(result.ok());
      continue;
    }
    ASSERT_TRUE(result.ok()) << result.status().message();
    EXPECT_EQ(result.value().toString(), set(tc.want).toString());
  }
}

TEST(CpuAccumulatorTest, TakeFullPCPUs) {
  runCases(
      {
          {"allocate on non-NUMA node", {1, 1, 4, 2}, 1, "", 2, "0-1"},
          {"with allocated cpus", {1, 1, 4, 2}, 1, "0-1", 2, "2-3"},
          {"allocate whole socket", {2, 1, 4, 2}, 1, "", 8, "0-7"},
          {"allocate across socket", {2, 1, 4, 2}, 1, "", 12, "0-11"},
          {"allocate whole socket with partially-allocated socket",
           {2, 1, 4, 2},
           1,
           "0-1",
           8,
           "8-15"},
          {"allocate in the smallest idle socket", {2, 2, 4, 2}, 1, "0-5,16-23", 6, "24-29"},
          {"allocate the most of CPUs on the same socket",
           {2, 2, 4, 2},
           1,
           "0-5,16-23",
           12,
           "6-15,24-25"},
          {"allocate from first socket", {2, 2, 4, 2}, 1, "0-3,8-11", 4, "4-7"},
          {"allocate with less spread cpus", {2, 2, 2, 2}, 1, "0,2,4,8,12", 4, "10-11,14-15"},
          {"allocate with the most spread cpus", {2, 2, 2, 2}, 1, "0,2,4,8,10,12", 6, "5-7,13-15"},
          {"allocate with the most spread cpus on the smallest idle cpus socket",
           {2, 2, 2, 2},
           1,
           "0,2,4,8,9,10,12",
           6,
           "6-7,11,13-15"},
      },
      kMost);
}

TEST(CpuAccumulatorTest, TakeFullPCPUsWithNUMALeastAllocated) {
  runCases(
      {
          {"allocate on non-NUMA node", {1, 1, 4, 2}, 1, "", 2, "0-1"},
          {"with allocated cpus", {1, 1, 4, 2}, 1, "0-1", 2, "2-3"},
          {"allocate whole socket", {2, 1, 4, 2}, 1, "", 8, "0-7"},
          {"allocate across socket", {2, 1, 4, 2}, 1, "", 12, "0-11"},
          {"allocate whole socket with partially-allocated socket",
           {2, 1, 4, 2},
           1,
           "0-1",
           8,
           "8-15"},
          {"allocate in the most idle socket", {2, 2, 4, 2}, 1, "0-5,16-23", 6, "8-13"},
          {"allocate the most of CPUs on the same socket",
           {2, 2, 4, 2},
           1,
           "0-5,16-23",
           12,
           "6-15,24-25"},
          {"allocate from second socket", {2, 2, 4, 2}, 1, "0-3,8-11", 4, "16-19"},
          {"allocate with less spread cpus", {2, 2, 2, 2}, 1, "0,2,4,8,12", 4, "10-11,14-15"},
          {"allocate with the less spread cpus 2",
           {2, 2, 2, 2},
           1,
           "0,2,4,8,10,12",
           6,
           "1,3,6-7,14-15"},
          {"allocate with the most spread cpus on the most idle cpus socket 3",
           {2, 2, 4, 2},
           1,
           "0,2,4,8,9,10,12",
           6,
           "16-21"},
      },
      kLeast);
}

TEST(CpuAccumulatorTest, CPUSpreadByPCPUs) {
  const CPUTopologyDetails topology = buildTopology(2, 2, 4, 2);
  const std::vector<int> want = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                                 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};
  for (NUMAAllocateStrategy strategy : {kMost, kLeast}) {  // ...AndWithNUMALeastAllocated
    EXPECT_EQ(spreadFreeCPUs(topology, 1, topology.cpus(), {}, CPUExclusivePolicy::kNone, strategy,
                             false),
              want);
  }
}

TEST(CpuAccumulatorTest, TakeSpreadByPCPUs) {
  runCases(
      {
          {"allocate on non-NUMA node", {1, 1, 4, 2}, 1, "", 4, "0,2,4,6", false, kSpread},
          {"allocate satisfied the partially-allocated socket",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "1,3,4,6",
           false,
           kSpread},
          {"allocate cpus on full-free socket",
           {2, 1, 4, 2},
           1,
           "0-3",
           4,
           "8,10,12,14",
           false,
           kSpread},
          {"allocate most of CPUs in the same socket and overlapped-cores",
           {2, 1, 4, 2},
           1,
           "0,2",
           6,
           "1,3-7",
           false,
           kSpread},
      },
      kMost);
}

TEST(CpuAccumulatorTest, TakeSpreadByPCPUsWithNUMALeastAllocated) {
  runCases(
      {
          {"allocate on non-NUMA node", {1, 1, 4, 2}, 1, "", 4, "0,2,4,6", false, kSpread},
          {"allocate satisfied the partially-allocated socket",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "8,10,12,14",
           false,
           kSpread},
          {"allocate cpus on full-free socket",
           {2, 1, 4, 2},
           1,
           "0-3",
           4,
           "8,10,12,14",
           false,
           kSpread},
          {"allocate most of CPUs in the same socket and overlapped-cores",
           {2, 1, 4, 2},
           1,
           "0,2",
           6,
           "8-12,14",
           false,
           kSpread},
      },
      kLeast);
}

TEST(CpuAccumulatorTest, TakeCPUsWithExclusivePolicy) {
  constexpr auto kPCPU = CPUExclusivePolicy::kPCPULevel;
  constexpr auto kNUMA = CPUExclusivePolicy::kNUMANodeLevel;
  constexpr auto kNone = CPUExclusivePolicy::kNone;
  // The Go table's defaults: allocated with PCPULevel, request PCPULevel, SpreadByPCPUs.
  runCases(
      {
          {"allocate cpus on full-free socket with PCPULevel",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "8,10,12,14",
           false,
           kSpread,
           kPCPU,
           kPCPU},
          {"allocate overlapped cpus with PCPULevel",
           {2, 1, 4, 2},
           1,
           "",
           10,
           "0-4,6,8,10,12,14",
           false,
           kSpread,
           kPCPU,
           kPCPU},
          {"allocate cpus on large-size partially-allocated socket with PCPULevel",
           {2, 1, 8, 2},
           1,
           "0,2",
           4,
           "4,6,8,10",
           false,
           kSpread,
           kPCPU,
           kPCPU},
          {"allocate cpus with none exclusive policy",
           {2, 1, 8, 2},
           1,
           "0,2",
           4,
           "1,3,4,6",
           false,
           kSpread,
           kNone,
           kPCPU},
          {"allocate cpus on full-free socket with NUMANodeLevel",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "8,10,12,14",
           false,
           kSpread,
           kNUMA,
           kNUMA},
          {"allocate cpus on partially-allocated socket without NUMANodeLevel",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "1,3,4,6",
           false,
           kSpread,
           kNone,
           kNUMA},
          {"allocate cpus on full-free socket with NUMANodeLevel with PCPUs",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "8-11",
           false,
           kFull,
           kNUMA,
           kNUMA},
          {"allocate cpus on partially-allocated socket without NUMANodeLevel with PCPUs",
           {2, 1, 4, 2},
           1,
           "0,2",
           4,
           "4-7",
           false,
           kFull,
           kNone,
           kNUMA},
      },
      kMost);
}

// Koordinator's NodeAllocation as far as takeCPUs needs it: ref counts, available CPUs.
class AllocationState {
 public:
  // getAvailableCPUs: topology CPUs whose ref count is below maxRefCount.
  CpuSet available(const CPUTopologyDetails& topology, int maxRefCount) const {
    std::set<int> out;
    for (const auto& [cpu, info] : topology.details()) {
      auto it = allocated_.find(cpu);
      if (it == allocated_.end() || it->second.refCount < maxRefCount) {
        out.insert(cpu);
      }
    }
    return CpuSet(std::move(out));
  }
  const AllocatedCPUs& allocated() const { return allocated_; }
  void add(const CpuSet& cpus, CPUExclusivePolicy policy) {
    for (int cpu : cpus.cpus()) {
      allocated_[cpu].refCount++;
      allocated_[cpu].exclusivePolicy = policy;
    }
  }

 private:
  AllocatedCPUs allocated_;
};

// Takes n CPUs with maxRefCount 2 and records them as a PCPULevel allocation.
std::string takeAndAdd(const CPUTopologyDetails& topology, AllocationState& state, int n,
                       CPUBindPolicy bindPolicy) {
  auto result = takeCPUs(topology, 2, state.available(topology, 2), state.allocated(), n,
                         bindPolicy, CPUExclusivePolicy::kNone, kMost);
  if (!result.ok()) {
    return "error: " + result.status().message();
  }
  state.add(result.value(), CPUExclusivePolicy::kPCPULevel);
  return result.value().toString();
}

TEST(CpuAccumulatorTest, TakeCPUsWithMaxRefCount) {
  const CPUTopologyDetails topology = buildTopology(1, 1, 4, 2);
  AllocationState state;
  EXPECT_EQ(takeAndAdd(topology, state, 4, kFull), "0-3");    // first pod
  EXPECT_EQ(takeAndAdd(topology, state, 5, kFull), "0,4-7");  // second pod
  EXPECT_EQ(takeAndAdd(topology, state, 4, kFull), "2-5");    // third pod
}

TEST(CpuAccumulatorTest, TakeCPUsSortByRefCount) {
  const CPUTopologyDetails topology = buildTopology(1, 1, 16, 2);
  AllocationState state;
  EXPECT_EQ(takeAndAdd(topology, state, 16, kSpread),
            set("0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30").toString());
  EXPECT_EQ(takeAndAdd(topology, state, 16, kFull), "0-15");
  EXPECT_EQ(takeAndAdd(topology, state, 16, kSpread),
            set("1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31").toString());
  EXPECT_EQ(takeAndAdd(topology, state, 16, kFull), "16-31");
  EXPECT_TRUE(state.available(topology, 2).empty());
}

TEST(CpuAccumulatorTest, TakePreferredCPUsPlainTake) {
  // TestTakePreferredCPUs' first assertion (takePreferredCPUs itself is not part of this port).
  const CPUTopologyDetails topology = buildTopology(2, 1, 16, 2);
  auto result =
      takeCPUs(topology, 1, topology.cpus(), {}, 2, kSpread, CPUExclusivePolicy::kNone, kMost);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value().toVector(), (std::vector<int>{0, 2}));
}

TEST(CpuAccumulatorTest, NotEnoughCPUs) {
  const CPUTopologyDetails topology = buildTopology(2, 2, 4, 2);
  auto result = takeCPUs(topology, 1, set("0-9"), {}, 11, kFull, CPUExclusivePolicy::kNone, kMost);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "not enough cpus available to satisfy request");
  // CPUs outside the topology do not count as available.
  result = takeCPUs(topology, 1, set("30-40"), {}, 3, kSpread, CPUExclusivePolicy::kNone, kMost);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "not enough cpus available to satisfy request");
}

TEST(CpuAccumulatorTest, ZeroCPUsGiveEmptySet) {
  const CPUTopologyDetails topology = buildTopology(1, 1, 4, 2);
  auto result =
      takeCPUs(topology, 1, topology.cpus(), {}, 0, kFull, CPUExclusivePolicy::kNone, kMost);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.value().empty());
}

// 128 CPUs: 2 sockets x 2 NUMA nodes x 16 cores x 2 threads; node n holds CPUs 32n..32n+31.
TEST(CpuAccumulatorTest, Node128CPUs) {
  constexpr Shape k128{2, 2, 16, 2};
  constexpr auto kPCPU = CPUExclusivePolicy::kPCPULevel;
  constexpr auto kNUMA = CPUExclusivePolicy::kNUMANodeLevel;
  constexpr auto kNone = CPUExclusivePolicy::kNone;
  runCases(
      {
          {"FullPCPUs packs the first NUMA node", k128, 1, "", 16, "0-15"},
          {"FullPCPUs MostAllocated fills the used NUMA node", k128, 1, "0-7", 16, "8-23"},
          {"FullPCPUs beyond a socket fills socket 0 then whole cores of socket 1", k128, 1, "", 80,
           "0-79"},
          {"SpreadByPCPUs one thread per core in NUMA node 0", k128, 1, "", 8, "0,2,4,6,8,10,12,14",
           false, kSpread},
          {"NUMANodeLevel avoids the exclusive NUMA node", k128, 1, "0-1", 4, "32-35", false, kFull,
           kNUMA, kNUMA},
          {"no exclusive policy reuses the partially used NUMA node", k128, 1, "0-1", 4, "2-5",
           false, kFull, kNone, kNUMA},
          {"PCPULevel spread skips exclusive cores", k128, 1, "0,2", 4, "4,6,8,10", false, kSpread,
           kPCPU, kPCPU},
          {"more than the node has", k128, 1, "", 129, "", true},
      },
      kMost);
  runCases(
      {
          {"FullPCPUs LeastAllocated picks the idlest socket's NUMA node", k128, 1, "0-7", 16,
           "64-79"},
      },
      kLeast);
}

TEST(CpuAccumulatorTest, FromNRTMakesCoreIdsUniqueAcrossSockets) {
  api::extension::CPUTopology nrt;
  // 2 sockets, one NUMA node each, core ids 0-1 repeated per socket, 2 threads per core.
  int id = 0;
  for (int socket = 0; socket < 2; ++socket) {
    for (int core = 0; core < 2; ++core) {
      for (int t = 0; t < 2; ++t) {
        nrt.detail.push_back(
            {.id = id++, .core = core, .socket = socket, .node = socket, .extra = {}});
      }
    }
  }
  const CPUTopologyDetails topology = CPUTopologyDetails::fromNRT(nrt);
  EXPECT_EQ(topology.numCores(), 4);
  EXPECT_EQ(topology.cpusPerCore(), 2);
  EXPECT_EQ(topology.find(4)->core, 1 << 16);
  EXPECT_TRUE(topology.valid());
  auto result = takeCPUs(topology, 1, set("1-7"), {}, 4, kFull, CPUExclusivePolicy::kNone, kMost);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value().toString(), "4-7");
}

// Deviation from Go (see takeFullPCPUs): 4 sockets of 2 cores x 2 threads, FullPCPUs for 7 CPUs.
// Socket 0 is taken whole, socket 1 gives one core, and 1 CPU remains. Go would then take a whole
// core of socket 2 and return 8 CPUs; here step C adds the one CPU next to the result.
TEST(CpuAccumulatorTest, FullPCPUsOddRemainderDoesNotOverAllocate) {
  const CPUTopologyDetails topology = buildTopology(4, 1, 2, 2);
  auto result =
      takeCPUs(topology, 1, topology.cpus(), {}, 7, kFull, CPUExclusivePolicy::kNone, kMost);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value().toString(), "0-6");
}

}  // namespace
}  // namespace koord::extender::plugins::node_numa_resource
