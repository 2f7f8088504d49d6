// The folder's registry lists each plugin once, with a factory that builds it.
#include "manager/descheduler/plugins/pod_lifecycle/registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace koord::manager::descheduler::pod_lifecycle {
namespace registry_test_detail {

TEST(PodLifecycleRegistryTest, ListsTheThreePluginsWithWorkingFactories) {
  const nlohmann::json valid_args[] = {
      nullptr, {{"maxPodLifeTimeSeconds", 60}}, {{"podRestartThreshold", 1}}};
  auto plugins = podLifecyclePlugins();
  ASSERT_EQ(plugins.size(), 3U);
  std::set<std::string> names;
  framework::Handle handle;
  for (size_t i = 0; i < plugins.size(); ++i) {
    names.insert(plugins[i].name);
    auto plugin = plugins[i].factory(valid_args[i], handle);
    ASSERT_TRUE(plugin.ok()) << plugins[i].name << ": " << plugin.status().toString();
    EXPECT_EQ((*plugin)->name(), plugins[i].name);
    EXPECT_NE(dynamic_cast<framework::DeschedulePlugin*>(plugin->get()), nullptr);
  }
  EXPECT_EQ(names, (std::set<std::string>{"RemoveFailedPods", "PodLifeTime",
                                          "RemovePodsHavingTooManyRestarts"}));
}

}  // namespace registry_test_detail
}  // namespace koord::manager::descheduler::pod_lifecycle
