#include "manager/noderesource/sync.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/noderesource/fixture.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::at;
using fixture::kNowText;
using fixture::q;

TEST(NeedSync, Throttling) {
  const std::string cpu = "kubernetes.io/batch-cpu";
  const std::string memory = "kubernetes.io/batch-memory";
  struct Case {
    std::string name;
    resource::ResourceList old_resources;
    resource::ResourceList new_resources;
    std::optional<std::string> last_update;
    bool want;
    std::string want_reason;  // checked when not empty
  };
  const resource::ResourceList base = {{cpu, q("100")}, {memory, q("10Gi")}};
  const std::vector<Case> cases = {
      {"never updated", base, base, std::nullopt, true, "never updated"},
      {"time exceeded", base, base, "2026-01-01T11:54:59Z", true,
       "last update 5m1s ago, updateTimeThresholdSeconds 300"},
      {"exactly the threshold", base, base, "2026-01-01T11:55:00Z", false,
       "no change beyond resourceDiffThreshold 0.1 within updateTimeThresholdSeconds 300"},
      {"10% up is not more than 10%",
       base,
       {{cpu, q("110")}, {memory, q("10Gi")}},
       "2026-01-01T11:59:00Z",
       false,
       ""},
      {"11% up",
       base,
       {{cpu, q("111")}, {memory, q("10Gi")}},
       "2026-01-01T11:59:00Z",
       true,
       "kubernetes.io/batch-cpu changed from 100 to 111, more than resourceDiffThreshold 0.1"},
      {"11% down", base, {{cpu, q("89")}, {memory, q("10Gi")}}, "2026-01-01T11:59:00Z", true, ""},
      {"10% down", base, {{cpu, q("90")}, {memory, q("10Gi")}}, "2026-01-01T11:59:00Z", false, ""},
      {"memory grows 20%",
       base,
       {{cpu, q("100")}, {memory, q("12Gi")}},
       "2026-01-01T11:59:00Z",
       true,
       "kubernetes.io/batch-memory changed from 10Gi to 12Gi, more than resourceDiffThreshold 0.1"},
      {"removed",
       base,
       {{cpu, q("100")}},
       "2026-01-01T11:59:00Z",
       true,
       "kubernetes.io/batch-memory removed (was 10Gi)"},
      {"added",
       {},
       {{cpu, q("100")}},
       "2026-01-01T11:59:00Z",
       true,
       "kubernetes.io/batch-cpu added (100)"},
      {"zero stays zero", {{cpu, q("0")}}, {{cpu, q("0")}}, "2026-01-01T11:59:00Z", false, ""},
      {"zero to one", {{cpu, q("0")}}, {{cpu, q("1")}}, "2026-01-01T11:59:00Z", true, ""},
  };
  ColocationStrategy strategy;
  for (const auto& tc : cases) {
    std::optional<TimePoint> last;
    if (tc.last_update) {
      last = at(*tc.last_update);
    }
    SyncDecision d = needSync(tc.old_resources, tc.new_resources, last, at(kNowText), strategy);
    EXPECT_EQ(d.sync, tc.want) << tc.name << ": " << d.reason;
    if (!tc.want_reason.empty()) {
      EXPECT_EQ(d.reason, tc.want_reason) << tc.name;
    }
  }
  // A larger threshold tolerates the 11% change.
  strategy.resourceDiffThreshold = 0.2;
  EXPECT_FALSE(needSync(base, {{cpu, q("111")}, {memory, q("10Gi")}}, at("2026-01-01T11:59:00Z"),
                        at(kNowText), strategy)
                   .sync);
}

TEST(FormatDuration, GoStyle) {
  EXPECT_EQ(formatDuration(0), "0s");
  EXPECT_EQ(formatDuration(45), "45s");
  EXPECT_EQ(formatDuration(1200), "20m");
  EXPECT_EQ(formatDuration(3900), "1h5m");
  EXPECT_EQ(formatDuration(3630), "1h30s");
  EXPECT_EQ(formatDuration(-61), "-1m1s");
}

}  // namespace
}  // namespace koord::manager::noderesource
