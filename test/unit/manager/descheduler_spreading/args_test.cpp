// Args of the spreading plugins: the community's validation tables, defaults and strict decoding.
#include <gtest/gtest.h>

#include "manager/descheduler/plugins/spreading/pod_anti_affinity.hpp"
#include "manager/descheduler/plugins/spreading/registry.hpp"
#include "manager/descheduler/plugins/spreading/remove_duplicates.hpp"
#include "manager/descheduler/plugins/spreading/topology_spread.hpp"

namespace koord::manager::descheduler::plugins::spreading {
namespace {

using Json = nlohmann::json;

Json bothNamespaces() {
  return {{"namespaces", {{"include", {"default"}}, {"exclude", {"kube-system"}}}}};
}
Json badSelector() {
  return {{"labelSelector", {{"matchExpressions", {{{"operator", "In"}}}}}}};
}

TEST(SpreadingArgsTest, RemoveDuplicatesValidation) {
  EXPECT_TRUE(decodeRemoveDuplicatesArgs(
                  {{"excludeOwnerKinds", {"Job"}}, {"namespaces", {{"include", {"default"}}}}})
                  .ok());
  Json both = bothNamespaces();
  both["excludeOwnerKinds"] = {"Job"};
  auto bad = decodeRemoveDuplicatesArgs(both);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "RemoveDuplicatesArgs.namespaces: only one of Include/Exclude namespaces can be set");
}

TEST(SpreadingArgsTest, RemoveDuplicatesDecoding) {
  auto defaults = decodeRemoveDuplicatesArgs(nullptr);
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->namespaces.has_value());
  EXPECT_TRUE(defaults->exclude_owner_kinds.empty());
  EXPECT_TRUE(decodeRemoveDuplicatesArgs(
                  {{"apiVersion", "descheduler/v1alpha2"}, {"kind", "RemoveDuplicatesArgs"}})
                  .ok());
  EXPECT_EQ(decodeRemoveDuplicatesArgs({{"nodeFit", true}}).status().message(),
            "RemoveDuplicatesArgs.nodeFit: unknown field");
  EXPECT_EQ(decodeRemoveDuplicatesArgs({{"excludeOwnerKinds", "Job"}}).status().message(),
            "RemoveDuplicatesArgs.excludeOwnerKinds: expected array of strings");
  EXPECT_EQ(decodeRemoveDuplicatesArgs({{"namespaces", {{"includes", {"a"}}}}}).status().message(),
            "RemoveDuplicatesArgs.namespaces.includes: unknown field");
  EXPECT_EQ(decodeRemoveDuplicatesArgs(Json::array()).status().message(),
            "RemoveDuplicatesArgs: expected object");
}

TEST(SpreadingArgsTest, InterPodAntiAffinityValidation) {
  EXPECT_TRUE(decodeRemovePodsViolatingInterPodAntiAffinityArgs(
                  {{"namespaces", {{"include", {"default"}}}}})
                  .ok());
  EXPECT_EQ(decodeRemovePodsViolatingInterPodAntiAffinityArgs(bothNamespaces()).status().message(),
            "RemovePodsViolatingInterPodAntiAffinityArgs.namespaces: only one of Include/Exclude "
            "namespaces can be set");
  EXPECT_TRUE(decodeRemovePodsViolatingInterPodAntiAffinityArgs(
                  {{"labelSelector", {{"matchLabels", {{"role.kubernetes.io/node", ""}}}}}})
                  .ok());
  auto bad = decodeRemovePodsViolatingInterPodAntiAffinityArgs(badSelector());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind(
                "RemovePodsViolatingInterPodAntiAffinityArgs.labelSelector: failed to get label "
                "selectors from strategy's params: ",
                0),
            0U)
      << bad.status().message();
  EXPECT_EQ(decodeRemovePodsViolatingInterPodAntiAffinityArgs({{"excludeOwnerKinds", {}}})
                .status()
                .message(),
            "RemovePodsViolatingInterPodAntiAffinityArgs.excludeOwnerKinds: unknown field");
}

TEST(SpreadingArgsTest, TopologySpreadDefaultsAndValidation) {
  auto defaults = decodeTopologySpreadArgs(nullptr);
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->constraints, std::vector<std::string>{"DoNotSchedule"});
  EXPECT_TRUE(defaults->topology_balance_node_fit);
  EXPECT_FALSE(defaults->scope.namespaces.has_value());
  EXPECT_FALSE(defaults->scope.label_selector.has_value());

  auto set = decodeTopologySpreadArgs(
      {{"constraints", {"DoNotSchedule", "ScheduleAnyway"}}, {"topologyBalanceNodeFit", false}});
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->constraints, (std::vector<std::string>{"DoNotSchedule", "ScheduleAnyway"}));
  EXPECT_FALSE(set->topology_balance_node_fit);

  EXPECT_TRUE(decodeTopologySpreadArgs({{"namespaces", {{"include", {"default"}}}}}).ok());
  EXPECT_EQ(decodeTopologySpreadArgs(bothNamespaces()).status().message(),
            "RemovePodsViolatingTopologySpreadConstraintArgs.namespaces: only one of "
            "Include/Exclude namespaces can be set");
  EXPECT_FALSE(decodeTopologySpreadArgs(badSelector()).ok());
  EXPECT_EQ(decodeTopologySpreadArgs({{"constraints", {"foo"}}}).status().message(),
            "RemovePodsViolatingTopologySpreadConstraintArgs.constraints: constraint foo is not "
            "one of map[DoNotSchedule:{} ScheduleAnyway:{}]");
  EXPECT_EQ(decodeTopologySpreadArgs({{"topologyBalanceNodeFit", "yes"}}).status().message(),
            "RemovePodsViolatingTopologySpreadConstraintArgs.topologyBalanceNodeFit: expected "
            "boolean");
}

TEST(SpreadingArgsTest, RegistryListsThePluginsAndTheirFactoriesCheckArgs) {
  auto plugins = spreadingPlugins();
  ASSERT_EQ(plugins.size(), 3U);
  EXPECT_EQ(plugins[0].name, "RemoveDuplicates");
  EXPECT_EQ(plugins[1].name, "RemovePodsViolatingInterPodAntiAffinity");
  EXPECT_EQ(plugins[2].name, "RemovePodsViolatingTopologySpreadConstraint");
  framework::Handle handle;
  for (const auto& entry : plugins) {
    auto made = entry.factory(nullptr, handle);
    ASSERT_TRUE(made.ok()) << entry.name;
    EXPECT_EQ((*made)->name(), entry.name);
    EXPECT_FALSE(entry.factory({{"bogus", 1}}, handle).ok()) << entry.name;
  }
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::spreading
