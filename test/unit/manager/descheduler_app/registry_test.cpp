#include "manager/descheduler/app/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::app {
namespace {

config::DeschedulerConfiguration loadConfig(const std::string& yaml) {
  auto loaded = config::loadDeschedulerConfiguration(yaml, "test.yaml");
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  return loaded.ok() ? *loaded : config::DeschedulerConfiguration{};
}

std::vector<std::string> communityNames() {
  std::vector<std::string> names = {"RemovePodsViolatingNodeAffinity",
                                    "RemovePodsViolatingNodeTaints",
                                    "LowNodeUtilization",
                                    "HighNodeUtilization",
                                    "RemoveDuplicates",
                                    "RemovePodsViolatingInterPodAntiAffinity",
                                    "RemovePodsViolatingTopologySpreadConstraint"};
#ifdef KOORD_DESCHEDULER_HAVE_POD_LIFECYCLE
  for (const char* name : {"RemoveFailedPods", "PodLifeTime", "RemovePodsHavingTooManyRestarts"}) {
    names.emplace_back(name);
  }
#endif
#ifdef KOORD_DESCHEDULER_HAVE_LOWNODELOAD
  names.emplace_back("LowNodeLoad");
#endif
  return names;
}

TEST(PluginRegistryTest, BuiltInHoldsEveryCommunityPluginByItsName) {
  const PluginRegistry registry = PluginRegistry::builtIn();
  const std::vector<std::string> names = registry.names();
  for (const std::string& name : communityNames()) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    EXPECT_NE(registry.find(name), nullptr) << name;
  }
  EXPECT_EQ(names.size(), communityNames().size());
}

TEST(PluginRegistryTest, EachFactoryBuildsThePluginOfItsName) {
  const PluginRegistry registry = PluginRegistry::builtIn();
  framework::Handle handle;
  // The least args each plugin accepts (null: its defaults).
  const nlohmann::json minimal = {
      {"RemovePodsViolatingNodeAffinity",
       {{"nodeAffinityType", {"requiredDuringSchedulingIgnoredDuringExecution"}}}},
      {"PodLifeTime", {{"maxPodLifeTimeSeconds", 60}}},
      {"RemovePodsHavingTooManyRestarts", {{"podRestartThreshold", 10}}},
      {"LowNodeUtilization", {{"thresholds", {{"cpu", 20}}}, {"targetThresholds", {{"cpu", 70}}}}},
      {"HighNodeUtilization", {{"thresholds", {{"cpu", 20}}}}},
      {"LowNodeLoad", {{"lowThresholds", {{"cpu", 20}}}, {"highThresholds", {{"cpu", 70}}}}}};
  for (const std::string& name : registry.names()) {
    auto plugin = (*registry.find(name))(minimal.value(name, nlohmann::json()), handle);
    ASSERT_TRUE(plugin.ok()) << name << ": " << plugin.status().message();
    EXPECT_EQ((*plugin)->name(), name);
  }
}

TEST(PluginRegistryTest, UnknownNameIsNotFound) {
  EXPECT_EQ(PluginRegistry::builtIn().find("RemovePodsViolatingNodeTaint"), nullptr);
}

TEST(PluginRegistryTest, ConfigurationWithKnownPluginsPasses) {
  const auto config = loadConfig(R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
profiles:
- name: p
  plugins:
    deschedule:
      enabled:
      - name: RemovePodsViolatingNodeTaints
    balance:
      enabled:
      - name: RemoveDuplicates
    filter:
      enabled:
      - name: DefaultEvictor
)");
  EXPECT_TRUE(PluginRegistry::builtIn().checkConfiguration(config).isOk());
}

TEST(PluginRegistryTest, UnknownPluginsAreNamedPerProfile) {
  const auto config = loadConfig(R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
profiles:
- name: first
  plugins:
    deschedule:
      enabled:
      - name: Nope
      - name: RemovePodsViolatingNodeTaints
    balance:
      enabled:
      - name: Nah
- name: second
  plugins:
    evict:
      enabled:
      - name: OtherEvictor
)");
  const Status status = PluginRegistry::builtIn().checkConfiguration(config);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("profile \"first\": unknown plugins enabled: Nope, Nah"),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("profile \"second\": unknown plugin enabled: OtherEvictor"),
            std::string::npos)
      << status.message();
}

}  // namespace
}  // namespace koord::manager::descheduler::app
