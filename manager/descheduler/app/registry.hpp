// koord-descheduler's plugin registry: every descheduling plugin built into the program, by its
// community name, with its factory (one line per plugin folder's list, registry.cpp), and the
// check that every plugin a configuration enables is known.
//
// Contract:
// - builtIn() holds the plugins of node_rules, utilization and spreading, plus pod_lifecycle and
//   lownodeload when those folders were built (KOORD_DESCHEDULER_HAVE_* compile definitions).
// - find(name) is the factory, or nullptr.
// - checkConfiguration(config) is kInvalidArgument naming every unknown name a profile enables at
//   deschedule or balance (`profile "p": unknown plugin(s) enabled: A, B`), and every evict or
//   filter plugin other than MigrationController and DefaultEvictor; all problems at once.
// Immutable after construction; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "koord/common/status.hpp"
#include "manager/descheduler/config/descheduler_config.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::app {

class PluginRegistry {
 public:
  explicit PluginRegistry(std::vector<framework::RegisteredPlugin> plugins);
  [[nodiscard]] static PluginRegistry builtIn();

  [[nodiscard]] const framework::Factory* find(std::string_view name) const;
  // The registered names, in registration order.
  [[nodiscard]] std::vector<std::string> names() const;
  [[nodiscard]] Status checkConfiguration(const config::DeschedulerConfiguration& config) const;

 private:
  std::vector<framework::RegisteredPlugin> plugins_;
};

// The evict/filter plugins koord-descheduler knows (MigrationController, DefaultEvictor).
[[nodiscard]] bool isKnownEvictorPlugin(std::string_view name);

}  // namespace koord::manager::descheduler::app
