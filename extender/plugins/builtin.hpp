// The plugin registry: koord-extender's built-in plugins in one ordered list (no
// self-registration), and kube-scheduler's filters (plugins/kube) for the places koord-extender
// chooses a node itself. The list's order is the default plugin order everywhere: koord-extender's
// default configuration, the shipped deploy/extender-config, the simulator and
// docs/extender-plugins.md. A node is rejected by the first plugin that refuses it, so the order
// decides which reason a user reads; tests hold the four to this list.
//
// Adding a plugin: its folder under plugins/, and one line in builtin.cpp's list, naming the kinds
// it reads through Handle::objects() (framework/kinds.hpp) and the node data sources it keeps in
// each NodeInfo (framework/node_data.hpp); `koord-extender serve` watches exactly the kinds of the
// enabled plugins and installs their node data, and the chart's RBAC must grant list and watch on
// the kinds (a test checks it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/registry.hpp"
#include "extender/framework/runtime.hpp"

namespace koord::extender::plugins {

struct BuiltinPlugin {
  std::string_view name;
  framework::PluginFactory factory;
  // The kinds (framework::KindOf<T>::kName) the plugin reads through Handle::objects().
  std::vector<std::string_view> kinds = {};
  // Adds the node data sources (framework/node_data.hpp) the plugin reads through
  // ClusterView::nodeData<T>() to a ClusterState; nullptr when it reads none.
  void (*node_data)(framework::ClusterState& cluster) = nullptr;
  // The args the default profile gives it (those of Koordinator's chart); nullptr: none, the
  // plugin's own defaults.
  api::Json (*profile_args)() = nullptr;
};

// LoadAwareScheduling, NodeReservation, PriorityQoS, BatchResources, DeviceResources, Reservation,
// NodeNUMAResource: the default order.
[[nodiscard]] std::vector<BuiltinPlugin> builtinPluginList();

// The default profile: every built-in plugin in order with the args it gets when a configuration
// names no plugins (the shipped deploy/extender-config and the chart spell out the same).
[[nodiscard]] std::vector<std::pair<std::string, api::Json>> defaultProfile();

// The names of builtinPluginList(), in order.
[[nodiscard]] std::vector<std::string> defaultPluginNames();

// The kinds the plugins named in `plugins` declare, sorted, each once (unknown names are skipped:
// Runtime::create reports them).
[[nodiscard]] std::vector<std::string> kindsRead(const std::vector<std::string>& plugins);

// Adds to `cluster` the node data sources of the plugins named in `plugins` (unknown names are
// skipped): what koord-extender and the simulator call before they create the plugins.
void installNodeData(const std::vector<std::string>& plugins, framework::ClusterState& cluster);

// A registry with every built-in plugin under its kName: what `koord-extender serve` creates its
// plugins from.
[[nodiscard]] framework::Registry builtinPlugins();

// builtinPlugins() plus kube-scheduler's filters (kube::kubePlugins()): what the simulator and the
// Reservation loop create their runtime from.
[[nodiscard]] framework::Registry placementRegistry();

// kube::filterConfigs(), then defaultPluginNames() with default args and weight 1: the
// simulator's plugin list.
[[nodiscard]] std::vector<framework::PluginConfig> simulatorDefaultConfigs();

}  // namespace koord::extender::plugins
