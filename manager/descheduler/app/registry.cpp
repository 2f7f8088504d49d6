#include "manager/descheduler/app/registry.hpp"

#include <utility>

#include "manager/descheduler/framework/default_evictor.hpp"
#include "manager/descheduler/plugins/node_rules/registry.hpp"
#include "manager/descheduler/plugins/spreading/registry.hpp"
#include "manager/descheduler/plugins/utilization/registry.hpp"
#ifdef KOORD_DESCHEDULER_HAVE_POD_LIFECYCLE
#include "manager/descheduler/plugins/pod_lifecycle/registry.hpp"
#endif
#ifdef KOORD_DESCHEDULER_HAVE_LOWNODELOAD
#include "manager/descheduler/plugins/lownodeload/registry.hpp"
#endif

namespace koord::manager::descheduler::app {

namespace registry_detail {

void append(std::vector<framework::RegisteredPlugin>& out,
            std::vector<framework::RegisteredPlugin> more) {
  for (auto& plugin : more) {
    out.push_back(std::move(plugin));
  }
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

}  // namespace registry_detail

PluginRegistry::PluginRegistry(std::vector<framework::RegisteredPlugin> plugins)
    : plugins_(std::move(plugins)) {}

PluginRegistry PluginRegistry::builtIn() {
  std::vector<framework::RegisteredPlugin> all;
  registry_detail::append(all, plugins::node_rules::nodeRulesPlugins());
  registry_detail::append(all, utilization::utilizationPlugins());
  registry_detail::append(all, plugins::spreading::spreadingPlugins());
#ifdef KOORD_DESCHEDULER_HAVE_POD_LIFECYCLE
  registry_detail::append(all, pod_lifecycle::podLifecyclePlugins());
#endif
#ifdef KOORD_DESCHEDULER_HAVE_LOWNODELOAD
  registry_detail::append(all, lownodeload::lowNodeLoadPlugins());
#endif
  return PluginRegistry(std::move(all));
}

const framework::Factory* PluginRegistry::find(std::string_view name) const {
  for (const auto& plugin : plugins_) {
    if (plugin.name == name) {
      return &plugin.factory;
    }
  }
  return nullptr;
}

std::vector<std::string> PluginRegistry::names() const {
  std::vector<std::string> out;
  out.reserve(plugins_.size());
  for (const auto& plugin : plugins_) {
    out.push_back(plugin.name);
  }
  return out;
}

bool isKnownEvictorPlugin(std::string_view name) {
  return name == config::kMigrationControllerName || name == framework::kDefaultEvictorName;
}

Status PluginRegistry::checkConfiguration(const config::DeschedulerConfiguration& config) const {
  std::vector<std::string> problems;
  for (const auto& profile : config.profiles) {
    std::vector<std::string> unknown;
    for (const auto* set : {&profile.plugins.deschedule, &profile.plugins.balance}) {
      for (const std::string& name : set->enabled) {
        if (find(name) == nullptr) {
          unknown.push_back(name);
        }
      }
    }
    for (const auto* set : {&profile.plugins.evict, &profile.plugins.filter}) {
      for (const std::string& name : set->enabled) {
        if (!isKnownEvictorPlugin(name)) {
          unknown.push_back(name);
        }
      }
    }
    if (!unknown.empty()) {
      problems.push_back("profile \"" + profile.name + "\": unknown plugin" +
                         (unknown.size() == 1 ? "" : "s") +
                         " enabled: " + registry_detail::joinNames(unknown));
    }
  }
  if (problems.empty()) {
    return Status::ok();
  }
  std::string message;
  for (const std::string& problem : problems) {
    message += (message.empty() ? "" : "; ") + problem;
  }
  return Status::invalidArgument(message + " (built: " + registry_detail::joinNames(names()) +
                                 "; evictors: MigrationController, DefaultEvictor)");
}

}  // namespace koord::manager::descheduler::app
