#include "extender/plugins/builtin.hpp"

#include <gtest/gtest.h>

#include "extender/config/extender_config.hpp"
#include "extender/plugins/kube/kube_plugins.hpp"
#include "plugin_test_util.hpp"

namespace koord::extender::plugins {
namespace {

TEST(BuiltinPluginsTest, ListsEveryPluginAndEachMakesItselfWithDefaults) {
  framework::Registry registry = builtinPlugins();
  EXPECT_EQ(registry.names(),
            (std::vector<std::string>{"BatchResources", "DeviceResources", "LoadAwareScheduling",
                                      "NodeNUMAResource", "NodeReservation", "PriorityQoS",
                                      "Reservation"}));
  testing::TestHandle handle;
  for (const auto& name : registry.names()) {
    SCOPED_TRACE(name);
    const framework::PluginFactory* factory = registry.find(name);
    ASSERT_NE(factory, nullptr);
    auto plugin = (*factory)(nullptr, handle);
    ASSERT_TRUE(plugin.ok()) << plugin.status();
    EXPECT_EQ((*plugin)->name(), name);
    auto bad = (*factory)(api::Json{{"noSuchField", 1}}, handle);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status().message().find("args.noSuchField: unknown field"), std::string::npos);
  }
}

// The order decides which plugin's reason a user reads first: koord-extender's defaults (and so the
// shipped deploy/extender-config, which extender_config_test holds to them) and the simulator run
// the registry's list in the registry's order.
TEST(BuiltinPluginsTest, ExtenderAndSimulatorRunTheRegistrysOrder) {
  const std::vector<std::string> order = {
      "NodeReservation", "PriorityQoS", "BatchResources",  "LoadAwareScheduling",
      "DeviceResources", "Reservation", "NodeNUMAResource"};
  EXPECT_EQ(defaultPluginNames(), order);
  std::vector<std::string> extender;
  for (const auto& plugin : config::defaultPlugins())
    extender.push_back(plugin.name);
  EXPECT_EQ(extender, order);
  std::vector<std::string> simulator;
  for (const auto& plugin : simulatorDefaultConfigs())
    simulator.push_back(plugin.name);
  std::vector<std::string> want;
  for (const auto& plugin : kube::filterConfigs())
    want.push_back(plugin.name);
  want.insert(want.end(), order.begin(), order.end());
  EXPECT_EQ(simulator, want);
  const framework::Registry placement = placementRegistry();
  for (const auto& name : simulator)
    EXPECT_NE(placement.find(name), nullptr) << name;
}

}  // namespace
}  // namespace koord::extender::plugins
