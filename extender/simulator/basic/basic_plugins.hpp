// The kube-scheduler filters the simulator runs before koord-extender's own plugins.
#pragma once

#include <vector>

#include "extender/framework/registry.hpp"
#include "extender/framework/runtime.hpp"

namespace koord::extender::simulator::basic {

// NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit.
[[nodiscard]] framework::Registry basicPlugins();

// The basic plugins above in kube-scheduler's filter order, NodeResourcesFit ignoring the batch and
// mid resources (as defaultPluginConfigs() says): what kube-scheduler itself checks for a pod, and
// so what koord-extender's reservation loop runs before its own plugins for a reserve pod.
[[nodiscard]] std::vector<framework::PluginConfig> basicPluginConfigs();

// The simulator's plugin list: basicPluginConfigs(), then every built-in koord-extender plugin
// (PriorityQoS, NodeReservation, BatchResources, Reservation), all with
// default args except NodeResourcesFit, which ignores the batch and mid resources (as a
// kube-scheduler deployed with koord-extender is configured to) so that BatchResources judges them.
[[nodiscard]] std::vector<framework::PluginConfig> defaultPluginConfigs();

// basicPlugins() plus plugins::builtinPlugins() in one registry.
[[nodiscard]] framework::Registry simulatorRegistry();

}  // namespace koord::extender::simulator::basic
