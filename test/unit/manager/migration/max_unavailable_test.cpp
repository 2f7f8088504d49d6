#include "manager/descheduler/migration/max_unavailable.hpp"

#include <gtest/gtest.h>

#include <optional>

namespace koord::manager::descheduler::migration {
namespace {

using config::IntOrPercent;

struct Case {
  const char* name;
  int64_t replicas;
  std::optional<IntOrPercent> value;
  int64_t want;
};

// Koordinator's util_test.go TestGetMaxUnavailable (case1..case7), then the defaults by size.
const Case kCases[] = {
    {"80% of 6 rounds down", 6, IntOrPercent{true, 80}, 4},
    {"150% of 6 is capped at replicas", 6, IntOrPercent{true, 150}, 6},
    {"an integer is taken as is", 6, IntOrPercent{false, 5}, 5},
    {"an integer above replicas is capped", 6, IntOrPercent{false, 7}, 6},
    {"unset with 6 replicas is 2", 6, std::nullopt, 2},
    {"0% becomes 1", 50, IntOrPercent{true, 0}, 1},
    {"an integer 0 becomes 1", 6, IntOrPercent{false, 0}, 1},
    {"unset with 3 replicas is 1", 3, std::nullopt, 1},
    {"unset with 4 replicas is 2", 4, std::nullopt, 2},
    {"unset with 10 replicas is 2", 10, std::nullopt, 2},
    {"unset with 11 replicas is 10% rounded down", 11, std::nullopt, 1},
    {"unset with 100 replicas is 10", 100, std::nullopt, 10},
    {"5% of 10 rounds down to 0 and becomes 1", 10, IntOrPercent{true, 5}, 1},
    {"no replicas, unset", 0, std::nullopt, 0},
    {"no replicas, 50%", 0, IntOrPercent{true, 50}, 0},
};

TEST(MaxUnavailableTest, KoordinatorTable) {
  for (const Case& c : kCases) {
    EXPECT_EQ(maxUnavailable(c.replicas, c.value), c.want) << c.name;
    EXPECT_EQ(maxMigrating(c.replicas, c.value), c.want) << c.name;
  }
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
