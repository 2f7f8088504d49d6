#include "extender/plugins/builtin.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "extender/plugins/batch_resources/batch_resources.hpp"
#include "extender/plugins/device_resources/device_resources.hpp"
#include "extender/plugins/kube/kube_plugins.hpp"
#include "extender/plugins/load_aware/load_aware.hpp"
#include "extender/plugins/node_numa_resource/node_numa_resource.hpp"
#include "extender/plugins/node_reservation/node_reservation.hpp"
#include "extender/plugins/priority_qos/priority_qos.hpp"
#include "extender/plugins/reservation/reservation_plugin.hpp"

namespace koord::extender::plugins {

std::vector<BuiltinPlugin> builtinPluginList() {
  return {
      {node_reservation::kName,
       node_reservation::create,
       {},
       [](framework::ClusterState& c) { node_reservation::AnnotatedNodes::install(c); }},
      {priority_qos::kName, priority_qos::create},
      {batch_resources::kName, batch_resources::create},
      // After the checks kube-scheduler's NodeResourcesFit makes in Koordinator (node reservation,
      // batch resources) and before its out-of-tree plugins, as in Koordinator's filter order.
      {load_aware::kName,
       load_aware::create,
       {framework::KindOf<api::slo::NodeMetric>::kName},
       nullptr,
       load_aware::defaultProfileArgs},
      {device_resources::kName, device_resources::create},
      {reservation::kName,
       reservation::create,
       {},
       [](framework::ClusterState& c) { common::ReservationState::install(c); }},
      // After Reservation: its reserve() nominates the reservation whose CPUs an owner takes.
      {node_numa_resource::kName,
       node_numa_resource::create,
       {framework::KindOf<api::topology::NodeResourceTopology>::kName},
       [](framework::ClusterState& c) {
         node_numa_resource::CPUAllocationSource::install(c);
         node_numa_resource::NodeLabelPolicies::install(c);
       }},
  };
}

std::vector<std::pair<std::string, api::Json>> defaultProfile() {
  std::vector<std::pair<std::string, api::Json>> profile;
  for (const BuiltinPlugin& plugin : builtinPluginList())
    profile.emplace_back(plugin.name,
                         plugin.profile_args != nullptr ? plugin.profile_args() : api::Json());
  return profile;
}

std::vector<std::string> defaultPluginNames() {
  std::vector<std::string> names;
  for (const BuiltinPlugin& plugin : builtinPluginList())
    names.emplace_back(plugin.name);
  return names;
}

std::vector<std::string> kindsRead(const std::vector<std::string>& plugins) {
  std::set<std::string> kinds;
  for (const BuiltinPlugin& plugin : builtinPluginList()) {
    if (std::find(plugins.begin(), plugins.end(), plugin.name) == plugins.end())
      continue;
    for (std::string_view kind : plugin.kinds)
      kinds.emplace(kind);
  }
  return {kinds.begin(), kinds.end()};
}

void installNodeData(const std::vector<std::string>& plugins, framework::ClusterState& cluster) {
  for (const BuiltinPlugin& plugin : builtinPluginList()) {
    if (plugin.node_data != nullptr &&
        std::find(plugins.begin(), plugins.end(), plugin.name) != plugins.end())
      plugin.node_data(cluster);
  }
}

framework::Registry builtinPlugins() {
  framework::Registry registry;
  // The names are distinct constants, so add() cannot fail here.
  for (const BuiltinPlugin& plugin : builtinPluginList())
    (void)registry.add(std::string(plugin.name), plugin.factory);
  return registry;
}

framework::Registry placementRegistry() {
  framework::Registry registry = kube::kubePlugins();
  // kube-scheduler's names differ from the built-in ones.
  for (const BuiltinPlugin& plugin : builtinPluginList())
    (void)registry.add(std::string(plugin.name), plugin.factory);
  return registry;
}

std::vector<framework::PluginConfig> simulatorDefaultConfigs() {
  std::vector<framework::PluginConfig> configs = kube::filterConfigs();
  for (auto& [name, args] : defaultProfile()) {
    framework::PluginConfig config;
    config.name = std::move(name);
    config.args = std::move(args);
    configs.push_back(std::move(config));
  }
  return configs;
}

}  // namespace koord::extender::plugins
