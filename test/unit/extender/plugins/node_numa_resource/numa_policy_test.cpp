// nodeNUMAPolicy / mergeTopologyPolicy, after Koordinator's util.go getNUMATopologyPolicy,
// mergeTopologyPolicy and topology_options.go convertToNUMATopologyPolicy.
#include "extender/plugins/node_numa_resource/numa_policy.hpp"

#include <gtest/gtest.h>

namespace koord::extender::plugins::node_numa_resource {
// Named (not anonymous): unity builds merge the test files.
namespace numa_policy_test {

using api::extension::NUMATopologyPolicy;
constexpr const char* kLabel = "node.koordinator.sh/numa-topology-policy";

TEST(NUMAPolicyTest, NodeLabelOverridesTheNRT) {
  EXPECT_EQ(nodeNUMAPolicy({{kLabel, "Restricted"}}, {"SingleNUMANodePodLevel"}),
            NUMATopologyPolicy::kRestricted);
  EXPECT_EQ(nodeNUMAPolicy({{kLabel, "SingleNUMANode"}}, {}), NUMATopologyPolicy::kSingleNUMANode);
  EXPECT_EQ(nodeNUMAPolicy({{kLabel, "BestEffort"}}, {"None"}), NUMATopologyPolicy::kBestEffort);
}

TEST(NUMAPolicyTest, EmptyOrUnknownLabelFallsBackToTheNRT) {
  EXPECT_EQ(nodeNUMAPolicy({{kLabel, ""}}, {"Restricted"}), NUMATopologyPolicy::kRestricted);
  EXPECT_EQ(nodeNUMAPolicy({{kLabel, "restricted"}}, {"BestEffort"}),
            NUMATopologyPolicy::kBestEffort);
  EXPECT_EQ(nodeNUMAPolicy({}, {}), NUMATopologyPolicy::kNone);
}

TEST(NUMAPolicyTest, NRTSpellingsAsKoordinatorMapsThem) {
  struct NRTCase {
    std::vector<std::string> policies;
    NUMATopologyPolicy want;
  };
  const std::vector<NRTCase> cases = {
      {{"SingleNUMANodePodLevel"}, NUMATopologyPolicy::kSingleNUMANode},
      {{"Restricted"}, NUMATopologyPolicy::kRestricted},
      {{"BestEffort"}, NUMATopologyPolicy::kBestEffort},
      {{"None"}, NUMATopologyPolicy::kNone},
      // convertToNUMATopologyPolicy knows only the three spellings above.
      {{"SingleNUMANodeContainerLevel"}, NUMATopologyPolicy::kNone},
      {{"RestrictedPodLevel"}, NUMATopologyPolicy::kNone},
      {{"BestEffortContainerLevel"}, NUMATopologyPolicy::kNone},
      // The first recognised entry wins.
      {{"None", "SingleNUMANodeContainerLevel", "Restricted", "BestEffort"},
       NUMATopologyPolicy::kRestricted},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(nodeNUMAPolicy({}, c.policies), c.want) << c.policies.front();
  }
}

TEST(NUMAPolicyTest, MergeRejectsDifferentPoliciesAndPrefersThePod) {
  auto conflict =
      mergeTopologyPolicy(NUMATopologyPolicy::kSingleNUMANode, NUMATopologyPolicy::kRestricted);
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.status().message(), "node(s) NUMA Topology policy not match");

  auto pod_only = mergeTopologyPolicy(NUMATopologyPolicy::kNone, NUMATopologyPolicy::kBestEffort);
  ASSERT_TRUE(pod_only.ok());
  EXPECT_EQ(*pod_only, NUMATopologyPolicy::kBestEffort);

  auto node_only = mergeTopologyPolicy(NUMATopologyPolicy::kRestricted, NUMATopologyPolicy::kNone);
  ASSERT_TRUE(node_only.ok());
  EXPECT_EQ(*node_only, NUMATopologyPolicy::kRestricted);

  auto same =
      mergeTopologyPolicy(NUMATopologyPolicy::kSingleNUMANode, NUMATopologyPolicy::kSingleNUMANode);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, NUMATopologyPolicy::kSingleNUMANode);
}

}  // namespace numa_policy_test
}  // namespace koord::extender::plugins::node_numa_resource
