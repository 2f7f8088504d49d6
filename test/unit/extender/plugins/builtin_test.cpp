#include "extender/plugins/builtin.hpp"

#include <gtest/gtest.h>

#include "plugin_test_util.hpp"

namespace koord::extender::plugins {
namespace {

TEST(BuiltinPluginsTest, ListsEveryPluginAndEachMakesItselfWithDefaults) {
  framework::Registry registry = builtinPlugins();
  EXPECT_EQ(registry.names(),
            (std::vector<std::string>{"BatchResources", "DeviceResources", "NodeReservation",
                                      "PriorityQoS", "Reservation"}));
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

}  // namespace
}  // namespace koord::extender::plugins
