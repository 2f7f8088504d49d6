// The node utilization plugins koord-descheduler offers: LowNodeUtilization and
// HighNodeUtilization (community descheduler v0.36, request-based usage only). The program's
// registry adds these to its own.
#pragma once

#include <vector>

#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::utilization {

[[nodiscard]] std::vector<framework::RegisteredPlugin> utilizationPlugins();

}  // namespace koord::manager::descheduler::utilization
