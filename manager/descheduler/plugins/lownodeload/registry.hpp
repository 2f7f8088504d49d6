// The descheduling plugins of this folder, for the program's plugin registry: LowNodeLoad.
#pragma once

#include <vector>

#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::lownodeload {

[[nodiscard]] std::vector<framework::RegisteredPlugin> lowNodeLoadPlugins();

}  // namespace koord::manager::descheduler::lownodeload
