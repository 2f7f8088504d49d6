#include "agent/system/cpu_pools.hpp"

#include <gtest/gtest.h>

namespace koord::agent::system {
namespace {

// Two sockets with one NUMA node each: CPUs 0-3 on socket 0, 4-7 on socket 1.
CpuTopology twoSocketTopology() {
  CpuTopology topology;
  for (int32_t id = 0; id < 8; ++id) {
    topology.cpus.push_back({id, id / 2, id / 4, id / 4});
  }
  return topology;
}

TEST(CpuPoolsTest, OnlineCpusAreTheTopologysIds) {
  EXPECT_EQ(onlineCpus(twoSocketTopology()).toString(), "0-7");
  EXPECT_TRUE(onlineCpus(CpuTopology{}).empty());
}

TEST(CpuPoolsTest, PoolsPerZoneLeaveOutWhatIsTaken) {
  const CpuPools pools = makeCpuPools(twoSocketTopology(), cpuset::CpuSet::parse("0-1,4-7").value(),
                                      cpuset::CpuSet::parse("0-1").value());
  EXPECT_EQ(pools.online.toString(), "0-7");
  EXPECT_EQ(pools.shared_pool.toString(), "2-3");
  EXPECT_EQ(pools.be_pool.toString(), "2-7");
  // A zone whose CPUs are all taken has no entry.
  ASSERT_EQ(pools.shared_zones.size(), 1U);
  EXPECT_EQ(pools.shared_zones[0], (ZonePool{0, 0, cpuset::CpuSet::parse("2-3").value()}));
  ASSERT_EQ(pools.be_zones.size(), 2U);
  EXPECT_EQ(pools.be_zones[1], (ZonePool{1, 1, cpuset::CpuSet::parse("4-7").value()}));
}

TEST(CpuPoolsTest, TakenCpusTheNodeLacksAreIgnored) {
  const CpuPools pools =
      makeCpuPools(twoSocketTopology(), cpuset::CpuSet::parse("7-8191").value(), cpuset::CpuSet());
  EXPECT_EQ(pools.shared_pool.toString(), "0-6");
  EXPECT_EQ(pools.be_pool.toString(), "0-7");
}

}  // namespace
}  // namespace koord::agent::system
