// splitByHint (tryBestToDistributeEvenly) and scoreHint (numaScoringStrategy), worked by hand from
// Koordinator's resource_manager.go, scoring.go, least_allocated.go and most_allocated.go.
#include "extender/plugins/node_numa_resource/numa_split.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace koord::extender::plugins::node_numa_resource {
// Named (not anonymous): unity builds merge the test files.
namespace numa_split_test {

constexpr int64_t kGi = int64_t{1} << 30;

NUMANodeResources numaNode(int id, int64_t cpu_milli, int64_t memory, int64_t avail_cpu_milli,
                           int64_t avail_memory, int free_cpus = -1) {
  NUMANodeResources n;
  n.node = id;
  n.allocatable = {{"cpu", cpu_milli}, {"memory", memory}};
  n.available = {{"cpu", avail_cpu_milli}, {"memory", avail_memory}};
  n.free_cpus = free_cpus;
  return n;
}

// node id -> resource -> quantity text.
using Split = std::map<int, std::map<std::string, std::string>>;

Split render(const std::vector<api::extension::NUMANodeResource>& resources) {
  Split out;
  for (const auto& r : resources) {
    for (const auto& [name, quantity] : r.resources) {
      out[r.node][name] = quantity.toString();
    }
  }
  return out;
}

uint64_t maskOf(std::initializer_list<int> ids) {
  uint64_t mask = 0;
  for (int id : ids) {
    mask |= uint64_t{1} << id;
  }
  return mask;
}

TEST(NUMASplitTest, SplitsEvenlyOverTwoIdleNUMANodes) {
  std::vector<NUMANodeResources> nodes = {numaNode(0, 52000, 100 * kGi, 52000, 100 * kGi),
                                          numaNode(1, 52000, 100 * kGi, 52000, 100 * kGi)};
  NUMARequest req{{{"cpu", 4000}, {"memory", 8 * kGi}}};
  auto got = splitByHint(NUMAHint{maskOf({0, 1}), true}, req, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{0, {{"cpu", "2"}, {"memory", "4Gi"}}},
                                 {1, {{"cpu", "2"}, {"memory", "4Gi"}}}}));
}

TEST(NUMASplitTest, SmallerNUMANodeGivesWhatItHasAndTheRestMovesOn) {
  std::vector<NUMANodeResources> nodes = {numaNode(0, 52000, 100 * kGi, 1000, 100 * kGi),
                                          numaNode(1, 52000, 100 * kGi, 8000, 100 * kGi)};
  NUMARequest req{{{"cpu", 6000}}};
  auto got = splitByHint(NUMAHint{maskOf({0, 1}), true}, req, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{0, {{"cpu", "1"}}}, {1, {{"cpu", "5"}}}}));
}

TEST(NUMASplitTest, NonBoundCPUIsSplitInMilli) {
  std::vector<NUMANodeResources> nodes = {numaNode(0, 52000, 100 * kGi, 52000, 100 * kGi),
                                          numaNode(1, 52000, 100 * kGi, 52000, 100 * kGi),
                                          numaNode(2, 52000, 100 * kGi, 52000, 100 * kGi)};
  NUMARequest req{{{"cpu", 1000}}};
  auto got = splitByHint(NUMAHint{maskOf({0, 1, 2}), true}, req, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got),
            (Split{{0, {{"cpu", "333m"}}}, {1, {{"cpu", "333m"}}}, {2, {{"cpu", "334m"}}}}));
}

// The comparator reads the availability of the NUMA nodes whose ids equal the compared positions.
// Hint {1,2}: Go compares NUMA 1 (position 1) with NUMA 0 (position 0), never NUMA 2.
TEST(NUMASplitTest, ComparatorQuirkOrdersByPositionNotByNUMAId) {
  NUMARequest req{{{"cpu", 6000}}};
  // NUMA 0 has less than NUMA 1, so no swap: NUMA 1 first takes 3, NUMA 2 then can give only 1.
  std::vector<NUMANodeResources> no_swap = {
      numaNode(0, 52000, kGi, 2000, kGi), numaNode(1, 52000, kGi, 8000, kGi),
      numaNode(2, 52000, kGi, 1000, kGi), numaNode(3, 52000, kGi, 52000, kGi)};
  auto failed = splitByHint(NUMAHint{maskOf({1, 2}), true}, req, no_swap);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(failed.status().message(), "Insufficient NUMA cpu");

  // NUMA 0 has more than NUMA 1: swapped to [2,1], which happens to be the right order.
  auto swapped = no_swap;
  swapped[0].available["cpu"] = 9000;
  auto got = splitByHint(NUMAHint{maskOf({1, 2}), true}, req, swapped);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{1, {{"cpu", "5"}}}, {2, {{"cpu", "1"}}}}));
}

TEST(NUMASplitTest, FullPCPUsSharesAreWholeCores) {
  // SMT: 2 CPUs per core. 6 CPUs = 3 cores: the first NUMA node gets 1 core, the second 2.
  std::vector<NUMANodeResources> nodes = {numaNode(0, 20000, kGi, 20000, kGi, 20),
                                          numaNode(1, 20000, kGi, 20000, kGi, 20)};
  NUMARequest full{{{"cpu", 6000}}, true, true, 2};
  auto got = splitByHint(NUMAHint{maskOf({0, 1}), true}, full, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{0, {{"cpu", "2"}}}, {1, {{"cpu", "4"}}}}));

  NUMARequest spread{{{"cpu", 6000}}, true, false, 2};
  got = splitByHint(NUMAHint{maskOf({0, 1}), true}, spread, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{0, {{"cpu", "3"}}}, {1, {{"cpu", "3"}}}}));
}

TEST(NUMASplitTest, CpusetPodIsCappedByFreeCPUs) {
  // 32 CPUs worth of quota available on each NUMA node, but NUMA 0 has only 2 whole CPUs free.
  std::vector<NUMANodeResources> nodes = {numaNode(0, 32000, kGi, 32000, kGi, 2),
                                          numaNode(1, 32000, kGi, 32000, kGi, 10)};
  NUMARequest req{{{"cpu", 8000}}, true, false, 1};
  auto got = splitByHint(NUMAHint{maskOf({0, 1}), true}, req, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{0, {{"cpu", "2"}}}, {1, {{"cpu", "6"}}}}));

  NUMARequest too_many{{{"cpu", 14000}}, true, false, 1};
  auto failed = splitByHint(NUMAHint{maskOf({0, 1}), true}, too_many, nodes);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "Insufficient NUMA cpu");
}

TEST(NUMASplitTest, LeftoversOfSeveralResourcesAreAllReported) {
  std::vector<NUMANodeResources> nodes = {numaNode(0, 4000, 4 * kGi, 4000, 4 * kGi)};
  NUMARequest req{{{"cpu", 5000}, {"memory", 5 * kGi}}};
  auto failed = splitByHint(NUMAHint{maskOf({0}), true}, req, nodes);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "Insufficient NUMA cpu, Insufficient NUMA memory");
}

TEST(NUMASplitTest, ResourcesTheNUMANodesDoNotReportAreIgnored) {
  std::vector<NUMANodeResources> nodes = {numaNode(0, 4000, 4 * kGi, 4000, 4 * kGi)};
  NUMARequest req{{{"cpu", 1000}, {"nvidia.com/gpu", 1}, {"pods", 1}}};
  auto got = splitByHint(NUMAHint{maskOf({0}), true}, req, nodes);
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(render(*got), (Split{{0, {{"cpu", "1"}}}}));
}

TEST(NUMASplitTest, LeastAndMostAllocatedScoresOfAHint) {
  // NUMA 0 half used, NUMA 1 idle; pod 4 CPUs and 10Gi.
  std::vector<NUMANodeResources> nodes = {numaNode(0, 52000, 100 * kGi, 26000, 50 * kGi),
                                          numaNode(1, 52000, 100 * kGi, 52000, 100 * kGi)};
  NUMARequest req{{{"cpu", 4000}, {"memory", 10 * kGi}}};
  const std::map<std::string, int64_t> even = {{"cpu", 1}, {"memory", 1}};
  // cpu: (52-30)*100/52 = 42; memory: (100-60)*100/100 = 40.
  EXPECT_EQ(scoreHint(false, even, NUMAHint{maskOf({0}), true}, req, nodes), 41);
  // cpu: 30*100/52 = 57; memory 60.
  EXPECT_EQ(scoreHint(true, even, NUMAHint{maskOf({0}), true}, req, nodes), 58);
  // Over both: cpu (104-30)*100/104 = 71, memory (200-60)*100/200 = 70.
  EXPECT_EQ(scoreHint(false, even, NUMAHint{maskOf({0, 1}), false}, req, nodes), 70);
  // NUMA 1 alone: cpu (52-4)*100/52 = 92, memory 90.
  EXPECT_EQ(scoreHint(false, even, NUMAHint{maskOf({1}), true}, req, nodes), 91);
  // Weighted: (42*2 + 40) / 3.
  EXPECT_EQ(scoreHint(false, {{"cpu", 2}, {"memory", 1}}, NUMAHint{maskOf({0}), true}, req, nodes),
            41);
  // An extended resource the pod does not request is left out of the average.
  EXPECT_EQ(scoreHint(false, {{"cpu", 1}, {"example.com/foo", 5}}, NUMAHint{maskOf({0}), true}, req,
                      nodes),
            42);
  // Request above capacity: least gives 0, most caps at 100.
  NUMARequest huge{{{"cpu", 100000}}};
  EXPECT_EQ(scoreHint(false, {{"cpu", 1}}, NUMAHint{maskOf({1}), true}, huge, nodes), 0);
  EXPECT_EQ(scoreHint(true, {{"cpu", 1}}, NUMAHint{maskOf({1}), true}, huge, nodes), 100);
}

}  // namespace numa_split_test
}  // namespace koord::extender::plugins::node_numa_resource
