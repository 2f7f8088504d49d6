// The spreading plugins of koord-descheduler (RemoveDuplicates,
// RemovePodsViolatingInterPodAntiAffinity, RemovePodsViolatingTopologySpreadConstraint), by name
// with their factories, for the program's plugin registry.
#pragma once

#include <vector>

#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::plugins::spreading {

[[nodiscard]] std::vector<framework::RegisteredPlugin> spreadingPlugins();

}  // namespace koord::manager::descheduler::plugins::spreading
