// The node-rule descheduling plugins (RemovePodsViolatingNodeAffinity,
// RemovePodsViolatingNodeTaints) for the program's plugin registry.
#pragma once

#include <vector>

#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

[[nodiscard]] std::vector<framework::RegisteredPlugin> nodeRulesPlugins();

}  // namespace koord::manager::descheduler::plugins::node_rules
