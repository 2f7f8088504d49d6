// admitByNUMA / generateResourceHints: Koordinator's generateResourceHints and the topology
// manager's best-effort, restricted and single-numa-node policies, on 2-socket, 4-NUMA and SMT
// nodes and a 128-CPU 2-NUMA node. Expectations are worked by hand from the Go code (the Go policy
// tests feed hand-made provider hints, which this API derives from NUMA availability instead).
#include "extender/plugins/node_numa_resource/numa_hints.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extender/plugins/node_numa_resource/numa_split.hpp"

namespace koord::extender::plugins::node_numa_resource {
// Named (not anonymous): unity builds merge the test files.
namespace numa_hints_test {

using api::extension::NumaTopologyExclusive;
using api::extension::NUMATopologyPolicy;

constexpr int64_t kGi = int64_t{1} << 30;
constexpr auto kNone = NUMATopologyPolicy::kNone;
constexpr auto kBestEffort = NUMATopologyPolicy::kBestEffort;
constexpr auto kRestricted = NUMATopologyPolicy::kRestricted;
constexpr auto kSingle = NUMATopologyPolicy::kSingleNUMANode;
constexpr auto kRequired = NumaTopologyExclusive::kRequired;
constexpr auto kPreferred = NumaTopologyExclusive::kPreferred;

NUMANodeResources numaNode(int id, int64_t cpus, int64_t memory_gi, int64_t avail_cpus,
                           int64_t avail_memory_gi, NUMANodeStatus status = NUMANodeStatus::kIdle,
                           int free_cpus = -1) {
  NUMANodeResources n;
  n.node = id;
  n.allocatable = {{"cpu", cpus * 1000}, {"memory", memory_gi * kGi}};
  n.available = {{"cpu", avail_cpus * 1000}, {"memory", avail_memory_gi * kGi}};
  n.status = status;
  n.free_cpus = free_cpus;
  return n;
}

// A 2-socket node: one NUMA node per socket, 52 CPUs and 100Gi each, all idle.
std::vector<NUMANodeResources> twoSockets() {
  return {numaNode(0, 52, 100, 52, 100), numaNode(1, 52, 100, 52, 100)};
}

// 4 NUMA nodes of 26 CPUs and 64Gi.
std::vector<NUMANodeResources> fourNUMA() {
  return {numaNode(0, 26, 64, 26, 64), numaNode(1, 26, 64, 26, 64), numaNode(2, 26, 64, 26, 64),
          numaNode(3, 26, 64, 26, 64)};
}

NUMARequest pod(int64_t cpus, int64_t memory_gi) {
  return NUMARequest{{{"cpu", cpus * 1000}, {"memory", memory_gi * kGi}}};
}

NUMAHint hint(uint64_t mask, bool preferred) {
  return NUMAHint{mask, preferred};
}

void expectAdmitted(const Result<NUMAHint>& got, NUMAHint want) {
  ASSERT_TRUE(got.ok()) << got.status().toString();
  EXPECT_EQ(got->mask, want.mask);
  EXPECT_EQ(got->preferred, want.preferred);
}

void expectRefused(const Result<NUMAHint>& got, StatusCode code, const std::string& message) {
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), code);
  EXPECT_EQ(got.status().message(), message);
}

TEST(NUMAHintsTest, MasksPrintLikeGoBitmask) {
  EXPECT_EQ(formatNUMAMask(0), "00");
  EXPECT_EQ(formatNUMAMask(1), "01");
  EXPECT_EQ(formatNUMAMask(2), "10");
  EXPECT_EQ(formatNUMAMask(3), "11");
  EXPECT_EQ(formatNUMAMask(4), "100");  // Go compares with '>', so 4 stays 3 digits
  EXPECT_EQ(formatNUMAMask(5), "0101");
  EXPECT_EQ(formatNUMAMask(12), "1100");
}

TEST(NUMAHintsTest, HintsPerResourcePreferTheFewestNUMANodes) {
  auto hints = generateResourceHints(kSingle, pod(4, 8), twoSockets());
  ASSERT_EQ(hints.count("cpu"), 1U);
  ASSERT_EQ(hints.count("memory"), 1U);
  const auto& cpu = hints["cpu"];
  ASSERT_EQ(cpu.size(), 3U);
  EXPECT_EQ(cpu[0].mask, 1U);
  EXPECT_TRUE(cpu[0].preferred);
  EXPECT_EQ(cpu[1].mask, 2U);
  EXPECT_TRUE(cpu[1].preferred);
  EXPECT_EQ(cpu[2].mask, 3U);
  EXPECT_FALSE(cpu[2].preferred);
  // Restricted marks every hint preferred.
  auto restricted = generateResourceHints(kRestricted, pod(4, 8), twoSockets());
  EXPECT_TRUE(restricted["cpu"][2].preferred);
  // A resource no NUMA node reports has no NUMA preference at all.
  NUMARequest gpu = pod(4, 8);
  gpu.requests["nvidia.com/gpu"] = 1;
  EXPECT_EQ(generateResourceHints(kSingle, gpu, twoSockets()).count("nvidia.com/gpu"), 0U);
}

TEST(NUMAHintsTest, NoneAndMissingNUMANodes) {
  expectAdmitted(admitByNUMA(kNone, kRequired, pod(4, 8), twoSockets()), hint(0, true));
  expectRefused(admitByNUMA(kSingle, kRequired, pod(4, 8), {}), StatusCode::kFailedPrecondition,
                "node(s) missing NUMA resources");
}

TEST(NUMAHintsTest, TwoSocketPolicies) {
  struct PolicyCase {
    const char* name;
    NUMATopologyPolicy policy;
    NUMARequest request;
    bool ok;
    NUMAHint want;
    std::string message;
  };
  const std::vector<PolicyCase> cases = {
      {"single fits NUMA 0", kSingle, pod(4, 8), true, hint(1, true), ""},
      {"single cannot span",
       kSingle,
       pod(60, 8),
       false,
       {},
       "Unaligned NUMA Hint cause cpu prefer [11] among [11],memory prefer [11] among [11]"},
      {"restricted spans", kRestricted, pod(60, 8), true, hint(3, true), ""},
      {"restricted narrowest", kRestricted, pod(4, 8), true, hint(1, true), ""},
      {"restricted too big",
       kRestricted,
       pod(120, 8),
       false,
       {},
       "Unsatisfied NUMA cpu, Unsatisfied NUMA memory"},
      {"single too big",
       kSingle,
       pod(120, 8),
       false,
       {},
       "Unsatisfied NUMA cpu, Unsatisfied NUMA memory"},
      {"best effort spans", kBestEffort, pod(60, 8), true, hint(3, true), ""},
      {"best effort single", kBestEffort, pod(4, 8), true, hint(1, true), ""},
      // BestEffort admits, but the Allocate step after it still cannot split the request.
      {"best effort too big", kBestEffort, pod(120, 8), false, {}, "Insufficient NUMA cpu"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = admitByNUMA(c.policy, kRequired, c.request, twoSockets());
    if (c.ok) {
      expectAdmitted(got, c.want);
    } else {
      expectRefused(got, StatusCode::kResourceExhausted, c.message);
    }
  }
}

TEST(NUMAHintsTest, ScoringPicksAmongEquallyNarrowHints) {
  // NUMA 0 is 80% used: LeastAllocated moves to NUMA 1, MostAllocated packs NUMA 0.
  std::vector<NUMANodeResources> nodes = {numaNode(0, 52, 100, 10, 20),
                                          numaNode(1, 52, 100, 52, 100)};
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes), hint(2, true));
  NUMAScoring most{true, {{"cpu", 1}, {"memory", 1}}};
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes, most), hint(1, true));
  // Equal scores keep the lower mask.
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), twoSockets(), most), hint(1, true));
}

TEST(NUMAHintsTest, ExclusivitySingleNUMAHints) {
  auto nodes = twoSockets();
  nodes[0].status = NUMANodeStatus::kShared;
  // A single-NUMA hint avoids a NUMA node used by multi-NUMA pods.
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes), hint(2, true));
  nodes[1].status = NUMANodeStatus::kShared;
  expectRefused(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes), StatusCode::kResourceExhausted,
                "Unaligned NUMA Hint cause cpu prefer [01 10] among [01 10 11],memory prefer [01 "
                "10] among [01 10 11]");
  // Preferred exclusivity ignores the status.
  expectAdmitted(admitByNUMA(kSingle, kPreferred, pod(4, 8), nodes), hint(1, true));
  // A node used by single-NUMA pods does not stop another single-NUMA pod.
  nodes[0].status = NUMANodeStatus::kSingle;
  nodes[1].status = NUMANodeStatus::kSingle;
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes), hint(1, true));
}

TEST(NUMAHintsTest, ExclusivityMultiNUMAHints) {
  auto nodes = twoSockets();
  nodes[1].status = NUMANodeStatus::kSingle;
  expectRefused(admitByNUMA(kRestricted, kRequired, pod(60, 8), nodes),
                StatusCode::kResourceExhausted,
                "Unaligned NUMA Hint cause cpu prefer [11] among [11] & memory prefer [11] among "
                "[11]");
  expectAdmitted(admitByNUMA(kRestricted, kPreferred, pod(60, 8), nodes), hint(3, true));
  // BestEffort still admits, without preference.
  expectAdmitted(admitByNUMA(kBestEffort, kRequired, pod(60, 8), nodes), hint(3, false));
  // Shared NUMA nodes are fine for a multi-NUMA hint.
  nodes[0].status = NUMANodeStatus::kShared;
  nodes[1].status = NUMANodeStatus::kShared;
  expectAdmitted(admitByNUMA(kRestricted, kRequired, pod(60, 8), nodes), hint(3, true));
}

TEST(NUMAHintsTest, FourNUMARestrictedTakesTheNarrowestBestScoredPair) {
  // 30 CPUs do not fit one NUMA node of 26: the narrowest hints are pairs, {0,1} first.
  expectAdmitted(admitByNUMA(kRestricted, kRequired, pod(30, 8), fourNUMA()), hint(0b0011, true));
  // With NUMA 0 half used, pairs without it score higher; {1,2} is the first of them.
  auto nodes = fourNUMA();
  nodes[0].available = {{"cpu", 13000}, {"memory", 32 * kGi}};
  expectAdmitted(admitByNUMA(kRestricted, kRequired, pod(30, 8), nodes), hint(0b0110, true));
  // 80 CPUs need all four.
  expectAdmitted(admitByNUMA(kRestricted, kRequired, pod(80, 8), fourNUMA()), hint(0b1111, true));
  const std::string pairs = "11 0101 1001 0110 1010 1100";
  const std::string all = pairs + " 0111 1011 1101 1110 1111";
  expectRefused(admitByNUMA(kSingle, kRequired, pod(30, 8), fourNUMA()),
                StatusCode::kResourceExhausted,
                "Unaligned NUMA Hint cause cpu prefer [" + pairs + "] among [" + all +
                    "],memory prefer [" + pairs + "] among [" + all + "]");
}

TEST(NUMAHintsTest, ANUMANodeWithoutTheResourceIsNoHintForIt) {
  auto nodes = twoSockets();
  nodes[0].available["memory"] = 0;
  auto hints = generateResourceHints(kSingle, pod(4, 8), nodes);
  ASSERT_EQ(hints["memory"].size(), 1U);
  EXPECT_EQ(hints["memory"][0].mask, 2U);
  // {0} cannot hold the memory, so it is no hint for cpu either; {0,1} still is for cpu.
  ASSERT_EQ(hints["cpu"].size(), 2U);
  EXPECT_EQ(hints["cpu"][1].mask, 3U);
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes), hint(2, true));
}

TEST(NUMAHintsTest, OneNUMAMachineUnderSingleNUMANodeHasNoAffinity) {
  std::vector<NUMANodeResources> nodes = {numaNode(0, 52, 100, 52, 100)};
  expectAdmitted(admitByNUMA(kSingle, kRequired, pod(4, 8), nodes), hint(0, true));
  expectAdmitted(admitByNUMA(kRestricted, kRequired, pod(4, 8), nodes), hint(1, true));
}

TEST(NUMAHintsTest, SMTCpusetPodUsesFreeCPUs) {
  // 2 NUMA nodes of 20 cores x 2 threads; NUMA 0 has 4 free CPUs left, NUMA 1 has 40.
  std::vector<NUMANodeResources> nodes = {numaNode(0, 40, 64, 40, 64, NUMANodeStatus::kIdle, 4),
                                          numaNode(1, 40, 64, 40, 64, NUMANodeStatus::kIdle, 40)};
  NUMARequest req = pod(8, 8);
  req.cpu_bind = true;
  req.full_pcpus = true;
  req.cpus_per_core = 2;
  expectAdmitted(admitByNUMA(kSingle, kRequired, req, nodes), hint(2, true));
  // NUMA 1 down to 6 free CPUs: no single NUMA node has 8, both together do (4 + 4).
  nodes[1].free_cpus = 6;
  expectRefused(admitByNUMA(kSingle, kRequired, req, nodes), StatusCode::kResourceExhausted,
                "Unaligned NUMA Hint cause cpu prefer [11] among [11],memory prefer [11] among "
                "[11]");
  expectAdmitted(admitByNUMA(kRestricted, kRequired, req, nodes), hint(3, true));
}

TEST(NUMAHintsTest, Node128CPUsTwoNUMA) {
  // 2 sockets x 1 NUMA node x 32 cores x 2 threads = 128 CPUs, 256Gi per NUMA node.
  auto make = [](int free0, int free1) {
    return std::vector<NUMANodeResources>{
        numaNode(0, 64, 256, 64, 256, NUMANodeStatus::kIdle, free0),
        numaNode(1, 64, 256, 64, 256, NUMANodeStatus::kIdle, free1)};
  };
  auto cpuset = [](int64_t cpus) {
    NUMARequest r = pod(cpus, 16);
    r.cpu_bind = true;
    r.full_pcpus = true;
    r.cpus_per_core = 2;
    return r;
  };
  expectAdmitted(admitByNUMA(kSingle, kRequired, cpuset(64), make(64, 64)), hint(1, true));
  expectAdmitted(admitByNUMA(kSingle, kRequired, cpuset(64), make(62, 64)), hint(2, true));
  expectRefused(admitByNUMA(kSingle, kRequired, cpuset(96), make(64, 64)),
                StatusCode::kResourceExhausted,
                "Unaligned NUMA Hint cause cpu prefer [11] among [11],memory prefer [11] among "
                "[11]");
  auto spanned = admitByNUMA(kRestricted, kRequired, cpuset(96), make(64, 64));
  expectAdmitted(spanned, hint(3, true));
  auto split = splitByHint(*spanned, cpuset(96), make(64, 64));
  ASSERT_TRUE(split.ok()) << split.status().toString();
  ASSERT_EQ(split->size(), 2U);
  EXPECT_EQ(resource::get((*split)[0].resources, "cpu").toString(), "48");
  EXPECT_EQ(resource::get((*split)[0].resources, "memory").toString(), "8Gi");
  EXPECT_EQ(resource::get((*split)[1].resources, "cpu").toString(), "48");
  // 66 CPUs = 33 cores: 16 cores on NUMA 0, 17 on NUMA 1.
  split = splitByHint(hint(3, true), cpuset(66), make(64, 64));
  ASSERT_TRUE(split.ok()) << split.status().toString();
  EXPECT_EQ(resource::get((*split)[0].resources, "cpu").toString(), "32");
  EXPECT_EQ(resource::get((*split)[1].resources, "cpu").toString(), "34");
  // The whole machine.
  expectAdmitted(admitByNUMA(kRestricted, kRequired, cpuset(128), make(64, 64)), hint(3, true));
  expectRefused(admitByNUMA(kRestricted, kRequired, cpuset(130), make(64, 64)),
                StatusCode::kResourceExhausted, "Unsatisfied NUMA cpu, Unsatisfied NUMA memory");
}

}  // namespace numa_hints_test
}  // namespace koord::extender::plugins::node_numa_resource
