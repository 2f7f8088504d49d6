#include "agent/qosmanager/strategies/memory_qos/memory_qos_formula.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace koord::agent::qosmanager::strategies::memory_qos {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;
constexpr int64_t kMi = int64_t{1} << 20;

struct FormulaCase {
  std::string name;
  int64_t request;
  int64_t limit;
  int64_t node_allocatable;
  MemoryQosProfile profile;
  int64_t page_size;
  MemoryQosValues want;
};

// Expected values worked out by hand from koordlet's formulas (reference 3(i)).
TEST(MemoryQosFormula, ContainerValues) {
  const std::vector<FormulaCase> cases = {
      {"percentages of the request, throttling off is max",
       kGi,
       2 * kGi,
       8 * kGi,
       {50, 80, 0},
       4096,
       {512 * kMi, 858993459, kMemoryMax}},
      {"throttling between request and limit, page aligned",
       kGi,
       2 * kGi,
       8 * kGi,
       {0, 0, 80},
       4096,
       {0, 0, 1932734464}},  // 1Gi + 1Gi*80/100 = 1932735283 -> 471859 pages
      {"no limit: throttles against node allocatable",
       kGi,
       0,
       8 * kGi,
       {0, 0, 50},
       4096,
       {0, 0, 4831838208}},  // 1Gi + 7Gi/2 = 4.5Gi
      {"negative limit is no limit", kGi, -1, 8 * kGi, {0, 0, 50}, 4096, {0, 0, 4831838208}},
      {"rounded down to the page", 1000, 10000, 8 * kGi, {0, 0, 50}, 4096, {0, 0, 4096}},
      {"rounded down to a 64 KiB page",
       kGi + 100000,
       2 * kGi,
       8 * kGi,
       {0, 0, 100},
       65536,
       {0, 0, 2 * kGi}},
      {"throttling 100 is the limit", kGi, 2 * kGi, 8 * kGi, {0, 0, 100}, 4096, {0, 0, 2 * kGi}},
      {"low below min is raised to min",
       1000,
       0,
       8 * kGi,
       {80, 20, 0},
       4096,
       {800, 800, kMemoryMax}},
      {"low 0 stays 0 even below min", 1000, 0, 8 * kGi, {80, 0, 0}, 4096, {800, 0, kMemoryMax}},
      {"high below min is raised to min",
       10000,
       10000,
       8 * kGi,
       {100, 0, 10},
       4096,
       {10000, 0, 10000}},  // 10000 rounds down to 8192 < min
      {"high 0 is not corrected", 100, 100, 8 * kGi, {100, 0, 50}, 4096, {100, 0, 0}},
      {"negative request counts as 0", -5, 2 * kGi, 8 * kGi, {50, 50, 50}, 4096, {0, 0, kGi}},
      {"no request: only high",
       0,
       0,
       8 * kGi,
       {50, 50, 10},
       4096,
       {0, 0, 858992640}},  // 8Gi/10 = 858993459 -> 209715 pages
      {"allocatable unknown: high not computed",
       kGi,
       0,
       0,
       {50, 50, 50},
       4096,
       {512 * kMi, 512 * kMi, std::nullopt}},
      {"allocatable unknown but a limit: computed",
       kGi,
       2 * kGi,
       0,
       {0, 0, 50},
       4096,
       {0, 0, kGi + 512 * kMi}},
      {"allocatable unknown, throttling off: max", kGi, 0, 0, {0, 0, 0}, 4096, {0, 0, kMemoryMax}},
  };
  for (const FormulaCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(containerMemoryQos(c.request, c.limit, c.node_allocatable, c.profile, c.page_size),
              c.want);
  }
}

TEST(MemoryQosFormula, ProtectionSums) {
  MemoryProtection sum;
  sum.add(10, 20);
  sum.add(5, 0);
  EXPECT_EQ(sum, (MemoryProtection{15, 20}));
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_qos
